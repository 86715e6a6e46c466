package provision

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/migrations"
)

// fakeSchema answers GET /collections and GET /fields/{collection} with the
// shipped snapshot's collections and fields, less those dropped.
func fakeSchema(t *testing.T, dropCollection string, dropField [2]string) *directus.Client {
	t.Helper()
	var snap struct {
		Collections []struct {
			Collection string `json:"collection"`
		} `json:"collections"`
		Fields []struct {
			Collection string          `json:"collection"`
			Field      string          `json:"field"`
			Type       string          `json:"type"`
			Schema     json.RawMessage `json:"schema"`
		} `json:"fields"`
	}
	require.NoError(t, json.Unmarshal(migrations.DirectusSchema, &snap))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var data []map[string]any
		switch {
		case r.URL.Path == "/collections":
			for _, c := range snap.Collections {
				if c.Collection != dropCollection {
					data = append(data, map[string]any{"collection": c.Collection, "schema": map[string]any{"name": c.Collection}})
				}
			}
		case strings.HasPrefix(r.URL.Path, "/fields/"):
			col := strings.TrimPrefix(r.URL.Path, "/fields/")
			for _, f := range snap.Fields {
				if f.Collection == col && [2]string{f.Collection, f.Field} != dropField {
					data = append(data, map[string]any{"field": f.Field, "type": f.Type, "schema": f.Schema})
				}
			}
		default:
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(srv.Close)
	c, err := directus.New(directus.Options{BaseURL: srv.URL, Token: "t"})
	require.NoError(t, err)
	return c
}

func TestCheckReportsTheReflectionMemory(t *testing.T) {
	ctx := context.Background()
	cols, err := Collections(migrations.DirectusSchema)
	require.NoError(t, err, "the snapshot's collections")
	require.Contains(t, cols, "agent_reflections", "the snapshot's collections lack agent_reflections")
	problems, err := Check(ctx, fakeSchema(t, "", [2]string{}), migrations.DirectusSchema)
	require.NoError(t, err, "an instance with the whole snapshot")
	require.Empty(t, problems, "an instance with the whole snapshot")
	problems, err = Check(ctx, fakeSchema(t, "agent_reflections", [2]string{}), migrations.DirectusSchema)
	require.NoError(t, err, "without agent_reflections")
	require.Len(t, problems, 1, "without agent_reflections")
	require.Equal(t, "agent_reflections: collection missing", problems[0].String(), "without agent_reflections")
	problems, err = Check(ctx, fakeSchema(t, "", [2]string{"agent_reflections", "lesson"}), migrations.DirectusSchema)
	require.NoError(t, err, "without agent_reflections.lesson")
	require.Len(t, problems, 1, "without agent_reflections.lesson")
	assert.Equal(t, "agent_reflections.lesson: field missing (want json)", problems[0].String(), "without agent_reflections.lesson")
}

// The agent deletes only its own bookkeeping: reflection memory and the
// claims of finished replies, never conference data or messages.
func TestGrantsGiveTheAgentItsReflectionMemoryOnly(t *testing.T) {
	var got []string
	for _, g := range grants {
		if g.collection == "agent_reflections" {
			got = append(got, g.action)
		}
	}
	slices.Sort(got)
	require.Equal(t, []string{"create", "delete", "read", "update"}, got, "agent_reflections grants")
	for _, g := range grants {
		if g.action == "delete" {
			assert.Contains(t, []string{"agent_reflections", "reply_claims"}, g.collection, "the agent may delete %s", g.collection)
		}
	}
}

// conversations and messages record who created them (Directus's own
// user-created field): the agent answers a message only when its author
// owns the conversation.
func TestSnapshotRecordsAuthorsAndCheckReportsThem(t *testing.T) {
	type field struct {
		Collection string `json:"collection"`
		Field      string `json:"field"`
		Meta       struct {
			Special []string `json:"special"`
		} `json:"meta"`
		Schema struct {
			ForeignKeyTable string `json:"foreign_key_table"`
		} `json:"schema"`
	}
	var snap struct {
		Fields []field `json:"fields"`
	}
	require.NoError(t, json.Unmarshal(migrations.DirectusSchema, &snap))
	for _, col := range []string{"conversations", "messages"} {
		i := slices.IndexFunc(snap.Fields, func(f field) bool { return f.Collection == col && f.Field == "user_created" })
		require.GreaterOrEqual(t, i, 0, "%s.user_created is missing", col)
		require.Contains(t, snap.Fields[i].Meta.Special, "user-created", "%s.user_created is not Directus's user-created relation to directus_users", col)
		require.Equal(t, "directus_users", snap.Fields[i].Schema.ForeignKeyTable, "%s.user_created is not Directus's user-created relation to directus_users", col)
	}
	problems, err := Check(context.Background(), fakeSchema(t, "", [2]string{"messages", "user_created"}), migrations.DirectusSchema)
	require.NoError(t, err, "without messages.user_created")
	require.Len(t, problems, 1, "without messages.user_created")
	assert.Equal(t, "messages.user_created: field missing (want string)", problems[0].String(), "without messages.user_created")
}
