package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"slices"
	"sync"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	require.NoError(t, prepErr)
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
	require.NoError(t, c.ReadAll(ctx, memory.Collection, q, &items))
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
			assert.NoError(t, c.DeleteItems(ctx, memory.Collection, ids), "cleanup")
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
	require.NoError(t, err)
	mlops := lesson(conf, "mlops talks", map[string]float64{"mlop": 3, "talk": 0.5}, 1)
	gpu := lesson(conf, "gpu sharing", map[string]float64{"gpu": 2, "share": 1}, 2)
	hit := true
	gpu.Hit = &hit
	gpu.Insight = &memory.Insight{Strengths: []string{"cited the workshop"}, Confidence: 0.7}
	require.NoError(t, bank.Remember(ctx, []memory.Lesson{mlops, gpu}))
	stored := bank.List(conf)
	require.Len(t, stored, 2, "bank lists lessons")
	// Used rewrites stored lessons: an update, not a second item.
	var mlopsID string
	for _, l := range stored {
		if l.Text == "mlops talks" {
			mlopsID = l.ID
		}
	}
	require.NoError(t, bank.Used(ctx, []string{mlopsID}, true))
	// Beyond the cap of 3 the least valuable lesson is evicted (deleted).
	weak := lesson(conf, "sauna", map[string]float64{"sauna": 1}, 0.1)
	weaker := lesson(conf, "yoga", map[string]float64{"yoga": 1}, 0.05)
	require.NoError(t, bank.Remember(ctx, []memory.Lesson{weak, weaker}))
	require.Len(t, conferenceLessons(ctx, t, d.admin, conf), 3, "items in %s for the conference, want 3 (cap)", memory.Collection)

	backend := memory.NewDirectus(d.agent)
	again, err := memory.Open(ctx, backend, memory.Options{PerConference: 3})
	require.NoError(t, err)
	got := again.List(conf)
	texts := make([]string, len(got))
	for i, l := range got {
		texts[i] = l.Text
	}
	slices.Sort(texts)
	require.Equal(t, []string{"gpu sharing", "mlops talks", "sauna"}, texts, "reopened bank")
	for _, l := range got {
		switch l.Text {
		case "mlops talks":
			assert.Equal(t, mlopsID, l.ID, "mlops lesson came back as %+v", l)
			assert.Equal(t, 1, l.Uses, "mlops lesson came back as %+v", l)
			assert.Equal(t, 1, l.Helped, "mlops lesson came back as %+v", l)
			assert.Equal(t, 3.0, l.Terms["mlop"], "mlops lesson came back as %+v", l)
			assert.True(t, l.Recovered, "mlops lesson came back as %+v", l)
			assert.False(t, l.At.IsZero(), "mlops lesson came back as %+v", l)
		case "gpu sharing":
			if assert.NotNil(t, l.Hit, "gpu lesson came back as %+v", l) {
				assert.True(t, *l.Hit, "gpu lesson came back as %+v", l)
			}
			if assert.NotNil(t, l.Insight, "gpu lesson came back as %+v", l) && assert.NotEmpty(t, l.Insight.Strengths, "gpu lesson came back as %+v", l) {
				assert.Equal(t, "cited the workshop", l.Insight.Strengths[0], "gpu lesson came back as %+v", l)
			}
			assert.Equal(t, 2.0, l.Importance, "gpu lesson came back as %+v", l)
		}
	}
	recalled := again.Recall(conf, memory.Cue{Terms: map[string]float64{"mlop": 3}}, 3)
	require.Len(t, recalled, 1, "recalled %+v, want the mlops lesson", recalled)
	require.Equal(t, mlopsID, recalled[0].ID, "recalled %+v, want the mlops lesson", recalled)

	n, err := again.Clear(ctx, conf)
	require.NoError(t, err, "clear")
	require.Equal(t, 3, n, "clear")
	third, err := memory.Open(ctx, memory.NewDirectus(d.agent), memory.Options{})
	require.NoError(t, err)
	require.Empty(t, third.List(conf), "after clear a new bank has lessons of the conference")
	assert.Empty(t, conferenceLessons(ctx, t, d.admin, conf), "after clear items remain")
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
	require.NoError(t, backend.Put(ctx, []memory.Lesson{a}))
	a.Strategy, a.Uses = "pivot", 2
	b := lesson(conf, "gpu sharing", map[string]float64{"gpu": 2}, 1)
	b.ID = "7d1f2a9e-8c3b-4e6a-b1d2-" + fmt.Sprintf("%012x", rand.N(uint64(1)<<48))
	require.NoError(t, backend.Put(ctx, []memory.Lesson{a, b}))
	type stored struct {
		ID       string        `json:"id"`
		Strategy string        `json:"strategy"`
		Lesson   memory.Lesson `json:"lesson"`
	}
	var items []stored
	q := directus.Query{Fields: []string{"id", "strategy", "lesson"}, Filter: map[string]any{"conference": map[string]any{"_eq": conf}}}
	require.NoError(t, d.agent.ReadAll(ctx, memory.Collection, q, &items))
	require.Len(t, items, 2, "items after two puts of %s and one of %s", a.ID, b.ID)
	i := slices.IndexFunc(items, func(it stored) bool { return it.ID == a.ID })
	require.GreaterOrEqual(t, i, 0, "the updated item %s is missing: %+v", a.ID, items)
	it := items[i]
	assert.Equal(t, "pivot", it.Strategy, "updated item is %+v", it)
	assert.Equal(t, 2, it.Lesson.Uses, "updated item is %+v", it)
	assert.True(t, it.Lesson.At.Equal(a.At), "updated item is %+v", it)
	assert.ErrorIs(t, backend.Put(ctx, []memory.Lesson{{ID: "not-a-uuid", Conference: conf}}), memory.ErrInvalid, "put of a lesson whose id is no UUID")

	// Two items a Load must skip: a lesson that is not an object, and none.
	for _, bad := range []map[string]any{
		{"conference": conf, "failure": "empty", "lesson": []string{"not", "a lesson"}},
		{"conference": conf, "failure": "empty", "lesson": nil},
	} {
		require.NoError(t, d.agent.CreateItem(ctx, memory.Collection, bad, nil))
	}
	loaded, err := backend.Load(ctx)
	require.NoError(t, err)
	n := 0
	for _, l := range loaded {
		if l.Conference == conf {
			n++
		}
	}
	require.Equal(t, 2, n, "load: lessons of the conference")
	require.GreaterOrEqual(t, backend.Skipped(), 2, "load: skipped")

	missing := "3c9d0e1f-2a4b-4c6d-8e0f-" + fmt.Sprintf("%012x", rand.N(uint64(1)<<48))
	require.NoError(t, backend.Delete(ctx, []string{missing, a.ID, "not-a-uuid", a.ID}), "delete with ids that are not stored")
	require.NoError(t, backend.Delete(ctx, []string{missing}), "delete of an id that is not stored")
	ids := conferenceLessons(ctx, t, d.admin, conf)
	assert.Len(t, ids, 3, "after deleting %s the conference has %v", a.ID, ids)
	assert.NotContains(t, ids, a.ID, "after deleting %s the conference has %v", a.ID, ids)
	assert.Contains(t, ids, b.ID, "after deleting %s the conference has %v", a.ID, ids)
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
	require.NoError(t, d.agent.CreateItem(ctx, memory.Collection, item, &created), "agent create")
	require.NotEmpty(t, created.ID, "agent create: id")
	var read struct {
		Strategy string `json:"strategy"`
	}
	require.NoError(t, d.agent.ReadItem(ctx, memory.Collection, created.ID, []string{"strategy"}, &read), "agent read")
	require.Equal(t, "rewrite", read.Strategy, "agent read: %+v", read)
	require.NoError(t, d.agent.UpdateItem(ctx, memory.Collection, created.ID, map[string]any{"strategy": "pivot", "recovered": true}, &read), "agent update")
	require.Equal(t, "pivot", read.Strategy, "agent update: %+v", read)

	public := d.agent.WithToken("")
	forbidden := func(what string, err error) {
		t.Helper()
		var de *directus.Error
		if assert.ErrorAs(t, err, &de, "public %s: want 403 FORBIDDEN", what) {
			assert.Equal(t, 403, de.Status, "public %s: %v, want 403 FORBIDDEN", what, err)
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
	require.NoError(t, d.admin.Do(ctx, "GET", "/policies", q, nil, &policies), "the agent's policy")
	require.Len(t, policies, 1, "the agent's policy")
	var perms []struct {
		Policy *string `json:"policy"`
		Action string  `json:"action"`
	}
	q = url.Values{"filter": {`{"collection":{"_eq":"` + memory.Collection + `"}}`}, "fields": {"policy,action"}, "limit": {"-1"}}
	require.NoError(t, d.admin.Do(ctx, "GET", "/permissions", q, nil, &perms))
	var actions []string
	for _, p := range perms {
		if !assert.NotNil(t, p.Policy, "a permission on %s for another policy: %+v", memory.Collection, p) ||
			!assert.Equal(t, policies[0].ID, *p.Policy, "a permission on %s for another policy: %+v", memory.Collection, p) {
			continue
		}
		actions = append(actions, p.Action)
	}
	slices.Sort(actions)
	assert.Equal(t, []string{"create", "delete", "read", "update"}, actions, "the agent's actions on %s", memory.Collection)

	require.NoError(t, d.agent.DeleteItems(ctx, memory.Collection, []string{created.ID}), "agent delete")
	assert.Empty(t, conferenceLessons(ctx, t, d.admin, conf), "after the agent's delete")
}
