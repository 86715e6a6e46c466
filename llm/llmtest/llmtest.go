// Package llmtest runs fake model providers on loopback for tests. Each
// speaks its provider's real wire format (Anthropic Messages with its
// server-sent events, OpenAI Chat Completions with streamed chunks and
// embeddings, Ollama's chat and embed endpoints), answers from a script per
// agent step and records every request, so tests drive the code under test
// through langchaingo exactly as a real provider would.
package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/agent"
)

// Reply is one scripted answer.
type Reply struct {
	Status int         // 200 when zero
	Text   string      // the assistant's text (or the error body when Status is not 200)
	Header http.Header // extra response headers, such as Retry-After
	Hang   bool        // block until the client gives up
	Delay  time.Duration
	// ChunkDelay paces a streamed reply: the wait before each delta.
	ChunkDelay time.Duration
	// Stall makes a streamed reply send StallAfter deltas, then go silent,
	// the connection open, until the client gives up.
	Stall      bool
	StallAfter int
}

// Request is what a fake provider received.
type Request struct {
	Step     agent.Step
	Path     string
	Header   http.Header
	Model    string
	System   string
	User     string
	Stream   bool
	JSONMode bool
	Body     map[string]any
}

// Server is a fake provider. Replies are consumed per step in order; when a
// step's script is empty, Default answers (or a 500 if it is nil).
type Server struct {
	*httptest.Server
	Default func(agent.Step) Reply

	mu       sync.Mutex
	replies  map[agent.Step][]Reply
	requests []Request
}

func newServer(t testing.TB, h func(s *Server) http.Handler) *Server {
	t.Helper()
	s := &Server{replies: map[agent.Step][]Reply{}}
	s.Server = httptest.NewServer(h(s))
	t.Cleanup(s.Close)
	return s
}

// Script appends replies for a step.
func (s *Server) Script(step agent.Step, replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies[step] = append(s.replies[step], replies...)
}

// Requests returns what the server received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Of returns the requests for one step.
func (s *Server) Of(step agent.Step) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Step == step {
			out = append(out, r)
		}
	}
	return out
}

// scripted records req and returns the step's next scripted reply, if any
// (the embeddings endpoint answers unscripted requests itself).
func (s *Server) scripted(req Request) (Reply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	q := s.replies[req.Step]
	if len(q) == 0 {
		return Reply{}, false
	}
	s.replies[req.Step] = q[1:]
	return q[0], true
}

// next records req and returns the step's next scripted reply, else
// Default's, else a 500.
func (s *Server) next(req Request) Reply {
	if rep, ok := s.scripted(req); ok {
		return rep
	}
	s.mu.Lock()
	def := s.Default
	s.mu.Unlock()
	if def != nil {
		return def(req.Step)
	}
	return Reply{Status: http.StatusInternalServerError, Text: `{"error":{"message":"no scripted reply"}}`}
}

// StepOf recognises the agent step from the system prompt's opening words.
func StepOf(system string) agent.Step {
	switch {
	case strings.HasPrefix(system, "You plan searches"):
		return agent.StepPlan
	case strings.HasPrefix(system, "You are the reflection step"):
		return agent.StepReflect
	case strings.HasPrefix(system, "You are Erleah"):
		return agent.StepRespond
	case strings.HasPrefix(system, "You review answers"):
		return agent.StepEval
	case strings.Contains(system, "just sent a question"):
		return agent.StepAck
	}
	return "unknown"
}

func decode(r *http.Request) map[string]any {
	var m map[string]any
	data, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(data, &m)
	return m
}

// fail writes a non-200 scripted reply, or hangs until the client leaves.
func fail(w http.ResponseWriter, r *http.Request, rep Reply) bool {
	for k, vs := range rep.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if rep.Hang {
		<-r.Context().Done()
		return true
	}
	select {
	case <-time.After(rep.Delay):
	case <-r.Context().Done():
		return true
	}
	if rep.Status == 0 || rep.Status == http.StatusOK {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.Status)
	io.WriteString(w, rep.Text)
	return true
}

// stalls reports whether a stream goes silent before its delta i; if so it
// waits until the client leaves.
func stalls(r *http.Request, rep Reply, i int) bool {
	if !rep.Stall || i < rep.StallAfter {
		return false
	}
	<-r.Context().Done()
	return true
}

// words splits an answer into streamed deltas of a few characters.
func words(text string) []string {
	var out []string
	for len(text) > 0 {
		n := min(len(text), 7)
		for n < len(text) && !utf8Start(text[n]) {
			n++
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func tokens(s string) int { return len(strings.Fields(s)) + 1 }
