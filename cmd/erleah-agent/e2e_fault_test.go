package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/llm/llmtest"
)

// slowModel answers every step quickly except the answer, which takes delay.
func slowModel(t testing.TB, delay time.Duration) map[string]string {
	env := scriptedModel(t, llmtest.Reply{Text: "See [sessions/s006].", Delay: delay})
	env["MAX_RETRY_COUNT"] = "0"
	return env
}

// scriptedModel is a fake OpenAI-compatible model whose plan searches
// sessions for RAG and whose answer is respond; it returns the environment
// pointing the agent at it.
func scriptedModel(t testing.TB, respond llmtest.Reply) map[string]string {
	m := llmtest.NewOpenAI(t)
	m.Default = func(s agent.Step) llmtest.Reply {
		switch s {
		case agent.StepPlan:
			return llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"sessions","search_mode":"faceted","query_text":"retrieval-augmented generation","limit":10}]}`}
		case agent.StepRespond:
			return respond
		case agent.StepEval:
			return llmtest.Reply{Text: `{"quality_score":0.8,"confidence_score":0.8,"issues":[],"improvement_hint":null}`}
		}
		return llmtest.Reply{Text: "On it."}
	}
	return map[string]string{"MODEL": "openai:scripted", "OPENAI_API_KEY": "k", "OPENAI_BASE_URL": m.URL + "/v1"}
}

// waitStatus waits until the user message's reply has one of the statuses.
func (d *realDirectus) waitStatus(t testing.TB, user string, statuses ...string) {
	t.Helper()
	eventually(t, 10*time.Second, saying(fmt.Sprintf("a reply to %s in %v", user, statuses)), func() bool {
		rs := d.replies(t, user)
		return slices.ContainsFunc(rs, func(r reply) bool { return slices.Contains(statuses, r.Status) })
	})
}

func TestE2EAgentStoppedMidTurnAndRestarted(t *testing.T) {
	d := needDirectus(t)
	env := slowModel(t, 5*time.Second)
	env["SHUTDOWN_GRACE"], env["TURN_TIMEOUT"], env["RECONCILE_ABANDON_AFTER"] = "300ms", "10s", "10s"
	env["MODEL_CALL_TIMEOUT"], env["MODEL_STREAM_IDLE_TIMEOUT"] = "8s", "8s" // the answer is slow, not hung
	a := d.startAgent(t, env)
	conv := d.conversation(t)
	user := d.ask(t, conv, "Any sessions on RAG?")
	d.waitStatus(t, user, "pending", "streaming")
	time.Sleep(300 * time.Millisecond) // the answer is being written
	a.stop()
	r := d.replies(t, user)
	const handedBack = "after stopping mid-turn: %+v; want the reply handed back (pending)"
	require.Len(t, r, 1, handedBack, r)
	require.Equal(t, "pending", r[0].Status, handedBack, r)
	require.Equal(t, true, r[0].Metadata["handed_back"], handedBack, r)
	start := time.Now()
	d.startAgent(t, map[string]string{"RECONCILE_ABANDON_AFTER": "1s", "TURN_TIMEOUT": "1s", "MODEL_CALL_TIMEOUT": "500ms"}) // the builtin model
	again := d.finished(t, user, 20*time.Second)
	require.Equal(t, "completed", again.Status, "after the restart: %+v", again)
	require.Contains(t, again.Text, "[sessions/", "after the restart: %+v", again)
	t.Logf("the restarted agent answered the handed-back message %v after it started", time.Since(start).Round(time.Millisecond))
}

// proxy forwards TCP to Directus and can cut it off for a while.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  []net.Conn
}

func newProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &proxy{ln: ln, target: strings.TrimPrefix(target, "http://")}
	t.Cleanup(func() { ln.Close(); p.cut(false) })
	go p.serve()
	return p
}

func (p *proxy) url() string { return "http://" + p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		if !down {
			p.conns = append(p.conns, c)
		}
		p.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		go p.pipe(c)
	}
}

func (p *proxy) pipe(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, up)
	p.mu.Unlock()
	go func() { io.Copy(up, c); up.Close() }()
	io.Copy(c, up)
	c.Close()
}

// cut drops every connection and, while down, refuses new ones.
func (p *proxy) cut(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func TestE2EDirectusUnreachableMidTurn(t *testing.T) {
	d := needDirectus(t)
	px := newProxy(t, d.url)
	env := slowModel(t, 1500*time.Millisecond)
	env["DIRECTUS_URL"] = px.url()
	d.startAgent(t, env)
	conv := d.conversation(t)
	user := d.ask(t, conv, "Any sessions on RAG?")
	d.waitStatus(t, user, "pending", "streaming")
	px.cut(true) // Directus vanishes while the answer is being written…
	time.Sleep(2 * time.Second)
	px.cut(false)                            // …and comes back
	r := d.finished(t, user, 30*time.Second) // completed or failed, not stuck
	ok := r.Status == "completed" && strings.Contains(r.Text, "[sessions/s006]") ||
		r.Status == "failed" && r.Text == agent.Apology && r.Metadata["error"] != nil
	require.True(t, ok, "reply after the outage: %+v; want the answer, or the apology with the error", r)
	t.Logf("after a 2 s outage mid-turn the reply ended %s", r.Status)
}

// TestE2EOverloadRefusesStreamsButWebhookTurnsComplete: with the one turn
// slot busy and no interactive queue, a developer's stream is refused with
// 503 and Retry-After, while every message delivered by the Flow is answered.
func TestE2EOverloadRefusesStreamsButWebhookTurnsComplete(t *testing.T) {
	d := needDirectus(t)
	env := slowModel(t, 1500*time.Millisecond)
	env["MAX_TURNS"], env["TURN_QUEUE"] = "1", "0"
	a := d.startAgent(t, env)
	var users []string
	for range 3 {
		users = append(users, d.ask(t, d.conversation(t), "Any sessions on RAG?"))
	}
	for _, u := range users {
		d.waitStatus(t, u, "pending", "streaming") // all three accepted and claimed
	}
	resp, err := http.Post(a.url+"/v1/chat/stream", "application/json", strings.NewReader(`{"message":"k8s?","conference_id":"aidata26"}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "stream while overloaded")
	require.NotEmpty(t, resp.Header.Get("Retry-After"), "stream while overloaded: Retry-After")
	for _, u := range users {
		r := d.finished(t, u, 30*time.Second)
		require.Equal(t, "completed", r.Status, "a webhook turn under overload: %+v", r)
	}
}

// TestE2EStreamClientLeavesButTheTurnIsPersisted: a developer's stream with
// a conversation_id stops when the client leaves; the turn goes on and the
// answer is stored in Directus.
func TestE2EStreamClientLeavesButTheTurnIsPersisted(t *testing.T) {
	d := needDirectus(t)
	a := d.startAgent(t, slowModel(t, time.Second))
	conv := d.conversation(t)
	body := `{"message":"Any sessions on RAG?","conference_id":"aidata26","conversation_id":"` + conv + `"}`
	req, _ := http.NewRequest(http.MethodPost, a.url+"/v1/chat/stream", strings.NewReader(body))
	req.Header.Set("X-Directus-Token", d.adminToken) // the open stream writes only into the caller's conversation
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		require.Failf(t, "stream refused", "stream: %d %s", resp.StatusCode, b)
	}
	first := make([]byte, 64)
	_, err = resp.Body.Read(first) // the turn has started
	require.NoError(t, err)
	resp.Body.Close() // the client leaves before the answer
	var msgs []reply
	var readErr error
	eventually(t, 20*time.Second, func() string { return fmt.Sprintf("the stored reply after the client left (have %+v)", msgs) }, func() bool {
		q := directus.Query{Fields: []string{"id", "status", "messageText"}, Filter: map[string]any{"conversation": map[string]any{"_eq": conv}, "role": map[string]any{"_eq": "assistant"}}}
		readErr = d.admin.ReadItems(context.Background(), "messages", q, &msgs)
		return readErr != nil || len(msgs) == 1 && msgs[0].Status == "completed" // an error ends the wait: the check below fails the test
	})
	require.NoError(t, readErr)
	assert.Contains(t, msgs[0].Text, "[sessions/s006]", "stored answer")
	var questions []map[string]any
	q := directus.Query{Fields: []string{"id", "reply_to"}, Filter: map[string]any{"conversation": map[string]any{"_eq": conv}, "role": map[string]any{"_eq": "user"}}}
	const stored = "the stored question: %v; want one, answering nothing (reply_to null)"
	require.NoError(t, d.admin.ReadItems(context.Background(), "messages", q, &questions), "the stored question")
	require.Len(t, questions, 1, stored, questions)
	assert.Nil(t, questions[0]["reply_to"], stored, questions)
}

// TestE2ESteeredAnswerLeavesNoForeignLinkOrCitation: a model that obeys
// text injected into the catalogue writes near-miss citation markers and
// links of its own; neither the widget, at any moment, nor the stored
// message ever shows them.
func TestE2ESteeredAnswerLeavesNoForeignLinkOrCitation(t *testing.T) {
	d := needDirectus(t)
	steered := "See [ Sessions/s006 ] for RAG and 【exhibitors/e999】. Log in at https://evil.example/login " +
		"or [the docs](http://phish.example/x) to register."
	d.startAgent(t, scriptedModel(t, llmtest.Reply{Text: steered, ChunkDelay: 5 * time.Millisecond}))
	conv := d.conversation(t)
	w := d.subscribe(t, conv)
	user := d.ask(t, conv, "Any sessions on RAG?")
	r := d.finished(t, user, 20*time.Second)
	texts := []string{r.Text}
	for _, e := range w.settled(t, r.ID) { // never empty: the widget saw the reply end
		if s, ok := e.items[0]["messageText"].(string); ok {
			texts = append(texts, s)
		}
	}
	for _, text := range texts {
		for _, bad := range []string{"evil", "phish", "e999", "【", "Sessions/"} {
			require.NotContains(t, text, bad, "%q reached the attendee", bad)
		}
	}
	assert.Contains(t, r.Text, "[sessions/s006]", "the stored answer lost what it may keep")
	assert.Contains(t, r.Text, "[the docs]", "the stored answer lost what it may keep")
}
