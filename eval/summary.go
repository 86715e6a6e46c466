package eval

import "math"

// Summary aggregates one mode's results (contract §4).
//
// Hit rates, recovery, recall and MRR are over answerable cases: a case
// with nothing relevant can never hit, so counting it would only dilute the
// rates of both modes alike. Unanswerable cases are measured by
// false_citation_rate (every citation counts as false) and no_answer_honesty.
type Summary struct {
	Cases            int     `json:"cases"`
	FirstPassHitRate float64 `json:"first_pass_hit_rate"`
	FinalHitRate     float64 `json:"final_hit_rate"`
	// CitedHitRate is the share of answerable cases whose answer cites a
	// relevant item: success as the attendee sees it.
	CitedHitRate      float64 `json:"cited_hit_rate"`
	RecoveryRate      float64 `json:"recovery_rate"`
	RecallAt10        float64 `json:"recall_at_10"`
	MRR               float64 `json:"mrr"`
	FalseCitationRate float64 `json:"false_citation_rate"`
	MeanAttempts      float64 `json:"mean_attempts"`
	LLMCalls          int     `json:"llm_calls"`
	P50MS             float64 `json:"p50_ms"`
	P95MS             float64 `json:"p95_ms"`

	AnswerableCases  int                        `json:"answerable_cases"`
	FirstPassMisses  int                        `json:"first_pass_misses"`
	Recovered        int                        `json:"recovered"`
	NoAnswerCases    int                        `json:"no_answer_cases"`
	NoAnswerHonesty  float64                    `json:"no_answer_honesty"`
	Citations        int                        `json:"citations"`
	FalseCitations   int                        `json:"false_citations"`
	Errors           int                        `json:"errors"`
	ByCategory       map[string]CategorySummary `json:"by_category"`
	CitationlessHits int                        `json:"answerable_without_citation"`
}

// CategorySummary is the recovery picture of one case category.
type CategorySummary struct {
	Cases           int     `json:"cases"`
	FirstPassHits   int     `json:"first_pass_hits"`
	FinalHits       int     `json:"final_hits"`
	FirstPassMisses int     `json:"first_pass_misses"`
	Recovered       int     `json:"recovered"`
	RecoveryRate    float64 `json:"recovery_rate"`
	FalseCitations  int     `json:"false_citations"`
	Citations       int     `json:"citations"`
}

func summarise(results []CaseResult) Summary {
	s := Summary{Cases: len(results), ByCategory: map[string]CategorySummary{}}
	var firstHits, finalHits, citedHits, attempts int
	var recall, rr float64
	var ms []float64
	honest := 0
	for _, r := range results {
		ms = append(ms, r.MS)
		attempts += r.Attempts
		s.LLMCalls += r.ModelCalls
		s.Citations += len(r.Cited)
		s.FalseCitations += r.FalseCitations
		if r.Error != "" {
			s.Errors++
		}
		s.addCategory(r)
		if !r.Answerable {
			s.NoAnswerCases++
			if len(r.Cited) == 0 && r.Error == "" {
				honest++
			}
			continue
		}
		s.AnswerableCases++
		recall += r.Recall
		rr += r.RR
		if len(r.Cited) == 0 {
			s.CitationlessHits++
		}
		if len(r.Cited) > r.FalseCitations {
			citedHits++
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
	s.CitedHitRate = ratio(citedHits, s.AnswerableCases)
	s.RecoveryRate = ratio(s.Recovered, s.FirstPassMisses)
	s.RecallAt10 = round(recall / math.Max(1, float64(s.AnswerableCases)))
	s.MRR = round(rr / math.Max(1, float64(s.AnswerableCases)))
	s.FalseCitationRate = ratio(s.FalseCitations, s.Citations)
	s.MeanAttempts = ratio(attempts, len(results))
	s.NoAnswerHonesty = ratio(honest, s.NoAnswerCases)
	s.P50MS, s.P95MS = round(percentile(ms, 0.5)), round(percentile(ms, 0.95))
	return s
}

func (s *Summary) addCategory(r CaseResult) {
	c := s.ByCategory[r.Category]
	c.Cases++
	c.Citations += len(r.Cited)
	c.FalseCitations += r.FalseCitations
	if r.Answerable {
		if r.FirstPassHit {
			c.FirstPassHits++
		} else {
			c.FirstPassMisses++
			if r.FinalHit {
				c.Recovered++
			}
		}
		if r.FinalHit {
			c.FinalHits++
		}
	}
	c.RecoveryRate = ratio(c.Recovered, c.FirstPassMisses)
	s.ByCategory[r.Category] = c
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return round(float64(n) / float64(d))
}

func round(x float64) float64 { return math.Round(x*1000) / 1000 }
