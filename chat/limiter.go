package chat

import (
	"context"
	"errors"
	"sync"
)

// ErrOverloaded means every turn slot is busy and the queue is full.
var ErrOverloaded = errors.New("chat: overloaded")

// Limiter bounds concurrent turns and how many may wait for a slot:
// interactive turns in a short queue (beyond it the caller is told to come
// back), persisted turns in a longer one of their own (their messages wait
// in Directus meanwhile). It is safe for concurrent use.
type Limiter struct {
	slots chan struct{}
	mu    sync.Mutex
	queue int // interactive turns waiting
	max   int
	held  int // persisted turns holding a place (waiting or about to)
	maxBg int
	depth func(int) // reports how many turns wait
}

// NewLimiter allows running turns at once and queue more interactive ones
// to wait; background places for persisted turns are 16 times running+queue.
func NewLimiter(running, queue int, depth func(int)) *Limiter {
	if depth == nil {
		depth = func(int) {}
	}
	running, queue = max(1, running), max(0, queue)
	return &Limiter{slots: make(chan struct{}, running), max: queue, maxBg: 16 * (running + queue), depth: depth}
}

// Reserve holds a place for a persisted turn; false when too many wait
// already. The holder then calls Wait, or Unreserve if it will not run.
func (l *Limiter) Reserve() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held >= l.maxBg {
		return false
	}
	l.held++
	l.depth(l.queue + l.held)
	return true
}

// Unreserve gives back a place taken by Reserve.
func (l *Limiter) Unreserve() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held--
	l.depth(l.queue + l.held)
}

// Wait takes a slot for a reserved persisted turn, for as long as it takes
// or until ctx ends; the place is given back either way. Call release
// exactly once when the turn ends.
func (l *Limiter) Wait(ctx context.Context) (release func(), err error) {
	defer l.Unreserve()
	select {
	case l.slots <- struct{}{}:
		if err := ctx.Err(); err != nil { // both were ready: ending wins
			l.release()
			return nil, err
		}
		return l.release, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Acquire takes a slot, waiting in the queue while there is room in it.
// It fails with ErrOverloaded when the queue is full and with the context's
// error when ctx ends first. Call release exactly once when the turn ends.
func (l *Limiter) Acquire(ctx context.Context) (release func(), err error) {
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	default:
	}
	if !l.enqueue() {
		return nil, ErrOverloaded
	}
	defer l.dequeue()
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (l *Limiter) release() { <-l.slots }

func (l *Limiter) enqueue() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.queue >= l.max {
		return false
	}
	l.queue++
	l.depth(l.queue + l.held)
	return true
}

func (l *Limiter) dequeue() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.queue--
	l.depth(l.queue + l.held)
}
