package provision

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"

	"github.com/erleah/erleah-agent/directus"
)

// AgentName names the agent's role and policy.
const AgentName = "erleah-agent"

// grant is one action on one collection, for every field: Directus 12
// without a licence refuses custom permission rules (item filters,
// validation, field lists), so least privilege is by collection and action.
type grant struct{ collection, action string }

// grants are everything the agent may do: read the conference data and
// the conversations, create and update messages, and keep its reflection
// memory (agent_reflections: read, create, update, delete), and take leases
// on replies (reply_claims: read, create, update; chat.DirectusStore.Lease;
// delete: chat.DirectusStore.PruneClaims).
// No other role or policy provisioned here is granted anything on
// agent_reflections or reply_claims: they are readable by the agent's user
// (and admins) only.
var grants = []grant{
	{"conferences", "read"}, {"sessions", "read"}, {"exhibitors", "read"}, {"speakers", "read"},
	{"conversations", "read"}, {"messages", "read"}, {"messages", "create"}, {"messages", "update"},
	{"agent_reflections", "read"}, {"agent_reflections", "create"}, {"agent_reflections", "update"}, {"agent_reflections", "delete"},
	{"reply_claims", "read"}, {"reply_claims", "create"}, {"reply_claims", "update"}, {"reply_claims", "delete"},
}

// AgentResult says what AgentUser did.
type AgentResult struct {
	Changes int
	Token   string // set only when the user was created or its token rotated
	UserID  string
	RoleID  string // the agent's role (the guard Flow lets it through)
}

// AgentUser creates (or repairs) the agent's policy with exactly the grants
// above, a role holding it and nothing else (the guard Flow trusts that
// role: another policy on it would widen what passes), and a user with
// that role. A new user gets a
// random static token, returned once; an existing one keeps its token unless
// rotate is set.
func AgentUser(ctx context.Context, c *directus.Client, email string, rotate bool) (AgentResult, error) {
	role, n, err := ensureRole(ctx, c, roleSpec{name: AgentName, icon: "smart_toy", grants: grants,
		policy: "What the erleah-agent service may do.", role: "The erleah-agent service."})
	if err != nil {
		return AgentResult{}, err
	}
	return ensureUser(ctx, c, email, role, rotate, AgentResult{Changes: n, RoleID: role})
}

// roleSpec is a policy with exactly its grants and neither admin nor app
// access, and a role of the same name holding that policy and nothing
// else (no other policy, no parent to inherit from).
type roleSpec struct {
	name, icon   string
	policy, role string // their descriptions
	grants       []grant
}

// ensureRole creates or repairs spec's policy, permissions and role; it
// returns the role's id and how many items it created or changed.
func ensureRole(ctx context.Context, c *directus.Client, spec roleSpec) (string, int, error) {
	policy, changes, err := ensurePolicy(ctx, c, map[string]any{"name": spec.name, "icon": spec.icon, "description": spec.policy})
	if err != nil {
		return "", 0, err
	}
	n, err := ensurePermissions(ctx, c, policy, spec.grants)
	if err != nil {
		return "", 0, err
	}
	changes += n
	role, n, err := ensureNamed(ctx, c, "/roles", map[string]any{"name": spec.name, "icon": spec.icon, "description": spec.role})
	if err != nil {
		return "", 0, err
	}
	changes += n
	n, err = ensureOnlyPolicy(ctx, c, spec.name, role, policy)
	return role, changes + n, err
}

// ensureNamed finds the item of a system collection with the given name, or
// creates it; it returns its id and whether it was created.
func ensureNamed(ctx context.Context, c *directus.Client, path string, item map[string]any) (string, int, error) {
	var found []struct {
		ID string `json:"id"`
	}
	q := whereEq("name", fmt.Sprint(item["name"]), "id")
	if err := c.Do(ctx, "GET", path, q, nil, &found); err != nil {
		return "", 0, fmt.Errorf("provision: read %s: %w", path, err)
	}
	if len(found) > 0 {
		return found[0].ID, 0, nil
	}
	return create(ctx, c, path, item)
}

// create creates an item of a system collection and returns its id (and
// one change).
func create(ctx context.Context, c *directus.Client, path string, item map[string]any) (string, int, error) {
	var created struct {
		ID string `json:"id"`
	}
	if err := c.Do(ctx, "POST", path, nil, item, &created); err != nil {
		return "", 0, fmt.Errorf("provision: create %s: %w", path, err)
	}
	return created.ID, 1, nil
}

type permission struct {
	ID         int      `json:"id,omitempty"`
	Policy     string   `json:"policy"`
	Collection string   `json:"collection"`
	Action     string   `json:"action"`
	Fields     []string `json:"fields"`
}

// ensurePolicy finds the policy named item["name"], or creates it from
// item, and makes sure it has neither admin nor app access. It returns its
// id and how many items it created or changed.
func ensurePolicy(ctx context.Context, c *directus.Client, item map[string]any) (string, int, error) {
	item["admin_access"], item["app_access"] = false, false
	p, found, err := readPolicy(ctx, c, fmt.Sprint(item["name"]))
	if err != nil {
		return "", 0, err
	}
	if !found {
		return create(ctx, c, "/policies", item)
	}
	if !p.AdminAccess && !p.AppAccess {
		return p.ID, 0, nil
	}
	if err := c.Do(ctx, "PATCH", "/policies/"+p.ID, nil, map[string]any{"admin_access": false, "app_access": false}, nil); err != nil {
		return "", 0, fmt.Errorf("provision: take admin and app access from the policy %s: %w", item["name"], err)
	}
	return p.ID, 1, nil
}

// policyAccess is what a policy gives beyond its permissions.
type policyAccess struct {
	ID          string `json:"id"`
	AdminAccess bool   `json:"admin_access"`
	AppAccess   bool   `json:"app_access"`
}

// readPolicy reads the policy with the given name; found is false when
// there is none.
func readPolicy(ctx context.Context, c *directus.Client, name string) (p policyAccess, found bool, err error) {
	var ps []policyAccess
	if err := c.Do(ctx, "GET", "/policies", whereEq("name", name, "id,admin_access,app_access"), nil, &ps); err != nil {
		return p, false, fmt.Errorf("provision: read policies: %w", err)
	}
	if len(ps) == 0 {
		return p, false, nil
	}
	return ps[0], true, nil
}

// readPermissions reads every permission of the policy.
func readPermissions(ctx context.Context, c *directus.Client, policy string) ([]permission, error) {
	var have []permission
	q := whereEq("policy", policy, "id,policy,collection,action,fields")
	q.Set("limit", "-1")
	if err := c.Do(ctx, "GET", "/permissions", q, nil, &have); err != nil {
		return nil, fmt.Errorf("provision: read permissions: %w", err)
	}
	return have, nil
}

// diffGrants compares a policy's permissions with the grants it should
// hold: the grants it lacks, and the permissions it should not have (those
// of no grant, and second copies of one).
func diffGrants(have []permission, want []grant) (missing []grant, extra []permission) {
	seen := map[grant]bool{}
	for _, p := range have {
		g := grant{p.Collection, p.Action}
		if seen[g] || !slices.Contains(want, g) {
			extra = append(extra, p)
			continue
		}
		seen[g] = true
	}
	for _, g := range want {
		if !seen[g] {
			missing = append(missing, g)
		}
	}
	return missing, extra
}

// ensurePermissions makes the policy hold exactly the grants: missing ones
// are created, anything else on this policy is removed.
func ensurePermissions(ctx context.Context, c *directus.Client, policy string, want []grant) (int, error) {
	have, err := readPermissions(ctx, c, policy)
	if err != nil {
		return 0, err
	}
	missing, extra := diffGrants(have, want)
	for _, g := range missing {
		p := permission{Policy: policy, Collection: g.collection, Action: g.action, Fields: []string{"*"}}
		if err := c.Do(ctx, "POST", "/permissions", nil, p, nil); err != nil {
			return 0, fmt.Errorf("provision: grant %s %s: %w", g.action, g.collection, err)
		}
	}
	for _, p := range extra {
		if err := c.Do(ctx, "DELETE", fmt.Sprintf("/permissions/%d", p.ID), nil, nil, nil); err != nil {
			return 0, fmt.Errorf("provision: revoke %s %s: %w", p.Action, p.Collection, err)
		}
	}
	return len(missing) + len(extra), nil
}

func ensureUser(ctx context.Context, c *directus.Client, email, role string, rotate bool, res AgentResult) (AgentResult, error) {
	var found []struct {
		ID     string `json:"id"`
		Role   string `json:"role"`
		Status string `json:"status"`
	}
	q := whereEq("email", email, "id,role,status")
	if err := c.Do(ctx, "GET", "/users", q, nil, &found); err != nil {
		return res, fmt.Errorf("provision: read users: %w", err)
	}
	if len(found) == 0 {
		res.Token = newToken()
		var created struct {
			ID string `json:"id"`
		}
		user := map[string]any{"email": email, "first_name": "erleah", "last_name": "agent", "role": role, "status": "active", "token": res.Token}
		if err := c.Do(ctx, "POST", "/users", nil, user, &created); err != nil {
			return res, fmt.Errorf("provision: create the agent's user: %w", err)
		}
		res.UserID, res.Changes = created.ID, res.Changes+1
		return res, nil
	}
	u := found[0]
	res.UserID = u.ID
	patch := map[string]any{}
	if u.Role != role || u.Status != "active" {
		patch["role"], patch["status"] = role, "active"
	}
	if rotate {
		res.Token = newToken()
		patch["token"] = res.Token
	}
	if len(patch) == 0 {
		return res, nil
	}
	if err := c.Do(ctx, "PATCH", "/users/"+u.ID, nil, patch, nil); err != nil {
		return res, fmt.Errorf("provision: update the agent's user: %w", err)
	}
	res.Changes++
	return res, nil
}

func newToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// whereEq is the query for the items whose field equals value (JSON
// encoded, whatever value holds), reading fields.
func whereEq(field, value, fields string) url.Values {
	f, _ := json.Marshal(map[string]any{field: map[string]any{"_eq": value}}) // strings always encode
	return url.Values{"filter": {string(f)}, "fields": {fields}}
}
