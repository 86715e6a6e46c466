package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/directus"
)

// streamRequest is the body of POST /v1/chat/stream.
type streamRequest struct {
	Message        string       `json:"message"`
	ConferenceID   string       `json:"conference_id"`
	ConversationID string       `json:"conversation_id,omitempty"`
	History        []agent.Turn `json:"history,omitempty"`
	// Now (RFC 3339) is the moment the question counts as asked at, for
	// "what's next?" and "tomorrow"; the service's clock when absent.
	Now string `json:"now,omitempty"`
	// Reflection, "on" or "off", overrides REFLECTION_ENABLED for this turn.
	Reflection string `json:"reflection,omitempty"`
}

// reflectionMode reads a request's reflection override: nil for the
// service's default.
func reflectionMode(v string) (*bool, error) {
	switch v {
	case "":
		return nil, nil
	case "on", "off":
		on := v == "on"
		return &on, nil
	}
	return nil, fmt.Errorf("reflection %q: want \"on\" or \"off\"", v)
}

// mayWrite lets a stream write into a conversation only with proof of
// access: the service's API_TOKEN (an operator), or, on an open stream, the
// caller's own Directus token in X-Directus-Token whose user the
// conversation belongs to. It answers the refusal itself.
func (s *Server) mayWrite(w http.ResponseWriter, r *http.Request, conversation string) bool {
	if s.opts.APIToken != "" {
		return true // auth checked the operator's token
	}
	if s.opts.Inbox == nil {
		writeError(w, http.StatusBadRequest, "conversation_id needs the service to be connected to Directus")
		return false
	}
	token := r.Header.Get("X-Directus-Token")
	if token == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="directus"`)
		writeError(w, http.StatusUnauthorized, "writing into a conversation needs your Directus token in X-Directus-Token")
		return false
	}
	err := s.opts.Inbox.MayWrite(r.Context(), token, conversation)
	var de *directus.Error
	switch {
	case err == nil:
		return true
	case errors.As(err, &de) && de.Status == http.StatusUnauthorized:
		writeError(w, http.StatusUnauthorized, "Directus did not accept your token")
	case errors.Is(err, chat.ErrNotYours), errors.As(err, &de) && de.Status == http.StatusForbidden:
		writeError(w, http.StatusForbidden, "that conversation is not yours")
	default:
		s.log.Warn("checking a stream's conversation failed", "conversation", conversation, "err", err)
		writeError(w, http.StatusBadGateway, "Directus could not be reached; please try again")
	}
	return false
}

// keepAlive is how often an idle stream gets a comment, so proxies keep it.
const keepAlive = 15 * time.Second

// stream runs one turn and sends its events as Server-Sent Events:
// acknowledgment, progress, thinking, chunk, reset, answer, done (and
// step_start / step_end with DebugEvents); error when the turn fails. Each
// event has an id. Requests are checked, and overload refused, before the
// stream starts, so those get ordinary JSON errors.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	var req streamRequest
	if !decodeBody(w, r, &req) {
		return
	}
	now, err := agent.ParseClock(req.Now)
	if err != nil {
		writeError(w, http.StatusBadRequest, "now "+err.Error())
		return
	}
	reflection, err := reflectionMode(req.Reflection)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.ConversationID != "" && !s.allow(w, s.perUsr, "conversation:"+req.ConversationID) {
		return
	}
	if req.ConversationID != "" && !s.mayWrite(w, r, req.ConversationID) {
		return
	}
	sse := newSSE(w)
	defer sse.close()
	q := chat.Question{Message: req.Message, ConferenceID: req.ConferenceID, ConversationID: req.ConversationID, History: req.History, TraceID: traceID(r.Context()), Now: now, Reflection: reflection}
	st, err := s.opts.Turns.Ask(r.Context(), q, func(e agent.Event) { s.sendEvent(sse, e) })
	if !sse.started() {
		s.refuse(w, err)
		return
	}
	if err != nil {
		sse.send("error", map[string]any{"error": friendly(err), "can_retry": true, "trace_id": q.TraceID})
		return
	}
	sse.send("done", map[string]any{"trace_id": st.TraceID, "outcome": chat.Outcome(st, nil)})
}

// refuse answers a request whose turn never started.
func (s *Server) refuse(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, chat.ErrOverloaded), errors.Is(err, chat.ErrShuttingDown):
		w.Header().Set("Retry-After", strconv.Itoa(int(s.opts.RetryAfter.Seconds())))
		writeError(w, http.StatusServiceUnavailable, "the assistant is busy; please try again shortly")
	case errors.Is(err, chat.ErrInvalid), errors.Is(err, chat.ErrUnknownConf):
		writeError(w, http.StatusBadRequest, strings.TrimPrefix(err.Error(), "chat: "))
	case err != nil:
		s.log.Error("the turn could not start", "trace_id", w.Header().Get("X-Trace-Id"), "err", err)
		writeError(w, http.StatusInternalServerError, friendly(err))
	default:
		writeError(w, http.StatusInternalServerError, "the turn produced no events")
	}
}

// sendEvent turns an agent event into a stream event.
func (s *Server) sendEvent(sse *sseWriter, e agent.Event) {
	switch e := e.(type) {
	case agent.Acknowledgment:
		sse.send("acknowledgment", map[string]any{"text": e.Text})
	case agent.Progress:
		sse.send("progress", map[string]any{"step": e.Step, "message": e.Message})
	case agent.Thinking:
		sse.send("thinking", e.Record)
	case agent.Chunk:
		sse.send("chunk", map[string]any{"text": e.Text})
	case agent.Reset:
		sse.send("reset", map[string]any{"reason": e.Reason})
	case agent.Answer:
		sse.send("answer", map[string]any{"text": e.Text, "citations": citations(e.Citations)})
	case agent.StepStarted:
		if s.opts.DebugEvents {
			sse.send("step_start", map[string]any{"step": e.Step, "round": e.Round})
		}
	case agent.StepFinished:
		if s.opts.DebugEvents {
			sse.send("step_end", map[string]any{"step": e.Step, "round": e.Round, "duration_ms": float64(e.Duration.Microseconds()) / 1000, "calls": e.Calls})
		}
	}
}

func citations(cs []agent.Citation) []agent.Citation {
	if cs == nil {
		return []agent.Citation{}
	}
	return cs
}

// friendly is what an attendee may read about a failure.
func friendly(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "This is taking longer than it should. Please try again, perhaps with a more specific question."
	case errors.Is(err, context.Canceled):
		return "The request was cancelled."
	case errors.Is(err, agent.ErrSearchUnavailable):
		return agent.SearchUnavailable
	}
	return "Something went wrong on our side. Please try again."
}

// sseWriter writes Server-Sent Events; it starts the stream on the first
// event, keeps it alive while idle, and is safe for the turn's goroutine and
// its own keep-alive goroutine.
type sseWriter struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	mu     sync.Mutex
	id     int
	open   bool
	stop   chan struct{}
	closed bool // stop is closed
	dead   bool // nothing more is written: the client left or the stream ended
}

func newSSE(w http.ResponseWriter) *sseWriter {
	return &sseWriter{w: w, rc: http.NewResponseController(w), stop: make(chan struct{})}
}

func (s *sseWriter) started() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open
}

// send writes one event; after the client left it does nothing.
func (s *sseWriter) send(event string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.open {
		s.begin()
	}
	if s.dead {
		return
	}
	s.id++
	_, err = fmt.Fprintf(s.w, "id: %d\nevent: %s\ndata: %s\n\n", s.id, event, b)
	s.flush(err)
}

// close ends the stream: no more writes, the keep-alive stops. It must be
// called before the handler returns.
func (s *sseWriter) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dead = true
	if !s.closed {
		s.closed = true
		close(s.stop)
	}
}

// begin sends the headers, lifts the server's write deadline for this
// stream, and starts the keep-alive. Called with mu held.
func (s *sseWriter) begin() {
	s.open = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	_ = s.rc.SetWriteDeadline(time.Time{})
	s.w.WriteHeader(http.StatusOK)
	go s.keepAlive()
}

func (s *sseWriter) keepAlive() {
	t := time.NewTicker(keepAlive)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.mu.Lock()
			if !s.dead {
				_, err := fmt.Fprint(s.w, ": keep-alive\n\n")
				s.flush(err)
			}
			s.mu.Unlock()
		}
	}
}

// flush pushes the event out; a failed write marks the client gone.
func (s *sseWriter) flush(err error) {
	if err == nil {
		err = s.rc.Flush()
	}
	if err != nil {
		s.dead = true
	}
}
