package memory_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/migrations"
	"github.com/erleah/erleah-agent/provision"
)

// The tests in this file run against a real Directus (scripts/directus/start.sh;
// scripts/test.sh does it). Each run uses its own conference, so they can run
// again and again against one instance; they delete what they create.

// realDirectus is an instance with the project's schema and the agent's
// user: the admin's client and the agent's.
type realDirectus struct {
	admin, agent *directus.Client
	base         string
}

var (
	prepOnce sync.Once
	prepared realDirectus
	prepErr  error
)

// agentEmail is this package's agent user (its token is rotated on every
// run, so it is not the one scripts/test.sh or the e2e tests use).
const agentEmail = "erleah-agent-memory-test@example.com"

func needDirectus(t *testing.T) realDirectus {
	t.Helper()
	base, token := os.Getenv("DIRECTUS_URL"), os.Getenv("DIRECTUS_ADMIN_TOKEN")
	if base == "" || token == "" {
		t.Skip("set DIRECTUS_URL and DIRECTUS_ADMIN_TOKEN to run against a real Directus (scripts/directus/start.sh; scripts/test.sh does it)")
	}
	prepOnce.Do(func() { prepared, prepErr = prepare(base, token) })
	if prepErr != nil {
		t.Fatal(prepErr)
	}
	return prepared
}

func prepare(base, token string) (realDirectus, error) {
	ctx := context.Background()
	admin, err := directus.New(directus.Options{BaseURL: base, Token: token})
	if err != nil {
		return realDirectus{}, err
	}
	// Other packages' tests may apply the schema at the same time: a diff
	// made stale by their apply is refused, so diff again.
	for i := range 3 {
		if _, err = provision.ApplySchema(ctx, admin, migrations.DirectusSchema); err == nil {
			break
		}
		time.Sleep(time.Duration(i+1) * 500 * time.Millisecond)
	}
	if err != nil {
		return realDirectus{}, err
	}
	problems, err := provision.Check(ctx, admin, migrations.DirectusSchema)
	if err != nil {
		return realDirectus{}, err
	}
	if len(problems) > 0 {
		return realDirectus{}, fmt.Errorf("directus check after applying the schema: %v", problems)
	}
	res, err := provision.AgentUser(ctx, admin, agentEmail, true)
	if err != nil {
		return realDirectus{}, err
	}
	return realDirectus{admin: admin, agent: admin.WithToken(res.Token), base: base}, nil
}

func runID() string { return fmt.Sprintf("%d-%04x", time.Now().UnixNano(), rand.N(1<<16)) }

// conferenceLessons returns the ids of the stored lessons of conf, read
// with the admin's token.
func conferenceLessons(ctx context.Context, t *testing.T, c *directus.Client, conf string) []string {
	t.Helper()
	var items []struct {
		ID string `json:"id"`
	}
	q := directus.Query{Fields: []string{"id"}, Filter: map[string]any{"conference": map[string]any{"_eq": conf}}}
	if err := c.ReadAll(ctx, memory.Collection, q, &items); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	slices.Sort(ids)
	return ids
}

func cleanupConference(t *testing.T, c *directus.Client, conf string) {
	t.Cleanup(func() {
		ctx := context.Background()
		if ids := conferenceLessons(ctx, t, c, conf); len(ids) > 0 {
			if err := c.DeleteItems(ctx, memory.Collection, ids); err != nil {
				t.Errorf("cleanup: %v", err)
			}
		}
	})
}

// TestDirectusBankRoundTrip remembers lessons in a Bank kept in Directus with
// the agent's own token, finds them again in a Bank opened afresh, and
// finds none after clearing the conference.
func TestDirectusBankRoundTrip(t *testing.T) {
	d := needDirectus(t)
	ctx := context.Background()
	conf := "memtest-" + runID()
	cleanupConference(t, d.admin, conf)

	bank, err := memory.Open(ctx, memory.NewDirectus(d.agent), memory.Options{PerConference: 3})
	if err != nil {
		t.Fatal(err)
	}
	mlops := lesson(conf, "mlops talks", map[string]float64{"mlop": 3, "talk": 0.5}, 1)
	gpu := lesson(conf, "gpu sharing", map[string]float64{"gpu": 2, "share": 1}, 2)
	hit := true
	gpu.Hit = &hit
	gpu.Insight = &memory.Insight{Strengths: []string{"cited the workshop"}, Confidence: 0.7}
	if err := bank.Remember(ctx, []memory.Lesson{mlops, gpu}); err != nil {
		t.Fatal(err)
	}
	stored := bank.List(conf)
	if len(stored) != 2 {
		t.Fatalf("bank lists %d lessons, want 2", len(stored))
	}
	// Used rewrites stored lessons: an update, not a second item.
	var mlopsID string
	for _, l := range stored {
		if l.Text == "mlops talks" {
			mlopsID = l.ID
		}
	}
	if err := bank.Used(ctx, []string{mlopsID}, true); err != nil {
		t.Fatal(err)
	}
	// Beyond the cap of 3 the least valuable lesson is evicted (deleted).
	weak := lesson(conf, "sauna", map[string]float64{"sauna": 1}, 0.1)
	weaker := lesson(conf, "yoga", map[string]float64{"yoga": 1}, 0.05)
	if err := bank.Remember(ctx, []memory.Lesson{weak, weaker}); err != nil {
		t.Fatal(err)
	}
	if ids := conferenceLessons(ctx, t, d.admin, conf); len(ids) != 3 {
		t.Fatalf("%d items in %s for the conference, want 3 (cap)", len(ids), memory.Collection)
	}

	backend := memory.NewDirectus(d.agent)
	again, err := memory.Open(ctx, backend, memory.Options{PerConference: 3})
	if err != nil {
		t.Fatal(err)
	}
	got := again.List(conf)
	texts := make([]string, len(got))
	for i, l := range got {
		texts[i] = l.Text
	}
	slices.Sort(texts)
	if !slices.Equal(texts, []string{"gpu sharing", "mlops talks", "sauna"}) {
		t.Fatalf("reopened bank has %q, want gpu sharing, mlops talks, sauna", texts)
	}
	for _, l := range got {
		switch l.Text {
		case "mlops talks":
			if l.ID != mlopsID || l.Uses != 1 || l.Helped != 1 || l.Terms["mlop"] != 3 || !l.Recovered || l.At.IsZero() {
				t.Errorf("mlops lesson came back as %+v", l)
			}
		case "gpu sharing":
			if l.Hit == nil || !*l.Hit || l.Insight == nil || l.Insight.Strengths[0] != "cited the workshop" || l.Importance != 2 {
				t.Errorf("gpu lesson came back as %+v", l)
			}
		}
	}
	recalled := again.Recall(conf, memory.Cue{Terms: map[string]float64{"mlop": 3}}, 3)
	if len(recalled) != 1 || recalled[0].ID != mlopsID {
		t.Fatalf("recalled %+v, want the mlops lesson", recalled)
	}

	n, err := again.Clear(ctx, conf)
	if err != nil || n != 3 {
		t.Fatalf("clear: %d, %v (want 3)", n, err)
	}
	third, err := memory.Open(ctx, memory.NewDirectus(d.agent), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := third.List(conf); len(got) != 0 {
		t.Fatalf("after clear a new bank has %d lessons of the conference", len(got))
	}
	if ids := conferenceLessons(ctx, t, d.admin, conf); len(ids) != 0 {
		t.Fatalf("after clear %d items remain", len(ids))
	}
}

// TestDirectusBackendUpsertsDeletesAndSkips drives the backend itself with
// the agent's token: Put twice is one item, updated; Delete ignores ids
// that are not stored (Directus refuses those to a non-admin); items whose
// lesson does not parse are skipped on Load.
func TestDirectusBackendUpsertsDeletesAndSkips(t *testing.T) {
	d := needDirectus(t)
	ctx := context.Background()
	conf := "memtest-" + runID()
	cleanupConference(t, d.admin, conf)
	backend := memory.NewDirectus(d.agent)

	a := lesson(conf, "mlops talks", map[string]float64{"mlop": 3}, 1)
	a.ID, a.At = "0b4e7c1a-3f0d-4c59-9a57-"+fmt.Sprintf("%012x", rand.N(uint64(1)<<48)), time.Now().UTC().Truncate(time.Second)
	if err := backend.Put(ctx, []memory.Lesson{a}); err != nil {
		t.Fatal(err)
	}
	a.Strategy, a.Uses = "pivot", 2
	b := lesson(conf, "gpu sharing", map[string]float64{"gpu": 2}, 1)
	b.ID = "7d1f2a9e-8c3b-4e6a-b1d2-" + fmt.Sprintf("%012x", rand.N(uint64(1)<<48))
	if err := backend.Put(ctx, []memory.Lesson{a, b}); err != nil {
		t.Fatal(err)
	}
	var items []struct {
		ID       string        `json:"id"`
		Strategy string        `json:"strategy"`
		Lesson   memory.Lesson `json:"lesson"`
	}
	q := directus.Query{Fields: []string{"id", "strategy", "lesson"}, Filter: map[string]any{"conference": map[string]any{"_eq": conf}}}
	if err := d.agent.ReadAll(ctx, memory.Collection, q, &items); err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("%d items after two puts of %s and one of %s, want 2", len(items), a.ID, b.ID)
	}
	for _, it := range items {
		if it.ID == a.ID && (it.Strategy != "pivot" || it.Lesson.Uses != 2 || !it.Lesson.At.Equal(a.At)) {
			t.Errorf("updated item is %+v", it)
		}
	}
	if err := backend.Put(ctx, []memory.Lesson{{ID: "not-a-uuid", Conference: conf}}); !errors.Is(err, memory.ErrInvalid) {
		t.Errorf("put of a lesson whose id is no UUID: %v, want ErrInvalid", err)
	}

	// Two items a Load must skip: a lesson that is not an object, and none.
	for _, bad := range []map[string]any{
		{"conference": conf, "failure": "empty", "lesson": "not a lesson"},
		{"conference": conf, "failure": "empty", "lesson": nil},
	} {
		if err := d.agent.CreateItem(ctx, memory.Collection, bad, nil); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := backend.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range loaded {
		if l.Conference == conf {
			n++
		}
	}
	if n != 2 || backend.Skipped() < 2 {
		t.Fatalf("load: %d lessons of the conference (want 2), %d skipped (want at least 2)", n, backend.Skipped())
	}

	missing := "3c9d0e1f-2a4b-4c6d-8e0f-" + fmt.Sprintf("%012x", rand.N(uint64(1)<<48))
	if err := backend.Delete(ctx, []string{missing, a.ID, "not-a-uuid", a.ID}); err != nil {
		t.Fatalf("delete with ids that are not stored: %v", err)
	}
	if err := backend.Delete(ctx, []string{missing}); err != nil {
		t.Fatalf("delete of an id that is not stored: %v", err)
	}
	ids := conferenceLessons(ctx, t, d.admin, conf)
	if len(ids) != 3 || slices.Contains(ids, a.ID) || !slices.Contains(ids, b.ID) {
		t.Fatalf("after deleting %s the conference has %v", a.ID, ids)
	}
}

// TestAgentReflectionsPermissions checks least privilege on
// agent_reflections: the agent's user may read, create, update and delete
// its items; an anonymous (public) client may do none of it; and no policy
// but the agent's holds any permission on the collection.
func TestAgentReflectionsPermissions(t *testing.T) {
	d := needDirectus(t)
	ctx := context.Background()
	conf := "memtest-" + runID()
	cleanupConference(t, d.admin, conf)

	var created struct {
		ID string `json:"id"`
	}
	item := map[string]any{"conference": conf, "failure": "weak", "strategy": "rewrite", "recovered": false, "importance": 0.5,
		"lesson": map[string]any{"conference": conf, "text": "vector databases"}}
	if err := d.agent.CreateItem(ctx, memory.Collection, item, &created); err != nil || created.ID == "" {
		t.Fatalf("agent create: %v (id %q)", err, created.ID)
	}
	var read struct {
		Strategy string `json:"strategy"`
	}
	if err := d.agent.ReadItem(ctx, memory.Collection, created.ID, []string{"strategy"}, &read); err != nil || read.Strategy != "rewrite" {
		t.Fatalf("agent read: %v (%+v)", err, read)
	}
	if err := d.agent.UpdateItem(ctx, memory.Collection, created.ID, map[string]any{"strategy": "pivot", "recovered": true}, &read); err != nil || read.Strategy != "pivot" {
		t.Fatalf("agent update: %v (%+v)", err, read)
	}

	public := d.agent.WithToken("")
	forbidden := func(what string, err error) {
		t.Helper()
		var de *directus.Error
		if !errors.As(err, &de) || de.Status != 403 {
			t.Errorf("public %s: %v, want 403 FORBIDDEN", what, err)
		}
	}
	var anything []map[string]any
	forbidden("read", public.ReadItems(ctx, memory.Collection, directus.Query{}, &anything))
	forbidden("read one", public.ReadItem(ctx, memory.Collection, created.ID, nil, &anything))
	forbidden("create", public.CreateItem(ctx, memory.Collection, map[string]any{"conference": conf}, nil))
	forbidden("update", public.UpdateItem(ctx, memory.Collection, created.ID, map[string]any{"strategy": "x"}, nil))
	forbidden("delete", public.DeleteItems(ctx, memory.Collection, []string{created.ID}))
	forbidden("load", func() error { _, err := memory.NewDirectus(public).Load(ctx); return err }())

	// Nothing grants the collection to anyone but the agent's policy (admins
	// see everything anyway).
	var policies []struct {
		ID string `json:"id"`
	}
	q := url.Values{"filter": {`{"name":{"_eq":"` + provision.AgentName + `"}}`}, "fields": {"id"}}
	if err := d.admin.Do(ctx, "GET", "/policies", q, nil, &policies); err != nil || len(policies) != 1 {
		t.Fatalf("the agent's policy: %v (%d found)", err, len(policies))
	}
	var perms []struct {
		Policy *string `json:"policy"`
		Action string  `json:"action"`
	}
	q = url.Values{"filter": {`{"collection":{"_eq":"` + memory.Collection + `"}}`}, "fields": {"policy,action"}, "limit": {"-1"}}
	if err := d.admin.Do(ctx, "GET", "/permissions", q, nil, &perms); err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, p := range perms {
		if p.Policy == nil || *p.Policy != policies[0].ID {
			t.Errorf("a permission on %s for another policy: %+v", memory.Collection, p)
			continue
		}
		actions = append(actions, p.Action)
	}
	slices.Sort(actions)
	if !slices.Equal(actions, []string{"create", "delete", "read", "update"}) {
		t.Errorf("the agent's actions on %s: %v, want create, delete, read, update", memory.Collection, actions)
	}

	if err := d.agent.DeleteItems(ctx, memory.Collection, []string{created.ID}); err != nil {
		t.Fatalf("agent delete: %v", err)
	}
	if ids := conferenceLessons(ctx, t, d.admin, conf); len(ids) != 0 {
		t.Fatalf("after the agent's delete: %v", ids)
	}
}
