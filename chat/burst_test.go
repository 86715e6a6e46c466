package chat

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkWebhookBurst delivers 20,000 new user messages at once (100
// senders) to a service with the default bounds (MAX_TURNS 32, TURN_QUEUE
// 64) whose turns cannot finish (the model waits) and whose message reads
// take 20 ms: what the door lets in is bounded by the backlog's places
// (16 × (32 + 64) = 1,536), the rest is refused at once, and goroutines
// and heap stay bounded. Reported: accepted, refused, peak goroutines,
// peak heap in use.
func BenchmarkWebhookBurst(b *testing.B) {
	for b.Loop() {
		const n, senders = 20000, 100
		store := newMemStore()
		never := make(chan struct{})
		g := &gate{release: map[string]chan struct{}{}}
		for i := range n {
			id, text := fmt.Sprintf("u%05d", i), fmt.Sprintf("question %d: k8s?", i)
			store.addUser(fmt.Sprintf("c%05d", i), id, text, time.Minute)
			store.slow[id] = 20 * time.Millisecond
			g.release[text] = never
		}
		s := testService(b, store, g, Options{})
		var accepted, refused atomic.Int64
		var peakG atomic.Int64
		var peakHeap uint64
		stop := make(chan struct{})
		go func() {
			var ms runtime.MemStats
			for {
				select {
				case <-stop:
					return
				case <-time.After(10 * time.Millisecond):
				}
				peakG.Store(max(peakG.Load(), int64(runtime.NumGoroutine())))
				runtime.ReadMemStats(&ms)
				peakHeap = max(peakHeap, ms.HeapInuse)
			}
		}()
		var wg sync.WaitGroup
		for w := range senders {
			wg.Go(func() {
				for i := w; i < n; i += senders {
					_, err := s.Accept(context.Background(), Delivery{MessageID: fmt.Sprintf("u%05d", i), ConversationID: fmt.Sprintf("c%05d", i), Role: "user"})
					switch {
					case err == nil:
						accepted.Add(1)
					case errors.Is(err, ErrOverloaded):
						refused.Add(1)
					default:
						b.Error(err)
					}
				}
			})
		}
		wg.Wait()
		time.Sleep(200 * time.Millisecond) // the accepted deliveries read their messages and wait for a slot
		close(stop)
		b.ReportMetric(float64(accepted.Load()), "accepted")
		b.ReportMetric(float64(refused.Load()), "refused")
		b.ReportMetric(float64(peakG.Load()), "peak-goroutines")
		b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
		if accepted.Load() > 16*(32+64)+32 {
			b.Fatalf("%d deliveries let in; the door allows %d", accepted.Load(), 16*(32+64)+32)
		}
		close(never)
	}
}
