package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/directus"
)

// flowEvent is the body the Directus Flow sends (contract §6).
type flowEvent struct {
	Event      string          `json:"event"`
	Collection string          `json:"collection"`
	Key        json.RawMessage `json:"key"`
	Payload    struct {
		Role         string          `json:"role"`
		Conversation json.RawMessage `json:"conversation"`
	} `json:"payload"`
}

// webhook takes a Flow delivery: 429 beyond its rate, 401 without the right
// secret, 400 when malformed, 200 ignored for anything but a new user
// message, 200 duplicate for a message already taken, 503 with Retry-After
// when too many wait already (the reconciler answers it later), else 202
// with the reply's id at once.
func (s *Server) webhook(w http.ResponseWriter, r *http.Request) {
	if !s.allow(w, s.perHook, clientIP(r)) {
		return
	}
	if s.opts.WebhookSecret == "" || !sameSecret(r.Header.Get("X-Webhook-Secret"), s.opts.WebhookSecret) {
		writeError(w, http.StatusUnauthorized, "missing or wrong X-Webhook-Secret")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 256<<10)
	var ev flowEvent
	if !decode(w, r, &ev, false) { // a Flow may send more than we read
		return
	}
	key := jsonString(ev.Key)
	switch {
	case ev.Collection != "messages" || !strings.HasSuffix(ev.Event, "items.create"):
		writeJSON(w, http.StatusOK, chat.Accepted{Status: "ignored"})
		return
	case key == "":
		writeError(w, http.StatusBadRequest, "key must be the new message's id")
		return
	}
	d := chat.Delivery{MessageID: key, ConversationID: jsonString(ev.Payload.Conversation), Role: ev.Payload.Role, TraceID: traceID(r.Context())}
	s.accept(w, r, d)
}

// chatRequest is the body of POST /v1/chat.
type chatRequest struct {
	ConversationID string `json:"conversation_id"`
	MessageID      string `json:"message_id"`
}

// chat is the widget's call: the caller's own Directus token must be able
// to read the message, which must belong to the conversation named.
func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	token := bearer(r)
	if token == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="directus"`)
		writeError(w, http.StatusUnauthorized, "send your Directus access token as a bearer token")
		return
	}
	sum := sha256.Sum256([]byte(token))
	if !s.allow(w, s.perUsr, "token:"+hex.EncodeToString(sum[:8])) {
		return
	}
	var req chatRequest
	if !decodeBody(w, r, &req) {
		return
	}
	if req.ConversationID == "" || req.MessageID == "" {
		writeError(w, http.StatusBadRequest, "conversation_id and message_id are required")
		return
	}
	msg, err := s.opts.Inbox.CanRead(r.Context(), token, req.MessageID)
	if err != nil {
		s.cannotRead(w, err)
		return
	}
	if msg.Conversation != req.ConversationID {
		writeError(w, http.StatusBadRequest, "the message does not belong to that conversation")
		return
	}
	s.accept(w, r, chat.Delivery{MessageID: msg.ID, ConversationID: msg.Conversation, Role: msg.Role, TraceID: traceID(r.Context())})
}

// cannotRead maps the caller's Directus answer: an unknown message and a
// forbidden one look the same (Directus answers 403 for both).
func (s *Server) cannotRead(w http.ResponseWriter, err error) {
	var de *directus.Error
	switch {
	case errors.As(err, &de) && de.Status == http.StatusUnauthorized:
		writeError(w, http.StatusUnauthorized, "Directus did not accept your token")
	case errors.As(err, &de) && de.Status == http.StatusForbidden:
		writeError(w, http.StatusForbidden, "your token cannot read that message")
	default:
		s.log.Warn("reading a message for /v1/chat failed", "err", err)
		writeError(w, http.StatusBadGateway, "Directus could not be reached; please try again")
	}
}

func (s *Server) accept(w http.ResponseWriter, r *http.Request, d chat.Delivery) {
	acc, err := s.opts.Inbox.Accept(r.Context(), d)
	switch {
	case errors.Is(err, chat.ErrShuttingDown):
		w.Header().Set("Retry-After", strconv.Itoa(int(s.opts.RetryAfter.Seconds())))
		writeError(w, http.StatusServiceUnavailable, "shutting down; the message will be answered after the restart")
	case errors.Is(err, chat.ErrOverloaded):
		w.Header().Set("Retry-After", strconv.Itoa(int(s.opts.RetryAfter.Seconds())))
		writeError(w, http.StatusServiceUnavailable, "too many messages wait already; this one will be answered later")
	case errors.Is(err, chat.ErrInvalid):
		writeError(w, http.StatusBadRequest, strings.TrimPrefix(err.Error(), "chat: "))
	case err != nil:
		s.log.Error("a delivery could not be taken", "message", d.MessageID, "err", err)
		writeError(w, http.StatusServiceUnavailable, "the agent cannot take messages now; the reconciler will answer this one")
	case acc.Status == "accepted":
		writeJSON(w, http.StatusAccepted, acc)
	default:
		writeJSON(w, http.StatusOK, acc)
	}
}

// jsonString reads a JSON string or number as text ("" otherwise).
func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}
