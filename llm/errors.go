package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Class groups failures by what the agent should do about them.
type Class string

// Error classes.
const (
	// Transient failures (transport errors, 429, 5xx) were retried
	// already; the provider may work again on a later turn.
	Transient Class = "transient"
	// Permanent failures (400, 401, 403, 404, 422) will not go away by
	// retrying: the agent falls back at once.
	Permanent Class = "permanent"
	// Timeout means the call ran out of its time: the caller's deadline,
	// the call timeout, or a stream that went idle.
	Timeout Class = "timeout"
	// Canceled means the caller gave up.
	Canceled Class = "canceled"
	// Cooldown means the model's circuit breaker is open: the call was
	// refused without reaching the provider.
	Cooldown Class = "cooldown"
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
	// RetryAfter is how long the last response asked to wait (Retry-After
	// on a 429, 503 or 529), 0 if it did not.
	RetryAfter time.Duration
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
// pointless: a permanent status, a timeout (a model that hung once would
// likely eat the rest of the turn's time too), an open circuit breaker, or
// transient failures that outlasted the retries.
func (e *Error) Permanent() bool {
	switch e.Class {
	case Permanent, Timeout, Cooldown:
		return true
	case Transient:
		return e.Attempts > 1
	}
	return false
}

// classify turns what a call returned and what its transport saw into an
// *Error. ctx is the call's own context, bounded by its time budgets: when
// one of those ran out, its cause replaces the bare context error.
func classify(ctx context.Context, model, step string, rec *record, err error) *Error {
	attempts, status, wait := rec.get()
	e := &Error{Model: model, Step: step, Status: status, Attempts: attempts, Err: err, Class: Transient, RetryAfter: wait}
	var budget *budgetError
	switch {
	case ctx.Err() != nil && errors.As(context.Cause(ctx), &budget):
		e.Class, e.Err = Timeout, budget
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

// budgetError is one of the call's own time budgets running out. It counts
// as a deadline, so that nothing retries past it.
type budgetError struct {
	what string
	d    time.Duration
}

func (e *budgetError) Error() string { return fmt.Sprintf("%s (%s)", e.what, e.d) }

func (e *budgetError) Is(target error) bool { return target == context.DeadlineExceeded }
