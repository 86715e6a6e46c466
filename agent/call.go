package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ask sends call to the model and hands the reply to accept, which decodes
// and validates it. When the model fails or accept rejects the reply, the
// fallback model (if any) gets the same call. It returns where the accepted
// reply came from, or an error listing why every try failed.
func (t *turn) ask(ctx context.Context, call Call, accept func(text string) error) (Source, error) {
	tries := []struct {
		m   Model
		src Source
	}{{t.agent.model, FromModel}}
	if t.agent.opts.Fallback != nil {
		tries = append(tries, struct {
			m   Model
			src Source
		}{t.agent.opts.Fallback, FromFallbackModel})
	}
	var reasons []string
	for _, try := range tries {
		comp, err := t.call(ctx, try.m, call)
		if err == nil {
			if err = accept(comp.Text); err != nil {
				t.agent.log.Warn("model reply rejected", "trace_id", t.st.TraceID, "step", call.Step, "model", comp.Model, "err", err)
			}
		}
		if err == nil {
			return try.src, nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return "", ctxErr
		}
		reasons = append(reasons, fmt.Sprintf("%s: %v", try.src, err))
	}
	return "", errors.New(strings.Join(reasons, "; "))
}

// call runs one model call and records it in the trace.
func (t *turn) call(ctx context.Context, m Model, call Call) (Completion, error) {
	comp, err := m.Complete(ctx, call)
	info := CallInfo{Step: call.Step, Model: comp.Model, Usage: comp.Usage}
	if err != nil {
		info.Failed = err.Error()
		t.agent.log.Warn("model call failed", "trace_id", t.st.TraceID, "step", call.Step, "err", err)
	}
	t.st.ModelCalls = append(t.st.ModelCalls, info)
	if err != nil {
		return comp, fmt.Errorf("%s call: %w", call.Step, err)
	}
	return comp, nil
}
