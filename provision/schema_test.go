package provision

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

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
	if err := json.Unmarshal(migrations.DirectusSchema, &snap); err != nil {
		t.Fatal(err)
	}
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
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCheckReportsTheReflectionMemory(t *testing.T) {
	ctx := context.Background()
	cols, err := Collections(migrations.DirectusSchema)
	if err != nil || !slices.Contains(cols, "agent_reflections") {
		t.Fatalf("the snapshot's collections %v (%v) lack agent_reflections", cols, err)
	}
	problems, err := Check(ctx, fakeSchema(t, "", [2]string{}), migrations.DirectusSchema)
	if err != nil || len(problems) != 0 {
		t.Fatalf("an instance with the whole snapshot: %v, %v", problems, err)
	}
	problems, err = Check(ctx, fakeSchema(t, "agent_reflections", [2]string{}), migrations.DirectusSchema)
	if err != nil || len(problems) != 1 || problems[0].String() != "agent_reflections: collection missing" {
		t.Fatalf("without agent_reflections: %v, %v", problems, err)
	}
	problems, err = Check(ctx, fakeSchema(t, "", [2]string{"agent_reflections", "lesson"}), migrations.DirectusSchema)
	if err != nil || len(problems) != 1 || problems[0].String() != "agent_reflections.lesson: field missing (want json)" {
		t.Fatalf("without agent_reflections.lesson: %v, %v", problems, err)
	}
}

func TestGrantsGiveTheAgentItsReflectionMemoryOnly(t *testing.T) {
	var got []string
	for _, g := range grants {
		if g.collection == "agent_reflections" {
			got = append(got, g.action)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"create", "delete", "read", "update"}) {
		t.Fatalf("agent_reflections grants %v, want create, delete, read, update", got)
	}
	for _, g := range grants {
		if g.action == "delete" && g.collection != "agent_reflections" {
			t.Errorf("the agent may delete %s", g.collection)
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
	if err := json.Unmarshal(migrations.DirectusSchema, &snap); err != nil {
		t.Fatal(err)
	}
	for _, col := range []string{"conversations", "messages"} {
		i := slices.IndexFunc(snap.Fields, func(f field) bool { return f.Collection == col && f.Field == "user_created" })
		if i < 0 || !slices.Contains(snap.Fields[i].Meta.Special, "user-created") || snap.Fields[i].Schema.ForeignKeyTable != "directus_users" {
			t.Fatalf("%s.user_created is not Directus's user-created relation to directus_users", col)
		}
	}
	problems, err := Check(context.Background(), fakeSchema(t, "", [2]string{"messages", "user_created"}), migrations.DirectusSchema)
	if err != nil || len(problems) != 1 || problems[0].String() != "messages.user_created: field missing (want string)" {
		t.Fatalf("without messages.user_created: %v, %v", problems, err)
	}
}
