// Command loadgen measures erleah-agent under load: it starts `serve` as a
// child process (with the builtin model, or with a stub OpenAI-compatible
// model server that adds a fixed delay to every call), sends waves of
// concurrent turns to POST /v1/chat/stream, reads every event stream to its
// end, and reports throughput, latency percentiles, errors and the server's
// memory (peak and after each wave, to show whether it keeps growing).
//
//	go build -o /tmp/erleah-agent ./cmd/erleah-agent
//	go run ./cmd/loadgen -bin /tmp/erleah-agent -turns 500 -concurrency 500 -waves 3
//	go run ./cmd/loadgen -bin /tmp/erleah-agent -turns 500 -concurrency 500 -stub-delay 500ms
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/erleah/erleah-agent/eval"
)

func main() {
	bin := flag.String("bin", "", "erleah-agent binary to start (required)")
	turns := flag.Int("turns", 500, "turns per wave")
	conc := flag.Int("concurrency", 500, "turns in flight at once")
	waves := flag.Int("waves", 3, "waves of turns, to watch memory between them")
	delay := flag.Duration("stub-delay", 0, "serve with a stub model server adding this delay to every call (0: builtin model)")
	maxTurns := flag.Int("max-turns", 512, "MAX_TURNS of the server")
	queue := flag.Int("queue", 1024, "TURN_QUEUE of the server")
	question := flag.String("question", "", "ask only this question (of aidata26), for a uniform workload; default: the public evaluation set in turn")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "loadgen: -bin is required")
		os.Exit(2)
	}
	if err := run(*bin, *question, *turns, *conc, *waves, *delay, *maxTurns, *queue); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run(bin, question string, turns, conc, waves int, delay time.Duration, maxTurns, queue int) error {
	questions, err := questionsFor(question)
	if err != nil {
		return err
	}
	env := []string{fmt.Sprintf("MAX_TURNS=%d", maxTurns), fmt.Sprintf("TURN_QUEUE=%d", queue), "RATE_PER_IP=0", "RATE_PER_USER=0", "LOG_LEVEL=warn"}
	if delay > 0 {
		stub, err := startStub(delay)
		if err != nil {
			return err
		}
		env = append(env, "MODEL=openai:stub", "OPENAI_API_KEY=none", "OPENAI_BASE_URL="+stub+"/v1")
	}
	srv, err := startServer(bin, env)
	if err != nil {
		return err
	}
	defer srv.stop()
	fmt.Printf("server pid %d at %s, model %s, MAX_TURNS %d, TURN_QUEUE %d, %d cores\n",
		srv.cmd.Process.Pid, srv.url, modelName(delay), maxTurns, queue, runtime.NumCPU())
	fmt.Printf("RSS at start: %.1f MB\n\n", srv.rss("VmRSS"))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc}, Timeout: 2 * time.Minute}
	for w := 1; w <= waves; w++ {
		r := wave(client, srv.url, questions, turns, conc)
		fmt.Printf("wave %d: %d turns, concurrency %d: %s\n", w, turns, conc, r)
		fmt.Printf("         server RSS now %.1f MB, peak %.1f MB, Go heap in use %.1f MB, goroutines %.0f\n",
			srv.rss("VmRSS"), srv.rss("VmHWM"), srv.metric("go_memstats_heap_inuse_bytes")/1e6, srv.metric("go_goroutines"))
	}
	return nil
}

func modelName(d time.Duration) string {
	if d == 0 {
		return "builtin"
	}
	return "stub (+" + d.String() + " per call)"
}

// questionsFor is one fixed question, or the public evaluation set's
// questions and conferences.
func questionsFor(q string) ([]eval.Case, error) {
	if q != "" {
		return []eval.Case{{ID: "fixed", ConferenceID: "aidata26", Message: q}}, nil
	}
	return eval.DemoCases()
}

// result summarises a wave.
type result struct {
	took      time.Duration
	latencies []time.Duration
	errors    map[string]int
}

func (r result) String() string {
	slices.Sort(r.latencies)
	p := func(q float64) string {
		if len(r.latencies) == 0 {
			return "-"
		}
		return r.latencies[int(q*float64(len(r.latencies)-1))].Round(100 * time.Microsecond).String()
	}
	errs := 0
	var kinds []string
	for k, n := range r.errors {
		errs += n
		kinds = append(kinds, fmt.Sprintf("%s×%d", k, n))
	}
	return fmt.Sprintf("%.0f turns/s, p50 %s, p90 %s, p99 %s, max %s, errors %d %v (wall %s)",
		float64(len(r.latencies))/r.took.Seconds(), p(0.5), p(0.9), p(0.99), p(1), errs, kinds, r.took.Round(time.Millisecond))
}

// wave sends n turns, conc at a time, and waits for every stream to end.
func wave(client *http.Client, url string, qs []eval.Case, n, conc int) result {
	var mu sync.Mutex
	res := result{errors: map[string]int{}}
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			q := qs[i%len(qs)]
			d, err := turn(client, url, q)
			mu.Lock()
			defer mu.Unlock()
			if err != "" {
				res.errors[err]++
				return
			}
			res.latencies = append(res.latencies, d)
		}()
	}
	wg.Wait()
	res.took = time.Since(start)
	return res
}

// turn runs one streamed turn and returns its latency, or an error kind.
func turn(c *http.Client, url string, q eval.Case) (time.Duration, string) {
	body := fmt.Sprintf(`{"message":%q,"conference_id":%q}`, q.Message, q.ConferenceID)
	start := time.Now()
	resp, err := c.Post(url+"/v1/chat/stream", "application/json", strings.NewReader(body))
	if err != nil {
		return 0, "transport"
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, resp.Body)
		return 0, fmt.Sprintf("http_%d", resp.StatusCode)
	}
	data, err := io.ReadAll(resp.Body)
	switch {
	case err != nil:
		return 0, "stream_cut"
	case strings.Contains(string(data), "event: error"):
		return 0, "turn_error"
	case !strings.Contains(string(data), "event: done"):
		return 0, "no_done"
	}
	return time.Since(start), ""
}

// server is the erleah-agent child process.
type server struct {
	cmd *exec.Cmd
	url string
	dir string
}

func startServer(bin string, env []string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "loadgen-state-*")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), append(env, fmt.Sprintf("LISTEN_ADDR=127.0.0.1:%d", port), "STATE_DIR="+dir)...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{cmd: cmd, url: fmt.Sprintf("http://127.0.0.1:%d", port), dir: dir}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if resp, err := http.Get(s.url + "/readyz"); err == nil && resp.StatusCode == 200 {
			resp.Body.Close()
			return s, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	return nil, fmt.Errorf("server not ready at %s", s.url)
}

func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	_ = s.cmd.Wait()
	os.RemoveAll(s.dir)
}

// rss reads a memory field (VmRSS, VmHWM) of the server, in MB.
func (s *server) rss(field string) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, field+":") {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, field+":")), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}

// metric reads one unlabelled value from the server's /metrics.
func (s *server) metric(name string) float64 {
	resp, err := http.Get(s.url + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			var f float64
			fmt.Sscanf(v, "%g", &f)
			return f
		}
	}
	return 0
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
