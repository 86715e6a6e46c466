package server_test

import (
	"testing"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/llm/llmtest"
)

type fakeProvider struct{ *llmtest.Server }

func llmtestServer(t *testing.T) fakeProvider {
	s := llmtest.NewAnthropic(t)
	s.Default = func(step agent.Step) llmtest.Reply {
		return llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"sessions","search_mode":"faceted","query_text":"kubernetes","limit":10}]}`}
	}
	return fakeProvider{s}
}

func (f fakeProvider) plans() []string {
	var out []string
	for _, r := range f.Of(agent.StepPlan) {
		out = append(out, r.System)
	}
	return out
}
