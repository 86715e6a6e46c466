package provision

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Attendees create and read, never update or delete (the guard Flow covers
// creates only), and get nothing of the agent's own collections.
func TestAttendeeGrantsCreateAndReadOnly(t *testing.T) {
	for _, g := range attendeeGrants {
		assert.Contains(t, []string{"create", "read"}, g.action, "attendees may %s %s", g.action, g.collection)
		assert.NotContains(t, []string{"agent_reflections", "reply_claims"}, g.collection, "attendees get %s", g.collection)
	}
	assert.Equal(t, "create, read: conversations, messages; read: conferences, sessions, exhibitors, speakers", AttendeeGrants())
}

func TestDiffGrants(t *testing.T) {
	want := []grant{{"messages", "create"}, {"messages", "read"}}
	for _, c := range []struct {
		name    string
		have    []permission
		missing []grant
		extra   []int
	}{
		{"exactly", []permission{{ID: 1, Collection: "messages", Action: "read"}, {ID: 2, Collection: "messages", Action: "create"}}, nil, nil},
		{"none", nil, want, nil},
		{"one too many", []permission{{ID: 1, Collection: "messages", Action: "read"}, {ID: 2, Collection: "messages", Action: "create"},
			{ID: 3, Collection: "messages", Action: "update"}}, nil, []int{3}},
		{"twice", []permission{{ID: 1, Collection: "messages", Action: "read"}, {ID: 2, Collection: "messages", Action: "read"}},
			[]grant{{"messages", "create"}}, []int{2}},
	} {
		missing, extra := diffGrants(c.have, want)
		var ids []int
		for _, p := range extra {
			ids = append(ids, p.ID)
		}
		assert.Equal(t, c.missing, missing, c.name)
		assert.Equal(t, c.extra, ids, c.name)
	}
}

func TestRoleFixLeavesTheRoleOnlyItsPolicy(t *testing.T) {
	type access = struct {
		ID     string `json:"id"`
		Policy string `json:"policy"`
	}
	parent := "boss"
	for _, c := range []struct {
		name string
		role roleAccess
		want map[string]any
	}{
		{"right", roleAccess{Policies: []access{{"a1", "p"}}}, nil},
		{"empty", roleAccess{}, map[string]any{"policies": map[string]any{"create": []any{map[string]any{"policy": "p"}}}}},
		{"another policy", roleAccess{Policies: []access{{"a1", "other"}, {"a2", "p"}}}, map[string]any{"policies": map[string]any{"delete": []string{"a1"}}}},
		{"twice", roleAccess{Policies: []access{{"a1", "p"}, {"a2", "p"}}}, map[string]any{"policies": map[string]any{"delete": []string{"a2"}}}},
		{"a parent", roleAccess{Parent: &parent, Policies: []access{{"a1", "p"}}}, map[string]any{"parent": nil}},
	} {
		assert.Equal(t, c.want, c.role.fix("p"), c.name)
	}
}
