package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// DefaultBudget is the most calls a turn makes to its model (the fallback
// model, being local rules, is not counted).
const DefaultBudget = 6

// caller makes a turn's model calls. It keeps the call budget, gives each
// call a deadline that leaves time for the fallback, asks once more with the
// validation error when a reply is invalid, and stops calling a model that
// failed for good. It is used from the turn's goroutine only.
type caller struct {
	t    *turn
	used int
	down bool // the model failed permanently or timed out; use the fallback
}

// attempt is one model that may answer a call.
type attempt struct {
	m        Model
	src      Source
	fallback bool
}

// attempts lists who may answer a call for step s: the model while it is up
// and the budget allows, then the fallback model.
func (c *caller) attempts(s Step) []attempt {
	var out []attempt
	if !c.down && c.allowed(s) {
		out = append(out, attempt{m: c.t.agent.model, src: FromModel})
	}
	if fb := c.t.agent.opts.Fallback; fb != nil {
		out = append(out, attempt{m: fb, src: FromFallbackModel, fallback: true})
	}
	return out
}

// allowed keeps one call of the budget for the answer.
func (c *caller) allowed(s Step) bool {
	reserve := 0
	if s == StepPlan || s == StepReflect || s == StepAck {
		reserve = 1
	}
	return c.used+reserve < c.t.agent.opts.Budget
}

// ask sends call to the models in turn and hands each reply to accept,
// which decodes and validates it. A rejected reply from the model gets one
// repair round-trip carrying the validation error before the fallback model
// is tried. It returns where the accepted reply came from, or why every try
// failed.
func (c *caller) ask(ctx context.Context, call Call, accept func(Completion) error) (Source, error) {
	var reasons []string
	for _, a := range c.attempts(call.Step) {
		comp, err := c.do(ctx, a, call)
		if err == nil {
			if err = accept(comp); err == nil {
				return a.src, nil
			}
			c.t.reject(call.Step, comp.Model, err)
			if !a.fallback && !c.down && c.allowed(call.Step) {
				if c.repair(ctx, a, call, comp.Text, err, accept) == nil {
					return FromRepair, nil
				}
			}
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return "", ctxErr
		}
		reasons = append(reasons, fmt.Sprintf("%s: %v", a.src, err))
	}
	if len(reasons) == 0 {
		reasons = append(reasons, "no model available: the call budget is spent")
	}
	return "", errors.New(strings.Join(reasons, "; "))
}

func (c *caller) repair(ctx context.Context, a attempt, call Call, reply string, why error, accept func(Completion) error) error {
	call.Repair = &Repair{Reply: truncate(reply, 4000), Error: why.Error()}
	comp, err := c.do(ctx, a, call)
	if err != nil {
		return err
	}
	if err = accept(comp); err != nil {
		c.t.reject(call.Step, comp.Model, err)
	}
	return err
}

// reject records a refused model reply in the trace and the log. The check
// is the failed validation check's; a reply refused otherwise counts as not
// well-formed.
func (t *turn) reject(s Step, model string, err error) {
	r := Rejection{Step: s, Check: CheckWellFormed, Detail: err.Error(), Model: model}
	var v *ValidationError
	if errors.As(err, &v) {
		r.Check, r.Detail = v.Check, v.Reason
	}
	t.st.Rejections = append(t.st.Rejections, r)
	t.agent.log.Warn("model reply rejected", "trace_id", t.st.TraceID, "step", s, "check", r.Check, "model", model, "detail", r.Detail)
}

// ignore records the keys of a step's reply that the agent ignored.
func (t *turn) ignore(s Step, keys []string) {
	if len(keys) > 0 {
		t.st.IgnoredKeys = append(t.st.IgnoredKeys, IgnoredKeys{Step: s, Keys: keys})
	}
}

// do runs one call and records it. Calls to the model get a deadline that
// leaves the turn's reserve for the fallback; a model that fails for good or
// runs out of that time is not called again in this turn.
func (c *caller) do(ctx context.Context, a attempt, call Call) (Completion, error) {
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if !a.fallback {
		c.used++
		cctx, cancel = c.t.callContext(ctx)
	}
	defer cancel()
	start := c.t.agent.opts.Now()
	comp, err := a.m.Complete(cctx, call)
	if err == nil && cctx.Err() != nil {
		err = cctx.Err() // some clients return a partial stream without error
	}
	c.t.record(call.Step, comp, err, a.fallback, c.t.agent.opts.Now().Sub(start))
	if err != nil && !a.fallback && (isPermanent(err) || (cctx.Err() != nil && ctx.Err() == nil)) {
		c.down = true
	}
	if err != nil {
		return comp, fmt.Errorf("%s call: %w", call.Step, err)
	}
	return comp, nil
}

// isPermanent reports whether err says the model cannot succeed this turn.
func isPermanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}

// callContext bounds a model call so that the turn's reserve remains for
// the fallback once the call gives up.
func (t *turn) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if t.deadline.IsZero() {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, t.deadline.Add(-t.reserve))
}

// record adds a model call to the trace.
func (t *turn) record(s Step, comp Completion, err error, fallback bool, d time.Duration) {
	info := CallInfo{Step: s, Model: comp.Model, PromptVersion: comp.PromptVersion, Usage: comp.Usage,
		Fallback: fallback, MS: float64(d.Microseconds()) / 1000}
	if err != nil {
		info.Failed = err.Error()
		t.agent.log.Warn("model call failed", "trace_id", t.st.TraceID, "step", s, "model", comp.Model, "err", err)
	}
	t.st.ModelCalls = append(t.st.ModelCalls, info)
}
