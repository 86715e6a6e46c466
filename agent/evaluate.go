package agent

import (
	"context"
	"fmt"
	"strings"
)

// DefaultRegenerationThreshold is the quality score under which, with
// evaluation feedback on, an answer is written once more.
const DefaultRegenerationThreshold = 0.4

// Evaluation is the evaluator's verdict on an answer.
type Evaluation struct {
	QualityScore    float64  `json:"quality_score"`
	ConfidenceScore float64  `json:"confidence_score"`
	Issues          []string `json:"issues"`
	ImprovementHint string   `json:"improvement_hint"`
	Source          Source   `json:"source"`
	// The insight fields, optional: what went well, what to do better,
	// whether the reflection decisions were right.
	Strengths           []string `json:"strengths,omitempty"`
	Improvements        []string `json:"improvements,omitempty"`
	DecisionAppropriate *bool    `json:"decision_appropriate,omitempty"`
	// IgnoredKeys are the reply's keys the agent does not know.
	IgnoredKeys []string `json:"-"`
}

// ParseEvaluation decodes an evaluator's reply: both scores present and in
// 0..1, issues a list, the hint a string (either may be null or absent).
// Unknown keys are ignored and listed in IgnoredKeys.
func ParseEvaluation(text string) (*Evaluation, error) {
	ev, ignored, err := parseEvaluation(text)
	if err != nil {
		return nil, err
	}
	ev.IgnoredKeys = ignored
	return ev, nil
}

// parseEvaluation is ParseEvaluation returning the ignored keys even when
// the reply is rejected.
func parseEvaluation(text string) (*Evaluation, []string, error) {
	var raw struct {
		Quality    *float64 `json:"quality_score"`
		Confidence *float64 `json:"confidence_score"`
		Issues     []string `json:"issues"`
		Hint       *string  `json:"improvement_hint"`
		Strengths  []string `json:"strengths"`
		Improve    []string `json:"improvements"`
		Decision   *bool    `json:"decision_appropriate"`
	}
	_, ignored, err := decodeChecked(text, &raw)
	switch {
	case err != nil:
		return nil, ignored, err
	case raw.Quality == nil || raw.Confidence == nil:
		return nil, ignored, invalid(CheckRequired, "quality_score and confidence_score are required")
	case *raw.Quality < 0 || *raw.Quality > 1 || *raw.Confidence < 0 || *raw.Confidence > 1:
		return nil, ignored, invalid(CheckScores, "scores must be within 0..1, got %g and %g", *raw.Quality, *raw.Confidence)
	}
	ev := &Evaluation{QualityScore: *raw.Quality, ConfidenceScore: *raw.Confidence, Issues: raw.Issues,
		Strengths: raw.Strengths, Improvements: raw.Improve, DecisionAppropriate: raw.Decision}
	if raw.Hint != nil {
		ev.ImprovementHint = strings.TrimSpace(*raw.Hint)
	}
	if ev.Issues == nil {
		ev.Issues = []string{}
	}
	return ev, ignored, nil
}

// evaluate scores the turn's answer.
func (t *turn) evaluate(ctx context.Context) (*Evaluation, error) {
	in := &EvalInput{Message: t.st.Message, Reading: t.st.Reading, Language: t.st.Language, Filter: t.st.Filter, Conference: t.st.Conference,
		Answer: t.st.ResponseText, Citations: t.st.Citations, Results: AnswerResults(t.st.QueryResults), Lexicon: t.lexicon(),
		FirstPlan: cloneQueries(t.st.OriginalPlannedQueries)}
	var ev *Evaluation
	src, err := t.c.ask(ctx, Call{Step: StepEval, Eval: in}, func(comp Completion) error {
		e, ignored, err := parseEvaluation(comp.Text)
		ev = e
		t.ignore(StepEval, ignored)
		return err
	})
	if err != nil {
		return nil, err
	}
	ev.Source = src
	return ev, nil
}

// feedback evaluates the answer before it is final and, when its quality
// is under the threshold and the model can still be called, announces and
// writes it once more with the evaluator's hint. There is never a second
// regeneration.
func (t *turn) feedback(ctx context.Context) error {
	ev, err := t.evaluate(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		t.agent.log.Warn("evaluation failed", "trace_id", t.st.TraceID, "err", err)
		return nil
	}
	t.st.Evaluation = ev
	if ev.QualityScore >= t.agent.opts.RegenerationThreshold || t.c.down || !t.c.allowed(StepRespond) {
		return nil
	}
	t.note(ThinkingRecord{Message: "My first answer didn't fit your question well enough, so I'm writing a better one.",
		Strategy: Regenerate, RetryCount: t.st.RetryCount, Source: ev.Source})
	t.emit(Reset{Reason: "regenerate"})
	in := t.respondInput()
	in.Hint, in.PreviousAnswer = ev.ImprovementHint, truncate(t.st.ResponseText, 500)
	t.st.Regenerated = true
	return t.answer(ctx, in)
}

// Evaluate scores a finished turn's answer and records the verdict in st.
// Use it after Run when evaluation feedback is off; it spends what is left of
// the turn's call budget and falls back like any step.
func (a *Agent) Evaluate(ctx context.Context, st *State) (*Evaluation, error) {
	t := a.newTurn(ctx, Request{TraceID: st.TraceID, Message: st.Message, Conference: st.Conference}, func(Event) {})
	t.st = st
	for _, c := range st.ModelCalls {
		if !c.Fallback {
			t.c.used++
		}
	}
	ev, err := t.evaluate(ctx)
	if err != nil {
		return nil, fmt.Errorf("agent: evaluate: %w", err)
	}
	st.Evaluation = ev
	return ev, nil
}
