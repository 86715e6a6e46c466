package chat

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/directus"
)

// outageStore is a DirectusStore whose Directus answers the first down
// PATCHes with status and then 200, counting every request.
func outageStore(t *testing.T, down int32, status int) (*DirectusStore, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) <= down {
			w.WriteHeader(status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":{"id":"a1"}}`))
	}))
	t.Cleanup(srv.Close)
	wait := finalWriteWait
	finalWriteWait = time.Millisecond
	t.Cleanup(func() { finalWriteWait = wait })
	c, err := directus.New(directus.Options{BaseURL: srv.URL, RetryWait: time.Millisecond})
	require.NoError(t, err)
	return NewDirectusStore(c), &hits
}

// A final write rides out an outage of up to FinalWriteAttempts-1 failed
// requests and makes no more than FinalWriteAttempts; other writes make
// the client's 3, and nothing retries a retry.
func TestFinalWriteMakesAtMostTheStatedRequests(t *testing.T) {
	ctx := context.Background()
	fields := map[string]any{"status": StatusCompleted}

	s, hits := outageStore(t, FinalWriteAttempts-1, http.StatusServiceUnavailable)
	require.NoError(t, s.PatchFinal(ctx, "a1", fields), "final write through a 503 outage")
	assert.Equal(t, int32(FinalWriteAttempts), hits.Load(), "requests")

	s, hits = outageStore(t, 100, http.StatusBadGateway)
	require.Error(t, s.PatchFinal(ctx, "a1", fields), "final write through a longer outage")
	assert.Equal(t, int32(FinalWriteAttempts), hits.Load(), "requests of a final write")

	s, hits = outageStore(t, 100, http.StatusServiceUnavailable)
	require.Error(t, s.Patch(ctx, "a1", fields), "partial write through an outage")
	assert.Equal(t, int32(3), hits.Load(), "requests of a partial write")

	s, hits = outageStore(t, 100, http.StatusForbidden)
	require.Error(t, s.PatchFinal(ctx, "a1", fields), "refused final write")
	assert.Equal(t, int32(1), hits.Load(), "requests of a refused final write")
}
