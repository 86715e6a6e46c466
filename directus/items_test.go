package directus

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestReadAllPages(t *testing.T) {
	const total = 1203
	var pages []string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		pages = append(pages, q.Get("sort")+" "+q.Get("limit")+" "+q.Get("offset")+" "+q.Get("filter"))
		limit, _ := strconv.Atoi(q.Get("limit"))
		offset, _ := strconv.Atoi(q.Get("offset"))
		items := []map[string]any{}
		for i := offset; i < min(offset+limit, total); i++ {
			items = append(items, map[string]any{"id": fmt.Sprintf("m%04d", i)})
		}
		writeJSON(w, 200, map[string]any{"data": items})
	})
	type item struct{ ID string }
	got := []item{{ID: "already there"}}
	q := Query{Fields: []string{"id"}, Filter: map[string]any{"role": map[string]any{"_eq": "user"}}, Limit: 3}
	if err := c.ReadAll(context.Background(), "messages", q, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != total+1 || got[1].ID != "m0000" || got[total].ID != "m1202" {
		t.Fatalf("got %d items, first %v, last %v", len(got), got[1], got[len(got)-1])
	}
	filter := `{"role":{"_eq":"user"}}`
	want := []string{"id 500  " + filter, "id 500 500 " + filter, "id 500 1000 " + filter}
	if strings.Join(pages, "|") != strings.Join(want, "|") {
		t.Errorf("pages = %q, want %q", pages, want)
	}
}

func TestReadAllKeepsCallerSortAndStopsOnExactPage(t *testing.T) {
	var requests int
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		requests++
		if s := r.URL.Query().Get("sort"); s != "-date_created" {
			t.Errorf("sort = %q", s)
		}
		n := 500
		if r.URL.Query().Get("offset") == "500" {
			n = 0
		}
		writeJSON(w, 200, map[string]any{"data": make([]map[string]any, n)})
	})
	var got []map[string]any
	if err := c.ReadAll(context.Background(), "messages", Query{Sort: []string{"-date_created"}}, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 500 || requests != 2 {
		t.Errorf("got %d items in %d requests", len(got), requests)
	}
	if err := c.ReadAll(context.Background(), "messages", Query{}, got); err == nil {
		t.Error("ReadAll accepted a slice that is not a pointer")
	}
}

func TestCountNumberAndString(t *testing.T) {
	for _, count := range []any{42, "42"} {
		var query string
		c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
			query = r.URL.Query().Get("aggregate[count]") + " " + r.URL.Query().Get("filter")
			writeJSON(w, 200, map[string]any{"data": []any{map[string]any{"count": count}}})
		})
		n, err := c.Count(context.Background(), "messages", map[string]any{"status": map[string]any{"_eq": "pending"}})
		if err != nil || n != 42 {
			t.Errorf("Count with %#v = %d, %v", count, n, err)
		}
		if want := `* {"status":{"_eq":"pending"}}`; query != want {
			t.Errorf("query = %q, want %q", query, want)
		}
	}
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"data": []any{map[string]any{"count": map[string]any{"id": 1}}}})
	})
	if _, err := c.Count(context.Background(), "messages", nil); err == nil {
		t.Error("Count accepted an object")
	}
}

func TestCreateItemDecodesCreated(t *testing.T) {
	var body string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		body = r.Method + " " + r.URL.Path + " " + string(b)
		writeJSON(w, 200, map[string]any{"data": map[string]any{"id": "new-id", "role": "user"}})
	})
	var created struct{ ID, Role string }
	if err := c.CreateItem(context.Background(), "messages", map[string]string{"role": "user"}, &created); err != nil {
		t.Fatal(err)
	}
	if created.ID != "new-id" || body != `POST /items/messages {"role":"user"}` {
		t.Errorf("created %+v with %s", created, body)
	}
	if err := c.CreateItem(context.Background(), "messages", map[string]string{}, nil); err != nil {
		t.Errorf("nil dst: %v", err)
	}
}

func TestItemPathsAreEscaped(t *testing.T) {
	var path string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.EscapedPath()
		writeJSON(w, 200, map[string]any{"data": map[string]any{}})
	})
	if err := c.ReadItem(context.Background(), "messages", "a/b c", nil, &map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if path != "/items/messages/a%2Fb%20c" {
		t.Errorf("path = %q", path)
	}
}

func TestBaseURLPathPrefixIsKept(t *testing.T) {
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.Path
		writeJSON(w, 200, map[string]any{"data": []any{}})
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL + "/cms/"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ReadItems(context.Background(), "messages", Query{}, &[]any{}); err != nil {
		t.Fatal(err)
	}
	if path != "/cms/items/messages" {
		t.Errorf("path = %q, want /cms/items/messages", path)
	}
}

func TestSchemaDiff(t *testing.T) {
	for _, tc := range []struct {
		status      int
		force       bool
		wantQuery   string
		wantChanged bool
	}{
		{204, false, "mode=merge", false},
		{200, true, "force=true&mode=merge", true},
	} {
		var query, body string
		c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			query, body = r.URL.RawQuery, string(b)
			if r.Method != "POST" || r.URL.Path != "/schema/diff" {
				t.Errorf("request = %s %s", r.Method, r.URL.Path)
			}
			if tc.status == 204 {
				w.WriteHeader(204)
				return
			}
			writeJSON(w, 200, map[string]any{"data": map[string]any{"hash": "h", "diff": map[string]any{"collections": []any{}}}})
		})
		diff, changed, err := c.SchemaDiff(context.Background(), []byte(`{"version":2}`), tc.force)
		if err != nil || changed != tc.wantChanged {
			t.Fatalf("status %d: changed = %v, err = %v", tc.status, changed, err)
		}
		if query != tc.wantQuery || body != `{"version":2}` {
			t.Errorf("status %d: sent %q %q", tc.status, query, body)
		}
		if want := `{"diff":{"collections":[]},"hash":"h"}`; changed && string(diff) != want {
			t.Errorf("diff = %s, want %s", diff, want)
		}
		if !changed && diff != nil {
			t.Errorf("diff = %s, want nil", diff)
		}
	}
}

func TestSchemaApplyAndSnapshot(t *testing.T) {
	var got []string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery+" "+string(b))
		if r.URL.Path == "/schema/apply" {
			w.WriteHeader(204)
			return
		}
		writeJSON(w, 200, map[string]any{"data": map[string]any{"version": 2}})
	})
	if err := c.SchemaApply(context.Background(), json.RawMessage(`{"hash":"h"}`), true); err != nil {
		t.Fatal(err)
	}
	snap, err := c.SchemaSnapshot(context.Background(), []string{"messages", "conversations"})
	if err != nil || string(snap) != `{"version":2}` {
		t.Fatalf("snapshot = %s, %v", snap, err)
	}
	want := []string{
		`POST /schema/apply?force=true {"hash":"h"}`,
		`GET /schema/snapshot?includeCollections=messages&includeCollections=conversations `,
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests = %q, want %q", got, want)
	}
}

func TestCollectionsAndFields(t *testing.T) {
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/collections":
			writeJSON(w, 200, map[string]any{"data": []any{
				map[string]any{"collection": "messages", "meta": nil, "schema": map[string]any{"name": "messages"}},
				map[string]any{"collection": "folder", "meta": map[string]any{}, "schema": nil},
			}})
		case "/fields/messages":
			writeJSON(w, 200, map[string]any{"data": []any{
				map[string]any{"field": "reply_to", "type": "uuid", "meta": nil, "schema": map[string]any{
					"is_unique": true, "is_nullable": true, "foreign_key_table": "messages"}},
				map[string]any{"field": "alias", "type": "alias", "meta": map[string]any{"special": []string{"o2m"}}, "schema": nil},
			}})
		default:
			http.NotFound(w, r)
		}
	})
	cs, err := c.Collections(context.Background())
	if err != nil || len(cs) != 2 || cs[0].Meta != nil || cs[0].Schema == nil || cs[1].Schema != nil {
		t.Fatalf("collections = %+v, %v", cs, err)
	}
	fs, err := c.Fields(context.Background(), "messages")
	if err != nil || len(fs) != 2 {
		t.Fatalf("fields = %+v, %v", fs, err)
	}
	want := FieldSchema{IsUnique: true, IsNullable: true, ForeignKeyTable: "messages"}
	if fs[0].Schema == nil || *fs[0].Schema != want || fs[0].Meta != nil || fs[1].Schema != nil || fs[1].Meta == nil {
		t.Errorf("fields = %+v / %+v", fs[0], fs[1])
	}
}
