// Package rules is the builtin model: the offline default behind the same
// agent.Model interface the LLM providers implement, so the agent cannot tell
// them apart. It works by rules, not canned answers:
//
//   - the planner routes by cues in the question (who → speakers; booth, buy,
//     vendor, help with → exhibitors; talk, session, workshop → sessions) and
//     looks a named entity up in master mode;
//   - the reflector chooses with evidence: rewrite when the question's words
//     are unknown in the conference vocabulary (expanding abbreviations from a
//     general glossary, correcting misspellings to the nearest known word),
//     pivot when another table or mode answers the need better, relax when the
//     wording fits but scores fall short of the confidence band;
//   - the responder writes a short answer from the retrieved items and why
//     they matched, citing each as [collection/id], and says plainly when
//     nothing fits;
//   - the evaluator compares what the answer recommends with what was there
//     to recommend, and the acknowledgment says where the agent will look.
//
// A Model is stateless and safe for concurrent use.
package rules

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
)

// Name is the model name the builtin rules report.
const Name = "builtin"

// Model is the builtin rule-based model. The zero value is ready to use.
type Model struct {
	// Off turns techniques off ("prf", "needs", "ladder"), to measure what
	// each adds; nil keeps them all.
	Off search.Ablation
}

// New returns the builtin model.
func New() *Model { return &Model{} }

// Complete answers one call: JSON for plan and reflect calls, the answer text
// (streamed line by line when the call asks for it) for respond calls.
func (m *Model) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	if err := ctx.Err(); err != nil {
		return agent.Completion{Model: Name}, err
	}
	var reply any
	switch {
	case call.Step == agent.StepPlan && call.Plan != nil:
		reply = plan(call.Plan, m.Off)
	case call.Step == agent.StepReflect && call.Reflect != nil:
		reply = reflect(call.Reflect, m.Off)
	case call.Step == agent.StepRespond && call.Respond != nil:
		return respond(call.Respond, call.Stream), nil
	case call.Step == agent.StepEval && call.Eval != nil:
		reply = evaluate(call.Eval)
	case call.Step == agent.StepAck && call.Ack != nil:
		return agent.Completion{Text: acknowledge(call.Ack), Model: Name}, nil
	default:
		return agent.Completion{Model: Name}, fmt.Errorf("rules: no rules for step %q with this input", call.Step)
	}
	text, err := json.Marshal(reply)
	if err != nil {
		return agent.Completion{Model: Name}, errors.Join(errors.New("rules: encode reply"), err)
	}
	return agent.Completion{Text: string(text), Model: Name}, nil
}
