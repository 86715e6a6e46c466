package eval

import (
	"math"
	"slices"
)

// Summary aggregates one mode's results (contract §4).
//
// Hit rates, recovery, recall and MRR are over answerable cases: a case
// with nothing relevant can never hit, so counting it would only dilute the
// rates of both modes alike. Unanswerable cases are measured by
// nothing_fits_rate, and every citation they make counts as false.
type Summary struct {
	Cases            int     `json:"cases"`
	FirstPassHitRate float64 `json:"first_pass_hit_rate"`
	FinalHitRate     float64 `json:"final_hit_rate"`
	// AnswerHitRate is the share of answerable cases whose answer cites a
	// relevant item: success as the attendee sees it, the headline figure.
	AnswerHitRate float64 `json:"answer_hit_rate"`
	// AnswerPrecision is relevant citations ÷ all citations (1 when nothing
	// was cited at all).
	AnswerPrecision float64 `json:"answer_precision"`
	// NothingFitsRate is the share of unanswerable cases answered without
	// any citation.
	NothingFitsRate   float64 `json:"nothing_fits_rate"`
	RecoveryRate      float64 `json:"recovery_rate"`
	RecallAt10        float64 `json:"recall_at_10"`
	MRR               float64 `json:"mrr"`
	FalseCitationRate float64 `json:"false_citation_rate"`
	MeanAttempts      float64 `json:"mean_attempts"`
	LLMCalls          int     `json:"llm_calls"`
	P50MS             float64 `json:"p50_ms"`
	P95MS             float64 `json:"p95_ms"`

	AnswerableCases int `json:"answerable_cases"`
	AnswerHits      int `json:"answer_hits"`
	FirstPassMisses int `json:"first_pass_misses"`
	Recovered       int `json:"recovered"`
	NoAnswerCases   int `json:"no_answer_cases"`
	NothingFits     int `json:"nothing_fits"`
	Citations       int `json:"citations"`
	FalseCitations  int `json:"false_citations"`
	Errors          int `json:"errors"`
	// AnswerHitCI, AnswerPrecisionCI and NothingFitsCI are the 95 %
	// intervals of those rates.
	AnswerHitCI       Interval `json:"answer_hit_ci"`
	AnswerPrecisionCI Interval `json:"answer_precision_ci"`
	NothingFitsCI     Interval `json:"nothing_fits_ci"`
	// ByKind has the same figures per case kind.
	ByKind map[string]Summary `json:"by_kind,omitempty"`
}

// summarise aggregates results, with a breakdown by kind.
func summarise(results []CaseResult) Summary {
	s := totals(results)
	kinds := map[string][]CaseResult{}
	for _, r := range results {
		kinds[r.Kind] = append(kinds[r.Kind], r)
	}
	s.ByKind = make(map[string]Summary, len(kinds))
	for k, rs := range kinds {
		s.ByKind[k] = totals(rs)
	}
	return s
}

func totals(results []CaseResult) Summary {
	s := Summary{Cases: len(results)}
	var firstHits, finalHits, attempts int
	var recall, rr float64
	ms := make([]float64, 0, len(results))
	for _, r := range results {
		ms = append(ms, r.MS)
		attempts += r.Attempts
		s.LLMCalls += r.ModelCalls
		s.Citations += len(r.Cited)
		s.FalseCitations += r.FalseCitations
		if r.Error != "" {
			s.Errors++
		}
		if !r.Answerable {
			s.NoAnswerCases++
			if len(r.Cited) == 0 && r.Error == "" {
				s.NothingFits++
			}
			continue
		}
		s.AnswerableCases++
		recall += r.Recall
		rr += r.RR
		if len(r.Cited) > r.FalseCitations {
			s.AnswerHits++
		}
		if r.FinalHit {
			finalHits++
		}
		switch {
		case r.FirstPassHit:
			firstHits++
		case r.FinalHit:
			s.FirstPassMisses++
			s.Recovered++
		default:
			s.FirstPassMisses++
		}
	}
	s.FirstPassHitRate = ratio(firstHits, s.AnswerableCases)
	s.FinalHitRate = ratio(finalHits, s.AnswerableCases)
	s.AnswerHitRate = ratio(s.AnswerHits, s.AnswerableCases)
	s.AnswerPrecision = 1
	if s.Citations > 0 {
		s.AnswerPrecision = ratio(s.Citations-s.FalseCitations, s.Citations)
	}
	s.NothingFitsRate = ratio(s.NothingFits, s.NoAnswerCases)
	s.RecoveryRate = ratio(s.Recovered, s.FirstPassMisses)
	s.RecallAt10 = round(recall / math.Max(1, float64(s.AnswerableCases)))
	s.MRR = round(rr / math.Max(1, float64(s.AnswerableCases)))
	s.FalseCitationRate = ratio(s.FalseCitations, s.Citations)
	s.MeanAttempts = ratio(attempts, len(results))
	s.P50MS, s.P95MS = round(percentile(ms, 0.5)), round(percentile(ms, 0.95))
	s.AnswerHitCI = Wilson(s.AnswerHits, s.AnswerableCases)
	s.AnswerPrecisionCI = Wilson(s.Citations-s.FalseCitations, s.Citations)
	s.NothingFitsCI = Wilson(s.NothingFits, s.NoAnswerCases)
	return s
}

// Kinds lists the kinds of a summary, sorted.
func (s Summary) Kinds() []string {
	out := make([]string, 0, len(s.ByKind))
	for k := range s.ByKind {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return round(float64(n) / float64(d))
}

func round(x float64) float64 { return math.Round(x*1000) / 1000 }
