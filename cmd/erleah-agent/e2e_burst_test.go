package main

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkE2EWebhookBurst: 20,000 webhook deliveries from 100 senders at
// once to one agent process (the default bounds, the builtin model) beside
// a real Directus. 200 are real questions in 40 conversations, created
// while the Flow was paused; the rest name messages that do not exist.
// It reports what was accepted and refused, the agent process's peak RSS
// (sampled every 50 ms from /proc and its VmHWM) and goroutines, and how
// long until every real question had its answer — the refused ones through
// the reconciler.
func BenchmarkE2EWebhookBurst(b *testing.B) {
	const deliveries, senders, conversations, each = 20000, 100, 40, 5
	d := needDirectus(b)
	bin := buildAgent(b)
	secret := fmt.Sprintf("burst-%d", time.Now().UnixNano())
	r := &replica{name: "burst", bin: bin, env: map[string]string{"DIRECTUS_URL": d.url, "DIRECTUS_TOKEN": d.agentToken,
		"WEBHOOK_SECRET": secret, "LOG_LEVEL": "error", "RATE_PER_USER": "0", "RATE_PER_IP": "0",
		"RECONCILE_INTERVAL": "1s", "RECONCILE_GRACE": "3s"}}
	r.start(b)
	pauseFlow(b, d, true)
	var real []string
	var body []string
	for range conversations {
		conv := d.conversation(b)
		for i := range each {
			u := d.ask(b, conv, reflective[i%len(reflective)])
			real = append(real, u)
			body = append(body, flowBody(u, conv))
		}
	}
	pauseFlow(b, d, false)
	for i := len(body); i < deliveries; i++ {
		body = append(body, flowBody(fmt.Sprintf("00000000-0000-4000-8000-%012d", i), ""))
	}
	for b.Loop() {
		peak, codes := burst(b, r, secret, body, senders)
		start := time.Now()
		eventually(b, 3*time.Minute, saying("every real question answered"), func() bool { return len(openQuestions(b, d, real)) == 0 })
		answered := time.Since(start)
		b.ReportMetric(float64(codes[http.StatusAccepted]), "accepted")
		b.ReportMetric(float64(codes[http.StatusServiceUnavailable]+codes[http.StatusTooManyRequests]), "refused")
		b.ReportMetric(float64(codes[0]), "failed")
		b.ReportMetric(peak.rss/1024, "peak-RSS-MB")
		b.ReportMetric(float64(hwm(b, r))/1024, "VmHWM-MB")
		b.ReportMetric(peak.goroutines, "peak-goroutines")
		b.ReportMetric(answered.Seconds(), "s-until-all-200-answered")
	}
}

type peaks struct{ rss, goroutines float64 }

// burst sends every body once, senders at a time, sampling the agent
// process meanwhile; it returns the peaks and the count of each status
// (0: no answer).
func burst(b *testing.B, r *replica, secret string, bodies []string, senders int) (peaks, map[int]int) {
	var p peaks
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			p.rss = max(p.rss, float64(status(b, r, "VmRSS:")))
			p.goroutines = max(p.goroutines, goroutines(r))
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	var next atomic.Int64
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for range senders {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(bodies); i = int(next.Add(1)) - 1 {
				code := deliver(r.target(), secret, bodies[i])
				mu.Lock()
				codes[code]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(stop)
	<-sampled
	return p, codes
}

func deliver(url, secret, body string) int {
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/webhooks/directus", strings.NewReader(body))
	req.Header.Set("X-Webhook-Secret", secret)
	resp, err := flowClient.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// status reads a kB figure of the agent process from /proc/PID/status.
func status(b *testing.B, r *replica, field string) int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", r.cmd.Process.Pid))
	require.NoError(b, err)
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	return 0
}

func hwm(b *testing.B, r *replica) int { return status(b, r, "VmHWM:") }

// goroutines reads go_goroutines from the agent's /metrics.
func goroutines(r *replica) float64 {
	resp, err := http.Get(r.target() + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	var sb strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	for _, line := range strings.Split(sb.String(), "\n") {
		if v, ok := strings.CutPrefix(line, "go_goroutines "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}
