package catalog

import (
	"fmt"
	"sync"
	"testing"
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
		t.Fatal("no wake-up after the notices")
	}
	if got := p.take(); len(got) != 600 {
		t.Fatalf("%d conferences pending, want 600", len(got))
	}
	if again := p.take(); len(again) != 0 {
		t.Fatalf("take left %d behind", len(again))
	}
}
