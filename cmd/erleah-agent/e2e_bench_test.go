package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/llm/llmtest"
)

// The benchmarks below need a real Directus (DIRECTUS_URL and
// DIRECTUS_ADMIN_TOKEN, as for the end-to-end tests) and report their
// figures with ReportMetric; BENCHMARKS.md has the command and the results.

// reflective questions make the builtin model reflect once or twice.
var reflective = []string{
	"Who can help me deploy ML models on-prem?",
	"anything k8s related? we run our training jobs on it",
	"Any talks on making models smaller for phones?",
	"who rents out GPUs? need capacity for a big training run next quarter",
	"Any sessions about shrinking models for edge devices?",
	"Which company at the expo does sports analytics? I saw something about curling",
}

// BenchmarkE2EThinkingToWidget measures how long after a reflection decision
// (the record's ts) the widget's subscription delivers the thinking_output
// update that carries it.
func BenchmarkE2EThinkingToWidget(b *testing.B) {
	d := needDirectus(b)
	d.startAgent(b, nil)
	conv := d.conversation(b)
	w := d.subscribe(b, conv)
	var lat []float64
	for i := 0; b.Loop(); i++ {
		user := d.ask(b, conv, reflective[i%len(reflective)])
		r := d.finished(b, user, 20*time.Second)
		lat = append(lat, thinkingLatencies(b, w.settled(b, r.ID))...)
	}
	require.NotEmpty(b, lat, "no thinking record reached the widget")
	reportPercentiles(b, lat, "ms")
	b.ReportMetric(float64(len(lat))/float64(b.N), "records/turn")
}

// thinkingLatencies pairs every thinking record with the first event that
// carried it.
func thinkingLatencies(b *testing.B, events []widgetEvent) []float64 {
	var out []float64
	for _, e := range events {
		recs, _ := e.items[0]["thinking_output"].([]any)
		for len(out) < len(recs) {
			rec, _ := recs[len(out)].(map[string]any)
			ts, ok := rec["ts"].(float64)
			if !ok {
				b.Fatalf("thinking record without ts: %v", rec)
			}
			decided := time.UnixMicro(int64(ts * 1e6))
			out = append(out, float64(e.at.Sub(decided).Microseconds())/1000)
		}
	}
	return out
}

// BenchmarkE2EWebhookAck sends 100 Flow deliveries at once and measures each
// acknowledgement; then it checks that every message got exactly one reply.
// A first batch of deliveries for unknown messages opens the connections.
func BenchmarkE2EWebhookAck(b *testing.B) {
	const deliveries = 100
	d := needDirectus(b)
	a := d.startAgent(b, map[string]string{"RECONCILE_GRACE": "10m"})
	warm := make([][2]string, deliveries)
	for i := range warm {
		warm[i] = [2]string{fmt.Sprintf("warm-up-%d", i), "none"}
	}
	deliverAtOnce(b, a, warm)
	var lat []float64
	var users []string
	for b.Loop() {
		b.StopTimer()
		pauseFlow(b, d, true) // these reach the agent only through the deliveries below
		convs := make([]string, deliveries/10)
		for i := range convs {
			convs[i] = d.conversation(b)
		}
		batch := make([][2]string, deliveries)
		for i := range batch {
			conv := convs[i%len(convs)]
			batch[i] = [2]string{d.ask(b, conv, reflective[i%len(reflective)]), conv}
			users = append(users, batch[i][0])
		}
		pauseFlow(b, d, false)
		b.StartTimer()
		lat = append(lat, deliverAtOnce(b, a, batch)...)
	}
	reportPercentiles(b, lat, "ms")
	b.StopTimer()
	for _, u := range users {
		r := d.finished(b, u, 2*time.Minute)
		require.Equal(b, "completed", r.Status, "reply to %s: %+v", u, r)
	}
}

// flowClient keeps connections alive, as Node's HTTP agent does for the
// Flow's requests.
var flowClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 200}}

func deliverAtOnce(b *testing.B, a *agentProc, batch [][2]string) []float64 {
	lat := make([]float64, len(batch))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, m := range batch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, a.url+"/v1/webhooks/directus", strings.NewReader(flowBody(m[0], m[1])))
			req.Header.Set("X-Webhook-Secret", a.secret)
			<-start
			t0 := time.Now()
			resp, err := flowClient.Do(req)
			lat[i] = float64(time.Since(t0).Microseconds()) / 1000
			if err != nil || resp.StatusCode >= 300 {
				b.Errorf("delivery %d: %v %v", i, resp, err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}()
	}
	close(start)
	wg.Wait()
	return lat
}

// BenchmarkAckHarnessFloor runs BenchmarkE2EWebhookAck's client against a
// handler that does nothing: what the harness itself costs on this machine.
func BenchmarkAckHarnessFloor(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(202) }))
	defer srv.Close()
	a := &agentProc{url: srv.URL}
	batch := make([][2]string, 100)
	var lat []float64
	for b.Loop() {
		lat = append(lat, deliverAtOnce(b, a, batch)...)
	}
	reportPercentiles(b, lat, "ms")
}

// BenchmarkE2EPatchesPerTurn streams a 1,000-token answer (4,000 characters)
// at a given speed into Directus and counts the PATCHes the widget sees.
func BenchmarkE2EPatchesPerTurn(b *testing.B) {
	for _, tps := range []int{50, 100, 500} {
		b.Run(fmt.Sprintf("%dtok/s", tps), func(b *testing.B) { patchesPerTurn(b, tps) })
	}
}

func patchesPerTurn(b *testing.B, tokensPerSecond int) {
	const tokens = 1000
	d := needDirectus(b)
	answer := "See [sessions/s006]." + strings.Repeat(" abc", tokens-5)
	chunks := (len(answer) + 6) / 7 // llmtest streams 7-byte pieces
	env := scriptedModel(b, llmtest.Reply{Text: answer, ChunkDelay: time.Second * tokens / time.Duration(tokensPerSecond*chunks)})
	env["TURN_TIMEOUT"] = "60s"
	d.startAgent(b, env)
	conv := d.conversation(b)
	w := d.subscribe(b, conv)
	var patches, gaps []float64
	for b.Loop() {
		user := d.ask(b, conv, "Any sessions on RAG?")
		r := d.finished(b, user, time.Minute)
		events := w.settled(b, r.ID)
		if events[len(events)-1].items[0]["messageText"] != answer {
			b.Fatalf("the widget did not see the whole answer (%d events)", len(events))
		}
		patches = append(patches, float64(len(events)-1)) // the first event is the create
		for i := 2; i < len(events); i++ {
			gaps = append(gaps, float64(events[i].at.Sub(events[i-1].at).Milliseconds()))
		}
	}
	b.ReportMetric(mean(patches), "patches/turn")
	slices.Sort(gaps)
	b.ReportMetric(gaps[0], "min-gap-ms")
}

func reportPercentiles(b *testing.B, v []float64, unit string) {
	slices.Sort(v)
	at := func(q float64) float64 { return v[min(len(v)-1, int(q*float64(len(v))))] }
	b.ReportMetric(at(0.5), "p50-"+unit)
	b.ReportMetric(at(0.95), "p95-"+unit)
	b.ReportMetric(at(0.99), "p99-"+unit)
	b.ReportMetric(v[len(v)-1], "max-"+unit)
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
