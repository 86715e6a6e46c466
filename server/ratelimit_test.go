package server

import (
	"fmt"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRateLimiterRefillsAndStaysBounded(t *testing.T) {
	now := time.Unix(0, 0)
	l := newRateLimiter(Rate{PerSecond: 2, Burst: 3}, 100)
	l.now = func() time.Time { return now }
	for i := range 3 {
		_, ok := l.allow("a")
		require.True(t, ok, "request %d within the burst refused", i+1)
	}
	wait, ok := l.allow("a")
	require.False(t, ok, "over the burst: wait %v; want refused for 0.5s", wait)
	require.GreaterOrEqual(t, wait, 400*time.Millisecond, "over the burst: want refused for 0.5s")
	require.LessOrEqual(t, wait, 500*time.Millisecond, "over the burst: want refused for 0.5s")
	_, ok = l.allow("b")
	require.True(t, ok, "another key shares a's bucket")
	now = now.Add(500 * time.Millisecond)
	_, ok = l.allow("a")
	require.True(t, ok, "no token after the refill time")
	for i := range 10000 {
		l.allow(fmt.Sprintf("client-%d", i))
	}
	assert.Equal(t, 100, l.size(), "keys remembered, want at most 100")
}
