package hashembed_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/erleah/erleah-agent/search/hashembed"
)

func cos(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestVectorsAreDeterministicUnitVectors(t *testing.T) {
	e := hashembed.New(0)
	a, b := e.Vector("Deploying models on-premises"), e.Vector("Deploying models on-premises")
	if len(a) != hashembed.DefaultDim || cos(a, b) < 0.999999 {
		t.Fatalf("same text: dim %d, cosine %v", len(a), cos(a, b))
	}
	if n := math.Sqrt(cos(a, a)); math.Abs(n-1) > 1e-5 {
		t.Fatalf("norm %v, want 1", n)
	}
	if z := e.Vector("the and of, ?!"); cos(z, z) != 0 {
		t.Fatal("a text of stop words should embed to the zero vector")
	}
}

func TestSimilarTextsAreCloserThanUnrelatedOnes(t *testing.T) {
	e := hashembed.New(0)
	q := e.Vector("deploying machine learning models")
	pairs := []struct {
		related, unrelated string
	}{
		{"model deployment for machine learning", "morning yoga on the terrace"},
		{"kubernets", "coffee"}, // misspelling shares character n-grams
		{"deployments of models", "fraud detection in banking"},
	}
	for _, p := range pairs {
		base := q
		if p.related == "kubernets" {
			base = e.Vector("kubernetes")
		}
		r, u := cos(base, e.Vector(p.related)), cos(base, e.Vector(p.unrelated))
		if r <= u+0.1 {
			t.Errorf("%q: related %.3f not clearly above unrelated %q %.3f", p.related, r, p.unrelated, u)
		}
	}
}

func TestCalibrationIsOrdered(t *testing.T) {
	c := hashembed.New(0).Calibration()
	if !(0 < c.Loosest && c.Loosest < c.Relaxed && c.Relaxed < c.Threshold && c.Threshold < c.Confident && c.Confident < 1) {
		t.Fatalf("levels out of order: %+v", c)
	}
}

func TestEmbedHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := hashembed.New(64).Embed(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	vs, err := hashembed.New(64).Embed(context.Background(), []string{"a b", "c"})
	if err != nil || len(vs) != 2 || len(vs[0]) != 64 {
		t.Fatalf("Embed: %d vectors, %v", len(vs), err)
	}
}
