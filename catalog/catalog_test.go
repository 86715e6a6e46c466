package catalog

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A burst of change notices, far more than any buffer, loses none of them
// and wakes the reloader.
func TestPendingKeepsEveryNotice(t *testing.T) {
	p := &pending{ids: map[string]bool{}, wake: make(chan struct{}, 1)}
	var wg sync.WaitGroup
	for i := range 1000 {
		wg.Go(func() { p.add(fmt.Sprintf("conf-%d", i%600)) })
	}
	wg.Wait()
	select {
	case <-p.wake:
	default:
		require.Fail(t, "no wake-up after the notices")
	}
	assert.Len(t, p.take(), 600, "conferences pending")
	assert.Empty(t, p.take(), "take left some behind")
}
