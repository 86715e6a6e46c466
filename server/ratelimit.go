package server

import (
	"container/list"
	"sync"
	"time"
)

// Rate is a token bucket: PerSecond refill, Burst capacity.
type Rate struct {
	PerSecond float64
	Burst     float64
}

// rateLimiter keeps one token bucket per key and remembers at most max
// keys, forgetting the least recently seen: memory stays bounded whatever
// the number of clients.
type rateLimiter struct {
	rate Rate
	max  int
	now  func() time.Time

	mu    sync.Mutex
	keys  map[string]*list.Element
	order *list.List // front: most recently seen
}

type bucket struct {
	key    string
	tokens float64
	at     time.Time
}

func newRateLimiter(r Rate, max int) *rateLimiter {
	return &rateLimiter{rate: r, max: max, now: time.Now, keys: map[string]*list.Element{}, order: list.New()}
}

// allow takes a token for key, or says how long until one is available.
func (l *rateLimiter) allow(key string) (time.Duration, bool) {
	if l.rate.PerSecond <= 0 {
		return 0, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.bucket(key, now)
	b.tokens = min(l.rate.Burst, b.tokens+now.Sub(b.at).Seconds()*l.rate.PerSecond)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return 0, true
	}
	return time.Duration((1 - b.tokens) / l.rate.PerSecond * float64(time.Second)), false
}

// empty reports, without taking a token, whether key's bucket has none
// left, and how long until it has one.
func (l *rateLimiter) empty(key string) (time.Duration, bool) {
	if l.rate.PerSecond <= 0 {
		return 0, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.keys[key]
	if !ok {
		return 0, false
	}
	b := e.Value.(*bucket)
	tokens := min(l.rate.Burst, b.tokens+l.now().Sub(b.at).Seconds()*l.rate.PerSecond)
	if tokens >= 1 {
		return 0, false
	}
	return time.Duration((1 - tokens) / l.rate.PerSecond * float64(time.Second)), true
}

func (l *rateLimiter) bucket(key string, now time.Time) *bucket {
	if e, ok := l.keys[key]; ok {
		l.order.MoveToFront(e)
		return e.Value.(*bucket)
	}
	if l.order.Len() >= l.max {
		oldest := l.order.Back()
		delete(l.keys, oldest.Value.(*bucket).key)
		l.order.Remove(oldest)
	}
	b := &bucket{key: key, tokens: l.rate.Burst, at: now}
	l.keys[key] = l.order.PushFront(b)
	return b
}

// size is how many keys are remembered.
func (l *rateLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.order.Len()
}
