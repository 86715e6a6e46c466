package server

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// checkTimeout bounds each readiness check: a probe never hangs.
const checkTimeout = 2 * time.Second

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz runs every readiness check in parallel, each with a short
// timeout, and answers 503 when one fails. Failures are named, not detailed.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	results := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, check := range s.opts.Ready {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(r.Context(), checkTimeout)
			defer cancel()
			res := "ok"
			if err := check(ctx); err != nil {
				res = "failing"
				s.log.Warn("readiness check failed", "check", name, "err", err)
			}
			mu.Lock()
			results[name] = res
			mu.Unlock()
		}()
	}
	wg.Wait()
	code, status := http.StatusOK, "ready"
	for _, res := range results {
		if res != "ok" {
			code, status = http.StatusServiceUnavailable, "not ready"
		}
	}
	writeJSON(w, code, map[string]any{"status": status, "checks": results})
}

type traceKey struct{}

func withTraceID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceKey{}, id)
}

func traceID(ctx context.Context) string {
	id, _ := ctx.Value(traceKey{}).(string)
	return id
}
