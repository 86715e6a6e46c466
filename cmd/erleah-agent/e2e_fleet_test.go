package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/provision"
)

// TestE2EFleetSurvivesKillAndTerm runs three agent processes behind a
// round-robin front for the Flow's deliveries (split over two Directus
// instances when DIRECTUS_URL_2 names a second one on the same database),
// with a slow model, and asks 200 questions in 40 conversations. Mid-run
// one replica is SIGKILLed and another SIGTERMed while questions keep
// arriving (deliveries to them fail); both come back later. Then every
// question has exactly one reply, completed or failed, none left pending or
// streaming; no reply was written after it was finished (Directus's
// revisions); and each conversation's replies started in question order,
// each after the one before it finished.
func TestE2EFleetSurvivesKillAndTerm(t *testing.T) {
	d := needDirectus(t)
	if testing.Short() {
		t.Skip("a two-minute run of three agent processes")
	}
	bin := buildAgent(t)
	env := slowModel(t, 1500*time.Millisecond)
	secret := fmt.Sprintf("fleet-%d", time.Now().UnixNano())
	for k, v := range map[string]string{"DIRECTUS_TOKEN": d.agentToken, "WEBHOOK_SECRET": secret, "LOG_LEVEL": "info",
		"RATE_PER_USER": "0", "RATE_PER_IP": "0", "MEMORY_ENABLED": "false", "MAX_TURNS": "4",
		"TURN_TIMEOUT": "12s", "MODEL_CALL_TIMEOUT": "6s", "SHUTDOWN_GRACE": "2s",
		"RECONCILE_INTERVAL": "1s", "RECONCILE_GRACE": "3s", "RECONCILE_ABANDON_AFTER": "35s"} {
		env[k] = v
	}
	urls := []string{d.url}
	if second := os.Getenv("DIRECTUS_URL_2"); second != "" {
		urls = append(urls, second)
	}
	fleet := make([]*replica, 3)
	for i := range fleet {
		fleet[i] = &replica{name: fmt.Sprintf("r%d", i), bin: bin, env: withEnv(env, "DIRECTUS_URL", urls[i%len(urls)])}
		fleet[i].start(t)
	}
	front := newFront(t, fleet)
	_, err := provision.Flow(context.Background(), d.admin, provision.FlowOptions{URL: front.URL + "/v1/webhooks/directus", Secret: secret})
	require.NoError(t, err)

	convs := askFleet(t, d, 40, 5, func(elapsed time.Duration) {
		switch {
		case elapsed > 4*time.Second && fleet[0].up():
			fleet[0].stop(t, syscall.SIGKILL)
		case elapsed > 8*time.Second && fleet[1].up():
			fleet[1].stop(t, syscall.SIGTERM)
		}
	})
	fleet[0].start(t)
	fleet[1].start(t)

	var all []string
	for _, qs := range convs {
		all = append(all, qs...)
	}
	deadline := time.Now().Add(150 * time.Second)
	for len(openQuestions(t, d, all)) > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Second)
	}
	if open := openQuestions(t, d, all); len(open) > 0 {
		describeOpen(t, d, convs, open)
		for _, q := range open {
			for _, r := range fleet {
				for _, line := range strings.Split(r.logs.String(), "\n") {
					if strings.Contains(line, q) {
						t.Logf("%s: %s", r.name, line)
					}
				}
			}
		}
		t.Fatalf("%d of %d questions still open after 150 s", len(open), len(all))
	}
	time.Sleep(3 * time.Second) // a late second write would show now
	for _, qs := range convs {
		checkConversation(t, d, qs)
	}
	t.Logf("front: %d deliveries, %d refused while a replica was down", front.sent.Load(), front.failed.Load())
}

// askFleet creates conversations and asks each its questions one after
// another, a second or two apart, as attendees do; during calls tick with
// the time since the start. It returns each conversation's questions in
// order.
func askFleet(t *testing.T, d *realDirectus, conversations, each int, during func(time.Duration)) [][]string {
	out := make([][]string, conversations)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range out {
		conv := d.conversation(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for q := range each {
				var m struct {
					ID string `json:"id"`
				}
				body := map[string]any{"conversation": conv, "role": "user", "messageText": fmt.Sprintf("Any sessions on RAG? (%d.%d)", c, q), "status": "completed"}
				if err := d.admin.CreateItem(context.Background(), "messages", body, &m); err != nil {
					t.Errorf("ask in conversation %d: %v", c, err)
					return
				}
				out[c] = append(out[c], m.ID)
				time.Sleep(time.Duration(800+(c*97+q*131)%1700) * time.Millisecond)
			}
		}()
		time.Sleep(60 * time.Millisecond)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for {
		select {
		case <-done:
			return out
		case <-time.After(200 * time.Millisecond):
			during(time.Since(start))
		}
	}
}

// describeOpen logs where each open question stands: its place in its
// conversation and its replies' revisions.
func describeOpen(t *testing.T, d *realDirectus, convs [][]string, open []string) {
	byQuestion := repliesTo(t, d, open)
	for _, q := range open {
		for c, qs := range convs {
			if i := slices.Index(qs, q); i >= 0 {
				t.Logf("open: conversation %d question %d (%s), replies %+v", c, i, q, byQuestion[q])
				if i > 0 {
					for _, r := range repliesTo(t, d, qs[:i])[qs[i-1]] {
						t.Logf("   the question before has reply %+v", r)
						for _, rev := range revisions(t, d, r.ID) {
							t.Logf("      revision %d: status %v metadata %v", rev.ID, rev.Data["status"], rev.Data["metadata"])
						}
					}
				}
			}
		}
		for _, r := range byQuestion[q] {
			for _, rev := range revisions(t, d, r.ID) {
				t.Logf("   revision %d: status %v metadata %v", rev.ID, rev.Data["status"], rev.Data["metadata"])
			}
		}
	}
}

// fleetReply is a reply with what the fleet test checks.
type fleetReply struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	ReplyTo string `json:"reply_to"`
}

// openQuestions lists the questions without a finished reply.
func openQuestions(t testing.TB, d *realDirectus, questions []string) []string {
	byQuestion := repliesTo(t, d, questions)
	var open []string
	for _, q := range questions {
		rs := byQuestion[q]
		if len(rs) == 0 || !slices.ContainsFunc(rs, func(r fleetReply) bool { return finalStatus(r.Status) }) {
			open = append(open, q)
		}
	}
	return open
}

func finalStatus(s string) bool { return s == "completed" || s == "failed" }

func repliesTo(t testing.TB, d *realDirectus, questions []string) map[string][]fleetReply {
	var rs []fleetReply
	q := directus.Query{Fields: []string{"id", "status", "reply_to"}, Filter: map[string]any{"reply_to": map[string]any{"_in": questions}}}
	require.NoError(t, d.admin.ReadAll(context.Background(), "messages", q, &rs))
	out := map[string][]fleetReply{}
	for _, r := range rs {
		out[r.ReplyTo] = append(out[r.ReplyTo], r)
	}
	return out
}

// revision is one write of a reply as Directus recorded it.
type revision struct {
	ID   int            `json:"id"`
	Data map[string]any `json:"data"`
}

// revisions lists the recorded writes of an item, oldest first.
func revisions(t *testing.T, d *realDirectus, item string) []revision {
	var rs []revision
	q := url.Values{"filter[collection][_eq]": {"messages"}, "filter[item][_eq]": {item}, "sort": {"id"}, "limit": {"-1"}, "fields": {"id,data"}}
	require.NoError(t, d.admin.Do(context.Background(), http.MethodGet, "/revisions", q, nil, &rs))
	return rs
}

// checkConversation checks one conversation's replies: one per question,
// finished, never written after it finished, and each started (its first
// write past "pending") after the previous one finished.
func checkConversation(t *testing.T, d *realDirectus, questions []string) {
	byQuestion := repliesTo(t, d, questions)
	prevDone := 0
	for i, q := range questions {
		rs := byQuestion[q]
		if !assert.Len(t, rs, 1, "replies to question %d (%s)", i, q) {
			continue
		}
		assert.True(t, finalStatus(rs[0].Status), "reply %s to question %d is %s", rs[0].ID, i, rs[0].Status)
		revs := revisions(t, d, rs[0].ID)
		started, finished := lifeOf(revs)
		require.NotZero(t, finished, "reply %s has no finishing revision: %v", rs[0].ID, revs)
		for _, later := range afterFinish(revs, finished) {
			t.Errorf("reply %s changed after it finished (revision %d): %v", rs[0].ID, later.ID, later.Data)
		}
		assert.Greater(t, started, prevDone, "reply to question %d started before the reply to question %d finished", i, i-1)
		prevDone = finished
	}
}

// afterFinish lists the revisions after the finishing one that changed
// what the attendee sees: the status, the answer or the thinking notes.
// (The post-turn evaluation adds its verdict to the metadata afterwards.)
func afterFinish(revs []revision, finished int) []revision {
	var final revision
	var out []revision
	for _, r := range revs {
		switch {
		case r.ID == finished:
			final = r
		case r.ID > finished:
			for _, k := range []string{"status", "messageText", "thinking_output", "reply_to", "conversation"} {
				if fmt.Sprint(r.Data[k]) != fmt.Sprint(final.Data[k]) {
					out = append(out, r)
					break
				}
			}
		}
	}
	return out
}

// lifeOf returns the revision ids at which a reply first left "pending"
// and first reached a final status.
func lifeOf(revs []revision) (started, finished int) {
	sort.Slice(revs, func(i, j int) bool { return revs[i].ID < revs[j].ID })
	for _, r := range revs {
		status, _ := r.Data["status"].(string)
		if started == 0 && status != "pending" {
			started = r.ID
		}
		if finished == 0 && finalStatus(status) {
			finished = r.ID
		}
	}
	return started, finished
}

// replica is one agent process.
type replica struct {
	name, bin string
	env       map[string]string
	mu        sync.Mutex
	url       string
	cmd       *exec.Cmd
	exited    chan struct{}
	logs      syncBuffer
}

func (r *replica) start(t testing.TB) {
	port := freePort(t)
	env := withEnv(r.env, "LISTEN_ADDR", "127.0.0.1:"+port)
	env["STATE_DIR"] = t.TempDir()
	cmd := exec.Command(r.bin, "serve")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + env["STATE_DIR"]}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdout, cmd.Stderr = io.Discard, &r.logs
	require.NoError(t, cmd.Start(), "start %s", r.name)
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited

	})
	u := "http://127.0.0.1:" + port
	require.Eventually(t, func() bool {
		resp, err := http.Get(u + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == http.StatusOK
	}, 20*time.Second, 100*time.Millisecond, "%s did not come up:\n%s", r.name, r.logs.String())
	r.mu.Lock()
	r.url, r.cmd, r.exited = u, cmd, exited
	r.mu.Unlock()
}

// stop sends sig and waits for the process to exit.
func (r *replica) stop(t testing.TB, sig syscall.Signal) {
	r.mu.Lock()
	cmd, exited := r.cmd, r.exited
	r.url = ""
	r.mu.Unlock()
	require.NoError(t, cmd.Process.Signal(sig))
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not exit after %v", r.name, sig)
	}
	t.Logf("%s stopped with %v", r.name, sig)
}

func (r *replica) up() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.url != ""
}

func (r *replica) target() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.url
}

// front is the load balancer the Flow posts to: deliveries go round-robin
// to the replicas, a stopped one included (its deliveries fail, as they
// would before a health check noticed).
type front struct {
	*httptest.Server
	sent, failed atomic.Int64
}

func newFront(t *testing.T, fleet []*replica) *front {
	f := &front{}
	var next atomic.Int64
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r := fleet[int(next.Add(1))%len(fleet)]
		f.sent.Add(1)
		target := r.target()
		if target == "" {
			f.failed.Add(1)
			http.Error(w, "replica down", http.StatusBadGateway)
			return
		}
		out, err := http.NewRequestWithContext(req.Context(), req.Method, target+req.URL.RequestURI(), req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		out.Header = req.Header.Clone()
		resp, err := http.DefaultClient.Do(out)
		if err != nil {
			f.failed.Add(1)
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(f.Close)
	return f
}

// buildAgent builds the agent's binary once for the test.
func buildAgent(t testing.TB) string {
	path := filepath.Join(t.TempDir(), "erleah-agent")
	out, err := exec.Command("go", "build", "-o", path, ".").CombinedOutput()
	require.NoError(t, err, "go build:\n%s", out)
	return path
}

func freePort(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	_, port, _ := strings.Cut(ln.Addr().String(), ":")
	return port
}

func withEnv(env map[string]string, k, v string) map[string]string {
	out := maps.Clone(env)
	if out == nil {
		out = map[string]string{}
	}
	out[k] = v
	return out
}
