package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/chat"
)

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach Flush and deadlines.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

var traceIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// observe gives a request its trace id (a valid X-Trace-ID is kept),
// recovers from panics with a plain 500, and records metrics and a log line.
func (s *Server) observe(route string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Trace-ID")
		if !traceIDPattern.MatchString(id) {
			id = chat.NewTraceID()
		}
		w.Header().Set("X-Trace-ID", id)
		r = r.WithContext(withTraceID(r.Context(), id))
		sw := &statusWriter{ResponseWriter: w}
		start := time.Now()
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("handler panic", "trace_id", id, "route", route, "panic", fmt.Sprint(p))
				if sw.status == 0 {
					writeError(sw, http.StatusInternalServerError, "internal error")
				}
			}
			code := sw.status
			if code == 0 {
				code = http.StatusOK
			}
			s.m.HTTPRequests.WithLabelValues(route, strconv.Itoa(code)).Inc()
			s.m.HTTPSeconds.WithLabelValues(route).Observe(time.Since(start).Seconds())
			s.log.Info("request", "trace_id", id, "route", route, "status", code, "ms", time.Since(start).Milliseconds())
		}()
		h.ServeHTTP(sw, r)
	})
}

// auth requires the API token as a bearer token when one is configured.
func (s *Server) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.opts.APIToken == "" {
			h(w, r)
			return
		}
		ip := clientIP(r)
		if s.lockedOut(w, ip) {
			return
		}
		if !sameSecret(bearer(r), s.opts.APIToken) {
			s.badTokens.allow(ip) // one fewer try left
			w.Header().Set("WWW-Authenticate", `Bearer realm="erleah-agent"`)
			writeError(w, http.StatusUnauthorized, "missing or wrong bearer token")
			return
		}
		h(w, r)
	}
}

// mcp serves the MCP endpoint, which checks bearer tokens itself (the API
// token or a Directus user's), behind the same lockout as the other
// token-protected routes: each 401 it answers costs the address one try.
func (s *Server) mcp(w http.ResponseWriter, r *http.Request) {
	ip := clientIP(r)
	if s.lockedOut(w, ip) {
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{}) // an ask runs a whole turn; the turn has its own deadline
	sw := &statusWriter{ResponseWriter: w}
	s.opts.MCP.ServeHTTP(sw, r)
	if sw.status == http.StatusUnauthorized {
		s.badTokens.allow(ip) // one fewer try left
	}
}

// lockedOut answers 429 with Retry-After, and reports true, while an
// address has no wrong-token tries left.
func (s *Server) lockedOut(w http.ResponseWriter, ip string) bool {
	wait, locked := s.badTokens.empty(ip)
	if locked {
		s.m.Rejected.WithLabelValues("locked_out").Inc()
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(wait.Seconds()+0.999))))
		writeError(w, http.StatusTooManyRequests, "too many wrong tokens from this address; wait before trying again")
	}
	return locked
}

func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// sameSecret compares in constant time (hashing first so lengths leak nothing).
func sameSecret(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(ha[:], hb[:]) == 1 && a != ""
}

// limited applies the per-address rate limit and the body size limit.
func (s *Server) limited(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.allow(w, s.perIP, clientIP(r)) {
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBody)
		h(w, r)
	}
}

// allow takes a token from key's bucket in l, or answers 429 with
// Retry-After and reports false.
func (s *Server) allow(w http.ResponseWriter, l *rateLimiter, key string) bool {
	wait, ok := l.allow(key)
	if !ok {
		s.m.Rejected.WithLabelValues("rate_limited").Inc()
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(wait.Seconds()+0.999))))
		writeError(w, http.StatusTooManyRequests, "too many requests; please wait a moment")
	}
	return ok
}

// clientIP is the peer address (proxies are not trusted).
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// decodeBody reads a JSON body: 413 when too large, 400 when malformed.
func decodeBody(w http.ResponseWriter, r *http.Request, dst any) bool {
	return decode(w, r, dst, true)
}

// decode reads a JSON body into dst; strict refuses unknown fields. It
// answers 413 or 400 itself and reports whether dst can be used.
func decode(w http.ResponseWriter, r *http.Request, dst any, strict bool) bool {
	dec := json.NewDecoder(r.Body)
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(dst)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", tooBig.Limit))
	case err != nil:
		writeError(w, http.StatusBadRequest, "malformed JSON body: "+err.Error())
	default:
		return true
	}
	return false
}

// writeError writes {"error": msg} with a status.
func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
