package server

import (
	"fmt"
	"testing"
	"time"
)

func TestRateLimiterRefillsAndStaysBounded(t *testing.T) {
	now := time.Unix(0, 0)
	l := newRateLimiter(Rate{PerSecond: 2, Burst: 3}, 100)
	l.now = func() time.Time { return now }
	for i := range 3 {
		if _, ok := l.allow("a"); !ok {
			t.Fatalf("request %d within the burst refused", i+1)
		}
	}
	wait, ok := l.allow("a")
	if ok || wait < 400*time.Millisecond || wait > 500*time.Millisecond {
		t.Fatalf("over the burst: ok %v, wait %v; want refused for 0.5s", ok, wait)
	}
	if _, ok := l.allow("b"); !ok {
		t.Fatal("another key shares a's bucket")
	}
	now = now.Add(500 * time.Millisecond)
	if _, ok := l.allow("a"); !ok {
		t.Fatal("no token after the refill time")
	}
	for i := range 10000 {
		l.allow(fmt.Sprintf("client-%d", i))
	}
	if l.size() != 100 {
		t.Fatalf("%d keys remembered, want at most 100", l.size())
	}
}
