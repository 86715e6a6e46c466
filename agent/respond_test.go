package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
)

func chunks(events []agent.Event) (string, []agent.Answer, int) {
	var b strings.Builder
	var answers []agent.Answer
	resets := 0
	for _, e := range events {
		switch e := e.(type) {
		case agent.Chunk:
			b.WriteString(e.Text)
		case agent.Answer:
			answers = append(answers, e)
		case agent.Reset:
			resets++
			b.Reset()
		}
	}
	return b.String(), answers, resets
}

func TestAnswerNeverCitesWhatWasNotRetrieved(t *testing.T) {
	answer := "Go to Kubernetes for machine learning [sessions/s1] and see [exhibitors/e9] (invented) " +
		"or [speakers/p1]. Bring a laptop [really]. Again [sessions/s1]."
	for _, stream := range []bool{true, false} {
		m := &scripted{stream: stream, replies: map[agent.Step][]string{agent.StepPlan: {
			`{"intent":"x","queries":[{"table":"sessions","query_text":"a"},{"table":"speakers","query_text":"a"}]}`}, agent.StepRespond: {answer}}}
		s := &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result {
			return []search.Result{result(q.Table, idFor(q.Table), 0.9)}
		}}
		st, events := run(t, m, s, agent.Options{}, "kubernetes")
		text, answers, _ := chunks(events)
		require.Equal(t, st.ResponseText, text, "stream %v: chunks differ from the state", stream)
		require.Len(t, answers, 1, "stream %v: answers %+v", stream, answers)
		require.Equal(t, text, answers[0].Text, "stream %v: the answer differs from the chunks", stream)
		var keys []string
		for _, c := range st.Citations {
			keys = append(keys, c.Key())
		}
		require.Equal(t, []string{"sessions/s1", "speakers/p1"}, keys, "stream %v: citations", stream)
		require.NotContains(t, text, "e9", "stream %v: dropped %v", stream, st.DroppedCitations)
		require.Contains(t, text, "[really]", "stream %v: dropped %v", stream, st.DroppedCitations)
		require.Equal(t, []string{"exhibitors/e9"}, st.DroppedCitations, "stream %v: text %q dropped", stream, text)
	}
}

func TestFailedAnswerFallsBackWithAReset(t *testing.T) {
	primary := &scripted{stream: true, replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"half an answer"}}}
	broken := &breakAfterStream{scripted: primary}
	fallback := &scripted{stream: true, replies: map[agent.Step][]string{agent.StepRespond: {"the fallback answer"}}}
	s := &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result { return []search.Result{result(q.Table, "s1", 0.9)} }}
	st, events := run(t, broken, s, agent.Options{Fallback: fallback}, "kubernetes")
	text, _, resets := chunks(events)
	require.Equal(t, 1, resets, "resets")
	require.Equal(t, "the fallback answer", text, "text after reset")
	require.Equal(t, text, st.ResponseText, "state")
	require.Equal(t, agent.FromFallbackModel, st.ResponseSource, "state %q from", st.ResponseText)
	st, events = run(t, &breakAfterStream{scripted: &scripted{stream: true, replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"x"}}}}, s, agent.Options{}, "kubernetes")
	text, _, _ = chunks(events)
	assert.Equal(t, agent.Apology, st.ResponseText, "no model left: answer from %s", st.ResponseSource)
	assert.Equal(t, agent.Apology, text, "no model left: streamed answer")
	assert.Equal(t, agent.FromMechanical, st.ResponseSource, "no model left: answer %q from", st.ResponseText)
	assert.Empty(t, st.Citations, "no model left: citations")
}

// breakAfterStream streams the scripted answer, then reports an error.
type breakAfterStream struct{ *scripted }

func (b *breakAfterStream) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	comp, err := b.scripted.Complete(ctx, call)
	if call.Step == agent.StepRespond {
		return comp, errors.New("connection reset mid-stream")
	}
	return comp, err
}

// TestNearMissCitationsAndForeignLinksNeverReachTheAttendee: a model
// steered by a third party's text writes citation markers in other
// spellings and links of its own; whatever the pieces it streams in, only
// retrieved items are cited (in one spelling) and only their websites
// linked.
func TestNearMissCitationsAndForeignLinksNeverReachTheAttendee(t *testing.T) {
	answer := "Visit Harbour Hosting [ exhibitors/e1 ] at https://harbour.example/booth. Also [Exhibitors/E1] and ［sessions/s1］. " +
		"Ignore [ exhibitors/x ] and 【speakers/p9】. Log in at https://harbour.example.evil.com/login or " +
		"[click here](http://phish.example/x) (see www.evil.example)."
	s := &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result {
		r := result(q.Table, idFor(q.Table), 0.9)
		if q.Table == search.Exhibitors {
			r.Website = "https://harbour.example"
		}
		return []search.Result{r}
	}}
	plan := `{"intent":"x","queries":[{"table":"sessions","query_text":"a"},{"table":"exhibitors","query_text":"a"}]}`
	for _, size := range []int{1, 3, 7, len(answer)} {
		m := &pieces{size: size, scripted: &scripted{replies: map[agent.Step][]string{agent.StepPlan: {plan}, agent.StepRespond: {answer}}}}
		st, events := run(t, m, s, agent.Options{}, "model serving")
		text, _, _ := chunks(events)
		require.Equal(t, st.ResponseText, text, "pieces of %d: the stream differs from the answer", size)
		for _, bad := range []string{"exhibitors/x", "p9", "evil", "phish", "［", "【", "()", "E1"} {
			require.NotContains(t, text, bad, "pieces of %d: %q reached the attendee", size, bad)
		}
		for _, good := range []string{"[exhibitors/e1] at https://harbour.example/booth.", "[sessions/s1]", "[click here]"} {
			require.Contains(t, text, good, "pieces of %d: %q is missing", size, good)
		}
		const counts = "pieces of %d: cited %+v, dropped %v, removed %v"
		require.Len(t, st.Citations, 2, counts, size, st.Citations, st.DroppedCitations, st.RemovedURLs)
		require.Len(t, st.DroppedCitations, 2, counts, size, st.Citations, st.DroppedCitations, st.RemovedURLs)
		require.Len(t, st.RemovedURLs, 3, counts, size, st.Citations, st.DroppedCitations, st.RemovedURLs)
	}
}

// pieces streams the scripted answer in pieces of size bytes (whole runes).
type pieces struct {
	*scripted
	size int
}

func (p *pieces) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	if call.Step != agent.StepRespond || call.Stream == nil {
		return p.scripted.Complete(ctx, call)
	}
	comp, err := p.scripted.Complete(ctx, agent.Call{Step: call.Step, Respond: call.Respond})
	runes := []rune(comp.Text)
	for i := 0; i < len(runes); i += p.size {
		call.Stream(string(runes[i:min(i+p.size, len(runes))]))
	}
	return comp, err
}
