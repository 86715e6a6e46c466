package memory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/memory"
)

// fakeReflections is agent_reflections as a non-admin sees it: items by id,
// a duplicate create is RECORD_NOT_UNIQUE, a delete naming a missing item
// is a 403. It counts the requests by method.
type fakeReflections struct {
	mu    sync.Mutex
	items map[string]json.RawMessage
	calls map[string]int
}

func (f *fakeReflections) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[r.Method]++
	if r.URL.Path != "/items/agent_reflections" {
		http.Error(w, "unexpected path "+r.URL.Path, http.StatusNotFound)
		return
	}
	fail := func(status int, code string) {
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"errors":[{"message":%q,"extensions":{"code":%q}}]}`, code, code)
	}
	var body []json.RawMessage
	if r.Method != http.MethodGet {
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			fail(400, directus.CodeInvalidPayload)
			return
		}
	}
	idOf := func(raw json.RawMessage) string {
		var it struct{ ID string }
		_ = json.Unmarshal(raw, &it)
		return it.ID
	}
	switch r.Method {
	case http.MethodGet:
		var want []string
		if fl := r.URL.Query().Get("filter"); fl != "" {
			var filter struct {
				ID struct {
					In []string `json:"_in"`
				} `json:"id"`
			}
			_ = json.Unmarshal([]byte(fl), &filter)
			want = filter.ID.In
		}
		if r.URL.Query().Get("offset") != "" {
			fmt.Fprint(w, `{"data":[]}`)
			return
		}
		out := []json.RawMessage{}
		for id, it := range f.items {
			if want == nil || strings.Contains(strings.Join(want, ","), id) {
				out = append(out, it)
			}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": out})
	case http.MethodPost:
		for _, it := range body {
			if _, ok := f.items[idOf(it)]; ok {
				fail(400, directus.CodeRecordNotUnique)
				return
			}
		}
		for _, it := range body {
			f.items[idOf(it)] = it
		}
		w.WriteHeader(204)
	case http.MethodPatch:
		for _, it := range body {
			if _, ok := f.items[idOf(it)]; !ok {
				fail(403, directus.CodeForbidden)
				return
			}
		}
		for _, it := range body {
			f.items[idOf(it)] = it
		}
		w.WriteHeader(204)
	case http.MethodDelete:
		var ids []string
		for _, raw := range body {
			var id string
			_ = json.Unmarshal(raw, &id)
			if _, ok := f.items[id]; !ok {
				fail(403, directus.CodeForbidden)
				return
			}
			ids = append(ids, id)
		}
		for _, id := range ids {
			delete(f.items, id)
		}
		w.WriteHeader(204)
	}
}

func (f *fakeReflections) took(t *testing.T, what string, want map[string]int) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for m, n := range want {
		assert.Equal(t, n, f.calls[m], "%s: %s requests (all: %v)", what, m, f.calls)
	}
	for m := range f.calls {
		assert.Contains(t, want, m, "%s: unexpected %s requests (all: %v)", what, m, f.calls)
	}
	f.calls = map[string]int{}
}

func TestDirectusBackendRequestsPerCall(t *testing.T) {
	ctx := context.Background()
	fake := &fakeReflections{items: map[string]json.RawMessage{}, calls: map[string]int{}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	c, err := directus.New(directus.Options{BaseURL: srv.URL, Token: "t", Retries: -1})
	require.NoError(t, err)
	backend := memory.NewDirectus(c)
	id := func(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }
	l := func(n int) memory.Lesson {
		x := lesson("c1", fmt.Sprint("text ", n), map[string]float64{"w": 1}, 1)
		x.ID = id(n)
		return x
	}

	require.NoError(t, backend.Put(ctx, []memory.Lesson{l(1), l(2)}))
	fake.took(t, "put of two new lessons", map[string]int{"GET": 1, "POST": 1})

	changed := l(2)
	changed.Strategy = "pivot"
	require.NoError(t, backend.Put(ctx, []memory.Lesson{l(1), changed, l(3)}))
	fake.took(t, "put of two stored lessons and a new one", map[string]int{"GET": 1, "POST": 1, "PATCH": 1})

	require.NoError(t, backend.Put(ctx, nil))
	fake.took(t, "put of nothing", map[string]int{})

	require.NoError(t, backend.Delete(ctx, []string{id(1), id(9), "x"}))
	fake.took(t, "delete of a stored and a missing lesson", map[string]int{"GET": 1, "DELETE": 1})
	require.NoError(t, backend.Delete(ctx, []string{id(9)}))
	fake.took(t, "delete of a missing lesson", map[string]int{"GET": 1})

	fake.items["00000000-0000-4000-8000-00000000000a"] = json.RawMessage(`{"id":"00000000-0000-4000-8000-00000000000a","lesson":"garbage"}`)
	got, err := backend.Load(ctx)
	require.NoError(t, err)
	require.Len(t, got, 2, "load: lessons")
	require.Equal(t, 1, backend.Skipped(), "load: skipped")
	i := slices.IndexFunc(got, func(g memory.Lesson) bool { return g.ID == id(2) })
	require.GreaterOrEqual(t, i, 0, "load: lesson 2 missing from %+v", got)
	assert.Equal(t, "pivot", got[i].Strategy, "lesson 2 was not updated: %+v", got[i])

	// Put of 250 lessons: three chunks of at most 100.
	var many []memory.Lesson
	for n := 100; n < 350; n++ {
		many = append(many, l(n))
	}
	fake.calls = map[string]int{}
	require.NoError(t, backend.Put(ctx, many))
	fake.took(t, "put of 250 new lessons", map[string]int{"GET": 3, "POST": 3})

	srv.Close()
	err = backend.Put(ctx, []memory.Lesson{l(1)})
	if assert.Error(t, err, "put against a closed server") {
		assert.True(t, strings.HasPrefix(err.Error(), "memory: directus put: "), "put against a closed server: %v", err)
	}
}
