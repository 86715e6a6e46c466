package agent_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
)

// slowAck answers acknowledgments after a delay and everything else at once.
type slowAck struct {
	*scripted
	delay     time.Duration
	planDelay time.Duration
}

func (s *slowAck) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	if call.Step == agent.StepPlan {
		time.Sleep(s.planDelay)
	}
	if call.Step == agent.StepAck {
		select {
		case <-time.After(s.delay):
			return agent.Completion{Text: "Let me look into that.", Model: "slow"}, nil
		case <-ctx.Done():
			return agent.Completion{Model: "slow"}, ctx.Err()
		}
	}
	return s.scripted.Complete(ctx, call)
}

func ackEvents(events []agent.Event) []string {
	var out []string
	for _, e := range events {
		switch e := e.(type) {
		case agent.Acknowledgment:
			out = append(out, "ack:"+e.Text)
		case agent.StepStarted:
			out = append(out, string(e.Step))
		}
	}
	return out
}

func TestAcknowledgmentArrivesBeforeTheAnswerWithoutDelayingIt(t *testing.T) {
	results := func(q search.Query) []search.Result { return []search.Result{result(q.Table, idFor(q.Table), 0.9)} }
	m := &slowAck{planDelay: 100 * time.Millisecond, scripted: &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}}
	_, events := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: results}, agent.Options{Acknowledge: true}, "k8s?")
	got := ackEvents(events)
	if len(got) < 3 || !slices.Contains(got[:2], "plan_queries") { // a ready acknowledgment may go out first
		t.Fatalf("events %v", got)
	}
	// A fast acknowledgment is delivered, at the latest before the answer starts.
	found := false
	for _, e := range got {
		if e == "ack:Let me look into that." {
			found = true
		}
		if e == "generate_response" && !found {
			t.Fatalf("the answer started before the ready acknowledgment: %v", got)
		}
	}
	if !found {
		t.Fatalf("the acknowledgment, ready during planning, was never delivered: %v", got)
	}
	m.delay, m.planDelay = time.Hour, 0
	start := time.Now()
	st, events := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: results}, agent.Options{Acknowledge: true}, "k8s?")
	if time.Since(start) > time.Second {
		t.Fatal("a slow acknowledgment delayed the turn")
	}
	for _, e := range ackEvents(events) {
		if e == "ack:Let me look into that." {
			t.Fatal("a late acknowledgment was delivered")
		}
	}
	if st.Acknowledgment != "" || st.ResponseText != "ok" {
		t.Fatalf("ack %q, answer %q", st.Acknowledgment, st.ResponseText)
	}
}
