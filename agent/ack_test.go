package agent_test

import (
	"context"
	"slices"
	"strings"
	"sync"
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

// TestAcknowledgmentGoesOutTheMomentItIsReady: an acknowledgment ready
// while planning still runs is sent then, not when planning ends, and it is
// the first thinking record.
func TestAcknowledgmentGoesOutTheMomentItIsReady(t *testing.T) {
	results := func(q search.Query) []search.Result { return []search.Result{result(q.Table, idFor(q.Table), 0.9)} }
	m := &slowAck{delay: 10 * time.Millisecond, planDelay: 500 * time.Millisecond,
		scripted: &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}}
	st, events := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: results}, agent.Options{Acknowledge: true}, "k8s?")
	var order []string
	for _, e := range events {
		switch e := e.(type) {
		case agent.Acknowledgment:
			order = append(order, "ack")
		case agent.Thinking:
			order = append(order, "thinking:"+string(e.Record.Strategy))
		case agent.StepFinished:
			order = append(order, "end:"+string(e.Step))
		}
	}
	want := []string{"ack", "thinking:acknowledgment", "end:plan_queries"}
	if len(order) < 3 || !slices.Equal(order[:3], want) {
		t.Fatalf("events %v, want %v first", order, want)
	}
	if len(st.ThinkingUpdates) != 1 || st.ThinkingUpdates[0].Message != "Let me look into that." {
		t.Fatalf("thinking records %+v, want the acknowledgment's", st.ThinkingUpdates)
	}
}

// TestAcknowledgmentNeverFollowsAThinkingNote: an acknowledgment that is
// ready only after reflection has shown a note is not sent.
func TestAcknowledgmentNeverFollowsAThinkingNote(t *testing.T) {
	release := make(chan struct{})
	m := &heldAck{release: release, scripted: &scripted{replies: map[agent.Step][]string{
		agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}}
	slow := &slowSearch{fakeSearch: &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, delay: 20 * time.Millisecond}
	var events []agent.Event
	var once sync.Once
	st, err := agent.New(m, slow, agent.Options{Acknowledge: true, MaxRetries: 2, Now: fixedClock()}).Run(context.Background(),
		agent.Request{TraceID: "t1", Message: "k8s?", Conference: conf1}, func(e agent.Event) {
			events = append(events, e)
			if _, ok := e.(agent.Thinking); ok {
				once.Do(func() { close(release) })
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if _, ok := e.(agent.Acknowledgment); ok {
			t.Fatal("an acknowledgment ready after a thinking note was sent")
		}
	}
	if st.Acknowledgment != "" || len(st.ThinkingUpdates) == 0 || st.ThinkingUpdates[0].Strategy == agent.Acknowledge {
		t.Fatalf("a late acknowledgment was kept: %q, %+v", st.Acknowledgment, st.ThinkingUpdates)
	}
	if !strings.HasPrefix(st.AckDropped, "too late") {
		t.Fatalf("the trace does not say why the acknowledgment was held back: %q", st.AckDropped)
	}
}

// heldAck acknowledges once release is closed.
type heldAck struct {
	*scripted
	release chan struct{}
}

func (h *heldAck) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	if call.Step == agent.StepAck {
		<-h.release
		return agent.Completion{Text: "Let me look into that.", Model: "held"}, nil
	}
	return h.scripted.Complete(ctx, call)
}

// slowSearch delays every search.
type slowSearch struct {
	*fakeSearch
	delay time.Duration
}

func (s *slowSearch) Search(ctx context.Context, conf string, q search.Query) ([]search.Result, error) {
	time.Sleep(s.delay)
	return s.fakeSearch.Search(ctx, conf, q)
}

func TestLongAcknowledgmentsAreCutOrRefused(t *testing.T) {
	long := strings.Repeat("word ", 30)
	tests := []struct{ reply, want string }{
		{"Let me look into that.", "Let me look into that."},
		{"On it. " + long, "On it."},
		{long, ""},
	}
	for _, tc := range tests {
		m := &fixedAck{text: tc.reply, scripted: &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}}
		slow := &slowSearch{fakeSearch: &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result {
			return []search.Result{result(q.Table, idFor(q.Table), 0.9)}
		}}, delay: 50 * time.Millisecond}
		st, _ := run(t, m, slow, agent.Options{Acknowledge: true}, "k8s?")
		if st.Acknowledgment != tc.want || (tc.want == "") != (st.AckDropped != "") {
			t.Fatalf("acknowledgment %q (dropped: %q) for a reply of %d words, want %q", st.Acknowledgment, st.AckDropped, len(strings.Fields(tc.reply)), tc.want)
		}
	}
}

// fixedAck acknowledges at once with text.
type fixedAck struct {
	*scripted
	text string
}

func (f *fixedAck) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	if call.Step == agent.StepAck {
		return agent.Completion{Text: f.text, Model: "fixed"}, nil
	}
	return f.scripted.Complete(ctx, call)
}
