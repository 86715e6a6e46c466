package agent_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	require.GreaterOrEqual(t, len(got), 3, "events %v", got)
	require.Contains(t, got[:2], "plan_queries", "events %v", got) // a ready acknowledgment may go out first
	// A fast acknowledgment is delivered, at the latest before the answer starts.
	found := false
	for _, e := range got {
		if e == "ack:Let me look into that." {
			found = true
		}
		if e == "generate_response" {
			require.True(t, found, "the answer started before the ready acknowledgment: %v", got)
		}
	}
	require.True(t, found, "the acknowledgment, ready during planning, was never delivered: %v", got)
	m.delay, m.planDelay = time.Hour, 0
	start := time.Now()
	st, events := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: results}, agent.Options{Acknowledge: true}, "k8s?")
	require.LessOrEqual(t, time.Since(start), time.Second, "a slow acknowledgment delayed the turn")
	require.NotContains(t, ackEvents(events), "ack:Let me look into that.", "a late acknowledgment was delivered")
	assert.Empty(t, st.Acknowledgment, "ack")
	assert.Equal(t, "ok", st.ResponseText, "answer")
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
	require.GreaterOrEqual(t, len(order), 3, "events %v, want %v first", order, want)
	require.Equal(t, want, order[:3], "events %v, want %v first", order, want)
	require.Len(t, st.ThinkingUpdates, 1, "thinking records %+v, want the acknowledgment's", st.ThinkingUpdates)
	assert.Equal(t, "Let me look into that.", st.ThinkingUpdates[0].Message, "thinking records %+v, want the acknowledgment's", st.ThinkingUpdates)
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
	require.NoError(t, err)
	for _, e := range events {
		_, ok := e.(agent.Acknowledgment)
		require.False(t, ok, "an acknowledgment ready after a thinking note was sent")
	}
	const kept = "a late acknowledgment was kept: %q, %+v"
	require.Empty(t, st.Acknowledgment, kept, st.Acknowledgment, st.ThinkingUpdates)
	require.NotEmpty(t, st.ThinkingUpdates, kept, st.Acknowledgment, st.ThinkingUpdates)
	require.NotEqual(t, agent.Acknowledge, st.ThinkingUpdates[0].Strategy, kept, st.Acknowledgment, st.ThinkingUpdates)
	assert.True(t, strings.HasPrefix(st.AckDropped, "too late"), "the trace does not say why the acknowledgment was held back: %q", st.AckDropped)
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
		const ack = "acknowledgment %q (dropped: %q) for a reply of %d words, want %q"
		require.Equal(t, tc.want, st.Acknowledgment, ack, st.Acknowledgment, st.AckDropped, len(strings.Fields(tc.reply)), tc.want)
		require.Equal(t, tc.want == "", st.AckDropped != "", ack, st.Acknowledgment, st.AckDropped, len(strings.Fields(tc.reply)), tc.want)
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
