package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/directus"
)

// recorder is a Patcher that records every PATCH with its time, and can
// fail or stall some of them.
type recorder struct {
	mu      sync.Mutex
	patches []recorded
	fail    int   // fail the next n calls
	refuse  error // when set, every call fails with it
	stall   time.Duration
}

type recorded struct {
	at     time.Time
	fields map[string]any
	final  bool // written with PatchFinal
}

func (r *recorder) Patch(ctx context.Context, id string, fields map[string]any) error {
	return r.record(fields, false)
}

func (r *recorder) PatchFinal(ctx context.Context, id string, fields map[string]any) error {
	return r.record(fields, true)
}

func (r *recorder) record(fields map[string]any, final bool) error {
	time.Sleep(r.stall)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.refuse != nil {
		return r.refuse
	}
	if r.fail > 0 {
		r.fail--
		return errors.New("directus down")
	}
	b, _ := json.Marshal(fields)
	var copy map[string]any
	json.Unmarshal(b, &copy)
	r.patches = append(r.patches, recorded{at: time.Now(), fields: copy, final: final})
	return nil
}

func (r *recorder) all() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.patches...)
}

func TestWriterOrdersCoalescesAndFinishesLast(t *testing.T) {
	rec := &recorder{stall: 20 * time.Millisecond}
	w := newWriter(rec, "m1", 100*time.Millisecond, nil)
	w.start(context.Background())
	rec1 := agent.ThinkingRecord{Message: "Trying Kubernetes.", Strategy: agent.Rewrite, RetryCount: 1}
	w.observe(agent.Thinking{Record: rec1, All: []agent.ThinkingRecord{rec1}})
	for i := range 50 {
		w.observe(agent.Chunk{Text: "word "})
		if i == 20 {
			w.observe(agent.Reset{Reason: "regenerate"})
		}
		time.Sleep(5 * time.Millisecond)
	}
	w.finish(context.Background(), map[string]any{"status": StatusCompleted, "messageText": "final answer"})
	got := rec.all()
	require.GreaterOrEqual(t, len(got), 3, "PATCHes for 50 chunks over ~250 ms, want a few (coalesced)")
	require.LessOrEqual(t, len(got), 8, "PATCHes for 50 chunks over ~250 ms, want a few (coalesced)")
	require.Contains(t, got[0].fields, "thinking_output", "the thinking record was not the first write: %v", got[0].fields)
	last := got[len(got)-1].fields
	require.Equal(t, StatusCompleted, last["status"], "the last write is not the final one: %v", last)
	require.Equal(t, "final answer", last["messageText"], "the last write is not the final one: %v", last)
	require.NotNil(t, last["thinking_output"], "the last write is not the final one: %v", last)
	streaming := 0
	for i, p := range got[:len(got)-1] {
		if p.fields["status"] == StatusStreaming {
			streaming++
		}
		require.NotEqual(t, StatusCompleted, p.fields["status"], "write %d is final but not last", i)
		// The first words go out at once (status streaming); later text
		// waits the flush interval after the write before it.
		if i > 0 && p.fields["thinking_output"] == nil && p.fields["status"] != StatusStreaming {
			require.GreaterOrEqual(t, p.at.Sub(got[i-1].at), 80*time.Millisecond, "two text writes too close, want at least the flush interval")
		}
		text, _ := p.fields["messageText"].(string)
		require.LessOrEqual(t, strings.Count(text, "word"), 29, "text from before the reset survived")
	}
	assert.Equal(t, 1, streaming, "status streaming written, want once")
}

// A refusal (403) is not tried again: it will not pass.
func TestWriterDoesNotRetryARefusal(t *testing.T) {
	rec := &recorder{refuse: &directus.Error{Status: 403, Code: directus.CodeForbidden}}
	w := newWriter(rec, "m1", 0, nil)
	w.start(context.Background())
	w.finish(context.Background(), map[string]any{"status": StatusFailed, "messageText": "sorry"})
	sent, failed := w.counts()
	assert.Equal(t, 1, sent, "sent")
	assert.Equal(t, 1, failed, "failed")
}

// Partial writes go out once each; the last one as a final write, which
// rides out an outage (DirectusStore's retries, tested there).
func TestWriterSendsTheLastWriteAsFinal(t *testing.T) {
	rec := &recorder{}
	w := newWriter(rec, "m1", 0, nil)
	w.start(context.Background())
	w.observe(agent.Chunk{Text: "Kubernetes "})
	waitFor(t, "the partial write", func() bool { return len(rec.all()) == 1 })
	w.finish(context.Background(), map[string]any{"status": StatusCompleted, "messageText": "Kubernetes workshops"})
	got := rec.all()
	require.Len(t, got, 2, "writes: %v", got)
	assert.False(t, got[0].final, "the partial write was final: %v", got)
	assert.True(t, got[1].final, "the last write was not final: %v", got)
	assert.Equal(t, StatusCompleted, got[1].fields["status"], "last write: %v", got)
}
