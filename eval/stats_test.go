package eval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWilsonIntervals(t *testing.T) {
	for _, c := range []struct {
		k, n      int
		low, high float64
	}{
		{5, 10, 0.237, 0.763}, // the textbook values
		{0, 10, 0, 0.278},
		{10, 10, 0.722, 1},
		{27, 42, 0.492, 0.770},
		{0, 0, 0, 1}, // nothing measured: anything
	} {
		got := Wilson(c.k, c.n)
		assert.InDelta(t, c.low, got.Low, 0.0015, "Wilson(%d, %d)", c.k, c.n)
		assert.InDelta(t, c.high, got.High, 0.0015, "Wilson(%d, %d)", c.k, c.n)
	}
}

func TestSignTest(t *testing.T) {
	assert.InDelta(t, 0.0156, signTest(7, 0), 0.0001, "7 against 0")
	assert.InDelta(t, 0.0156, signTest(0, 7), 0.0001, "0 against 7")
	assert.InDelta(t, 1.0, signTest(5, 5), 1e-9, "5 against 5")
	assert.InDelta(t, 0.1094, signTest(8, 2), 0.0001, "8 against 2")
	assert.Equal(t, 1.0, signTest(0, 0), "no discordant pair")
}

// The modes are compared case by case on answerable cases: an answer hit
// is a relevant citation; unanswerable cases do not count.
func TestPairedComparison(t *testing.T) {
	res := func(id string, m Mode, answerable bool, cited, falseCited int) CaseResult {
		r := CaseResult{ID: id, Mode: m, Answerable: answerable, FalseCitations: falseCited}
		for range cited {
			r.Cited = append(r.Cited, "sessions/x")
		}
		return r
	}
	results := []CaseResult{
		res("a", Reflection, true, 1, 0), res("a", Mechanical, true, 0, 0), // reflection only
		res("b", Reflection, true, 2, 1), res("b", Mechanical, true, 1, 1), // reflection only: mechanical's citation is false
		res("c", Reflection, true, 1, 1), res("c", Mechanical, true, 1, 0), // mechanical only
		res("d", Reflection, true, 1, 0), res("d", Mechanical, true, 1, 0), // both
		res("e", Reflection, false, 1, 1), res("e", Mechanical, false, 0, 0), // unanswerable: not compared
	}
	p := pair(results)
	require.NotNil(t, p)
	assert.Equal(t, 2, p.ReflectionOnly)
	assert.Equal(t, 1, p.MechanicalOnly)
	assert.InDelta(t, 1.0, p.P, 1e-9)
	assert.Nil(t, pair(results[:1]), "one mode only")
}
