package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Class groups failures by what the agent should do about them.
type Class string

// Error classes.
const (
	// Transient failures (timeouts, 429, 5xx) were retried already; the
	// provider may work again on a later turn.
	Transient Class = "transient"
	// Permanent failures (400, 401, 403, 404, 422) will not go away by
	// retrying: the agent falls back at once.
	Permanent Class = "permanent"
	// Timeout means the call ran out of its time.
	Timeout Class = "timeout"
	// Canceled means the caller gave up.
	Canceled Class = "canceled"
)

// Error is a failed model call. Its message is for operators: it never
// reaches the attendee.
type Error struct {
	Model    string
	Step     string
	Status   int // last HTTP status seen, 0 if none
	Attempts int
	Class    Class
	Err      error
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("llm: %s %s: %s", e.Model, e.Step, e.Class)
	if e.Status != 0 {
		msg += fmt.Sprintf(", HTTP %d", e.Status)
	}
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	return msg + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Permanent reports whether calling this model again in the same turn is
// pointless: a permanent status, or transient failures that outlasted the
// retries.
func (e *Error) Permanent() bool {
	return e.Class == Permanent || (e.Class == Transient && e.Attempts > 1)
}

// classify turns what a call returned and what its transport saw into an
// *Error.
func classify(ctx context.Context, model, step string, rec *record, err error) *Error {
	attempts, status := rec.get()
	e := &Error{Model: model, Step: step, Status: status, Attempts: attempts, Err: err, Class: Transient}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		e.Class = Timeout
	case errors.Is(ctx.Err(), context.Canceled):
		e.Class = Canceled
	case status == http.StatusBadRequest, status == http.StatusUnauthorized, status == http.StatusForbidden,
		status == http.StatusNotFound, status == http.StatusUnprocessableEntity, status == http.StatusRequestEntityTooLarge:
		e.Class = Permanent
	}
	return e
}
