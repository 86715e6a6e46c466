package directus

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	require.NoError(t, c.ReadAll(context.Background(), "messages", q, &got))
	require.Len(t, got, total+1, "items")
	require.Equal(t, "m0000", got[1].ID, "first item")
	require.Equal(t, "m1202", got[total].ID, "last item")
	filter := `{"role":{"_eq":"user"}}`
	want := []string{"id 500  " + filter, "id 500 500 " + filter, "id 500 1000 " + filter}
	assert.Equal(t, want, pages, "pages")
}

func TestReadAllKeepsCallerSortAndStopsOnExactPage(t *testing.T) {
	var requests int
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		requests++
		assert.Equal(t, "-date_created", r.URL.Query().Get("sort"), "sort")
		n := 500
		if r.URL.Query().Get("offset") == "500" {
			n = 0
		}
		writeJSON(w, 200, map[string]any{"data": make([]map[string]any, n)})
	})
	var got []map[string]any
	require.NoError(t, c.ReadAll(context.Background(), "messages", Query{Sort: []string{"-date_created"}}, &got))
	assert.Len(t, got, 500, "items")
	assert.Equal(t, 2, requests, "requests")
	assert.Error(t, c.ReadAll(context.Background(), "messages", Query{}, got), "ReadAll accepted a slice that is not a pointer")
}

func TestCountNumberAndString(t *testing.T) {
	for _, count := range []any{42, "42"} {
		var query string
		c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
			query = r.URL.Query().Get("aggregate[count]") + " " + r.URL.Query().Get("filter")
			writeJSON(w, 200, map[string]any{"data": []any{map[string]any{"count": count}}})
		})
		n, err := c.Count(context.Background(), "messages", map[string]any{"status": map[string]any{"_eq": "pending"}})
		assert.NoError(t, err, "Count with %#v", count)
		assert.Equal(t, 42, n, "Count with %#v", count)
		assert.Equal(t, `* {"status":{"_eq":"pending"}}`, query, "query")
	}
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"data": []any{map[string]any{"count": map[string]any{"id": 1}}}})
	})
	_, err := c.Count(context.Background(), "messages", nil)
	assert.Error(t, err, "Count accepted an object")
}

func TestCreateItemDecodesCreated(t *testing.T) {
	var body string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		body = r.Method + " " + r.URL.Path + " " + string(b)
		writeJSON(w, 200, map[string]any{"data": map[string]any{"id": "new-id", "role": "user"}})
	})
	var created struct{ ID, Role string }
	require.NoError(t, c.CreateItem(context.Background(), "messages", map[string]string{"role": "user"}, &created))
	assert.Equal(t, "new-id", created.ID, "created %+v", created)
	assert.Equal(t, `POST /items/messages {"role":"user"}`, body, "request")
	assert.NoError(t, c.CreateItem(context.Background(), "messages", map[string]string{}, nil), "nil dst")
}

func TestItemPathsAreEscaped(t *testing.T) {
	var path string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.EscapedPath()
		writeJSON(w, 200, map[string]any{"data": map[string]any{}})
	})
	require.NoError(t, c.ReadItem(context.Background(), "messages", "a/b c", nil, &map[string]any{}))
	assert.Equal(t, "/items/messages/a%2Fb%20c", path, "path")
}

func TestBaseURLPathPrefixIsKept(t *testing.T) {
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.Path
		writeJSON(w, 200, map[string]any{"data": []any{}})
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL + "/cms/"})
	require.NoError(t, err)
	require.NoError(t, c.ReadItems(context.Background(), "messages", Query{}, &[]any{}))
	assert.Equal(t, "/cms/items/messages", path, "path")
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
			assert.Equal(t, "POST", r.Method, "request method")
			assert.Equal(t, "/schema/diff", r.URL.Path, "request path")
			if tc.status == 204 {
				w.WriteHeader(204)
				return
			}
			writeJSON(w, 200, map[string]any{"data": map[string]any{"hash": "h", "diff": map[string]any{"collections": []any{}}}})
		})
		diff, changed, err := c.SchemaDiff(context.Background(), []byte(`{"version":2}`), tc.force)
		require.NoError(t, err, "status %d", tc.status)
		require.Equal(t, tc.wantChanged, changed, "status %d: changed", tc.status)
		assert.Equal(t, tc.wantQuery, query, "status %d: sent query", tc.status)
		assert.Equal(t, `{"version":2}`, body, "status %d: sent body", tc.status)
		if changed {
			assert.Equal(t, `{"diff":{"collections":[]},"hash":"h"}`, string(diff), "diff")
		} else {
			assert.Nil(t, diff, "diff")
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
	require.NoError(t, c.SchemaApply(context.Background(), json.RawMessage(`{"hash":"h"}`), true))
	snap, err := c.SchemaSnapshot(context.Background(), []string{"messages", "conversations"})
	require.NoError(t, err, "snapshot")
	require.Equal(t, `{"version":2}`, string(snap), "snapshot")
	want := []string{
		`POST /schema/apply?force=true {"hash":"h"}`,
		`GET /schema/snapshot?includeCollections=messages&includeCollections=conversations `,
	}
	assert.Equal(t, want, got, "requests")
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
	require.NoError(t, err, "collections")
	require.Len(t, cs, 2, "collections = %+v", cs)
	require.Nil(t, cs[0].Meta, "collections = %+v", cs)
	require.NotNil(t, cs[0].Schema, "collections = %+v", cs)
	require.Nil(t, cs[1].Schema, "collections = %+v", cs)
	fs, err := c.Fields(context.Background(), "messages")
	require.NoError(t, err, "fields")
	require.Len(t, fs, 2, "fields = %+v", fs)
	want := FieldSchema{IsUnique: true, IsNullable: true, ForeignKeyTable: "messages"}
	if assert.NotNil(t, fs[0].Schema, "fields = %+v / %+v", fs[0], fs[1]) {
		assert.Equal(t, want, *fs[0].Schema, "fields = %+v / %+v", fs[0], fs[1])
	}
	assert.Nil(t, fs[0].Meta, "fields = %+v / %+v", fs[0], fs[1])
	assert.Nil(t, fs[1].Schema, "fields = %+v / %+v", fs[0], fs[1])
	assert.NotNil(t, fs[1].Meta, "fields = %+v / %+v", fs[0], fs[1])
}
