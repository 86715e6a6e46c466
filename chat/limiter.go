package chat

import (
	"context"
	"errors"
	"sync"
)

// ErrOverloaded means every turn slot is busy and the queue is full.
var ErrOverloaded = errors.New("chat: overloaded")

// Limiter bounds concurrent turns and how many may wait for a slot. It is
// safe for concurrent use.
type Limiter struct {
	slots chan struct{}
	mu    sync.Mutex
	queue int
	max   int
	depth func(int) // reports the queue depth
}

// NewLimiter allows running turns at once and queue more to wait.
func NewLimiter(running, queue int, depth func(int)) *Limiter {
	if depth == nil {
		depth = func(int) {}
	}
	return &Limiter{slots: make(chan struct{}, max(1, running)), max: max(0, queue), depth: depth}
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

// TryAcquire takes a slot only if one is free now.
func (l *Limiter) TryAcquire() (release func(), ok bool) {
	select {
	case l.slots <- struct{}{}:
		return l.release, true
	default:
		return nil, false
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
	l.depth(l.queue)
	return true
}

func (l *Limiter) dequeue() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.queue--
	l.depth(l.queue)
}

// Running is the number of turns holding a slot.
func (l *Limiter) Running() int { return len(l.slots) }
