package eval

import "math"

// Sets of forty to fifty cases decide little by themselves: one case moves
// a rate by two or three points. The figures below say how much.

// Interval is a 95 % confidence interval of a rate.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Wilson is the Wilson score interval (95 %) of k successes in n trials;
// 0–1 when n is zero.
func Wilson(k, n int) Interval {
	if n == 0 {
		return Interval{0, 1}
	}
	const z = 1.959964
	p, fn := float64(k)/float64(n), float64(n)
	centre := (p + z*z/(2*fn)) / (1 + z*z/fn)
	half := z * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn)) / (1 + z*z/fn)
	return Interval{round(max(0, centre-half)), round(min(1, centre+half))}
}

// Paired compares the two modes case by case on the answerable cases:
// those only reflection answers (a relevant item cited), those only
// mechanical relaxation answers, and the two-sided sign test's p-value
// that the difference is chance.
type Paired struct {
	ReflectionOnly int     `json:"reflection_only"`
	MechanicalOnly int     `json:"mechanical_only"`
	P              float64 `json:"p"`
}

// pair compares the modes of results, or returns nil unless both ran.
func pair(results []CaseResult) *Paired {
	answered := map[Mode]map[string]bool{Reflection: {}, Mechanical: {}}
	ran := map[Mode]bool{}
	for _, r := range results {
		ran[r.Mode] = true
		if r.Answerable && len(r.Cited) > r.FalseCitations {
			answered[r.Mode][r.ID] = true
		}
	}
	if !ran[Reflection] || !ran[Mechanical] {
		return nil
	}
	p := &Paired{}
	for id := range answered[Reflection] {
		if !answered[Mechanical][id] {
			p.ReflectionOnly++
		}
	}
	for id := range answered[Mechanical] {
		if !answered[Reflection][id] {
			p.MechanicalOnly++
		}
	}
	p.P = round(signTest(p.ReflectionOnly, p.MechanicalOnly))
	return p
}

// signTest is the two-sided exact binomial test of a against b discordant
// pairs with even odds.
func signTest(a, b int) float64 {
	n := a + b
	if n == 0 {
		return 1
	}
	k := min(a, b)
	tail := 0.0
	for i := 0; i <= k; i++ {
		tail += math.Exp(logChoose(n, i) - float64(n)*math.Ln2)
	}
	return min(1, 2*tail)
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
