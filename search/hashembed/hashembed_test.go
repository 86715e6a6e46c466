package hashembed_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	require.Len(t, a, hashembed.DefaultDim, "same text: dim %d, cosine %v", len(a), cos(a, b))
	require.GreaterOrEqual(t, cos(a, b), 0.999999, "same text: dim %d, cosine %v", len(a), cos(a, b))
	n := math.Sqrt(cos(a, a))
	require.InDelta(t, 1, n, 1e-5, "norm %v, want 1", n)
	z := e.Vector("the and of, ?!")
	assert.Zero(t, cos(z, z), "a text of stop words should embed to the zero vector")
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
		assert.Greater(t, r, u+0.1, "%q: related %.3f not clearly above unrelated %q %.3f", p.related, r, p.unrelated, u)
	}
}

func TestCalibrationIsOrdered(t *testing.T) {
	c := hashembed.New(0).Calibration()
	assert.Less(t, float32(0), c.Loosest, "levels out of order: %+v", c)
	assert.Less(t, c.Loosest, c.Relaxed, "levels out of order: %+v", c)
	assert.Less(t, c.Relaxed, c.Threshold, "levels out of order: %+v", c)
	assert.Less(t, c.Threshold, c.Confident, "levels out of order: %+v", c)
	assert.Less(t, c.Confident, float32(1), "levels out of order: %+v", c)
}

func TestEmbedHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := hashembed.New(64).Embed(ctx, []string{"a"})
	assert.ErrorIs(t, err, context.Canceled)
	vs, err := hashembed.New(64).Embed(context.Background(), []string{"a b", "c"})
	require.NoError(t, err, "Embed")
	require.Len(t, vs, 2, "Embed: %d vectors", len(vs))
	assert.Len(t, vs[0], 64, "Embed: first vector's dim")
}
