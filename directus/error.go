package directus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Directus error codes that callers commonly branch on (extensions.code).
const (
	CodeForbidden          = "FORBIDDEN"
	CodeInvalidCredentials = "INVALID_CREDENTIALS"
	CodeInvalidPayload     = "INVALID_PAYLOAD"
	CodeRecordNotUnique    = "RECORD_NOT_UNIQUE"
	CodeAuthFailed         = "AUTH_FAILED"
)

// Error is a failure reported by Directus: any non-2xx HTTP answer, parsed
// from its error body {"errors":[{"message":…,"extensions":{"code":…}}]},
// or an error message on the realtime WebSocket (Status 0 then).
//
// Directus answers 403 FORBIDDEN for items that do not exist; Error keeps
// that as a 403 and never turns it into "not found".
type Error struct {
	Status  int    // HTTP status; 0 for realtime errors
	Code    string // Directus code, e.g. "FORBIDDEN", "RECORD_NOT_UNIQUE"; may be empty
	Message string // the first error's message, never containing the token
	Method  string // HTTP method of the call
	Path    string // path of the call, without the query string
}

// Error formats e as
// "directus: PATCH /items/messages/…: 403 FORBIDDEN: You don't have permission…".
func (e *Error) Error() string {
	var head []string
	if e.Status != 0 {
		head = append(head, strconv.Itoa(e.Status))
	}
	if e.Code != "" {
		head = append(head, e.Code)
	}
	s := fmt.Sprintf("directus: %s %s: %s", e.Method, e.Path, strings.Join(head, " "))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// HasCode reports whether err is or wraps an *Error with the given code.
func HasCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// IsUnique reports whether err is Directus's RECORD_NOT_UNIQUE: a write
// violated a unique constraint (for messages: a second reply to one message).
func IsUnique(err error) bool {
	return HasCode(err, CodeRecordNotUnique)
}

// IsTransient reports whether a failed call may work when tried again
// later, seconds on: Directus did not answer (a transport error, a dropped
// connection, an attempt that timed out), or answered 429 or 5xx. A
// refusal (4xx) and a cancelled context are not transient. It is wider
// than the client's own immediate retry (no 500, retryable):
// an error the client gave up on may still pass later.
func IsTransient(err error) bool {
	var e *Error
	switch {
	case err == nil, errors.Is(err, context.Canceled):
		return false
	case errors.As(err, &e):
		return e.Status == http.StatusTooManyRequests || e.Status >= 500
	}
	return true
}

// errorBody is Directus's error envelope.
type errorBody struct {
	Errors []struct {
		Message    string `json:"message"`
		Extensions struct {
			Code string `json:"code"`
		} `json:"extensions"`
	} `json:"errors"`
}

// parseError builds the *Error for a non-2xx answer. When the body is not
// Directus's error envelope (a proxy's page, say) the message is the status
// text. The token is removed from the message should the server echo it.
func parseError(method, path string, status int, body []byte, token string) *Error {
	e := &Error{Status: status, Method: method, Path: path, Message: http.StatusText(status)}
	var eb errorBody
	if json.Unmarshal(body, &eb) == nil && len(eb.Errors) > 0 {
		e.Code = eb.Errors[0].Extensions.Code
		e.Message = eb.Errors[0].Message
		if more := len(eb.Errors) - 1; more > 0 {
			e.Message += fmt.Sprintf(" (and %d more)", more)
		}
	}
	e.Message = redact(e.Message, token)
	return e
}

// redact replaces every occurrence of secret in s.
func redact(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[REDACTED]")
}
