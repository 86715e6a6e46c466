package provision

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/directus"
)

// AttendeeName names the role and policy of the attendees the chat widget
// signs in as.
const AttendeeName = "erleah-attendee"

// attendeeGrants are everything an attendee may do: create and read
// conversations and messages, and read the conference data. No update or
// delete: on whole collections they would let an attendee rewrite anyone's
// messages, and the guard Flow covers creates only. Directus 12 without a
// licence refuses item-level rules (user_created = $CURRENT_USER), so an
// attendee may read and write every conversation; the agent answers only a
// conversation's owner (its user_created or user_id), and the guard Flow
// refuses an attendee's assistant messages, reply_to and chosen ids.
var attendeeGrants = []grant{
	{"conversations", "create"}, {"conversations", "read"}, {"messages", "create"}, {"messages", "read"},
	{"conferences", "read"}, {"sessions", "read"}, {"exhibitors", "read"}, {"speakers", "read"},
}

// AttendeeGrants describes the attendee's grants, e.g. for setup's report:
// "create, read: conversations, messages; read: conferences, …".
func AttendeeGrants() string { return describe(attendeeGrants) }

// describe lists the grants as actions and the collections that have
// exactly those, in the order the grants first name them.
func describe(grants []grant) string {
	var order []string
	actions := map[string][]string{}
	for _, g := range grants {
		if actions[g.collection] == nil {
			order = append(order, g.collection)
		}
		actions[g.collection] = append(actions[g.collection], g.action)
	}
	var groups []string
	byActions := map[string][]string{}
	for _, col := range order {
		a := actions[col]
		slices.Sort(a)
		key := strings.Join(a, ", ")
		if byActions[key] == nil {
			groups = append(groups, key)
		}
		byActions[key] = append(byActions[key], col)
	}
	parts := make([]string, len(groups))
	for i, key := range groups {
		parts[i] = key + ": " + strings.Join(byActions[key], ", ")
	}
	return strings.Join(parts, "; ")
}

// AttendeeResult says what Attendee did.
type AttendeeResult struct {
	Changes int
	RoleID  string
}

// Attendee creates (or repairs) the attendees' policy, with exactly the
// grants above and neither admin nor app access, and a role holding that
// policy and nothing else (no other policy, no parent role to inherit
// from). It creates no users: give the role to the widget's users. Zero
// changes means everything was already right.
func Attendee(ctx context.Context, c *directus.Client) (AttendeeResult, error) {
	role, n, err := ensureRole(ctx, c, roleSpec{name: AttendeeName, icon: "badge", grants: attendeeGrants,
		policy: "What attendees using the erleah chat widget may do.", role: "Conference attendees using the erleah chat widget."})
	return AttendeeResult{Changes: n, RoleID: role}, err
}

// roleAccess is what a role's users get: its policies (directus_access
// rows) and those of its parent.
type roleAccess struct {
	Parent   *string `json:"parent"`
	Policies []struct {
		ID     string `json:"id"`
		Policy string `json:"policy"`
	} `json:"policies"`
}

func readRole(ctx context.Context, c *directus.Client, id string) (roleAccess, error) {
	var r roleAccess
	if err := c.Do(ctx, "GET", "/roles/"+id, url.Values{"fields": {"parent,policies.id,policies.policy"}}, nil, &r); err != nil {
		return r, fmt.Errorf("provision: read role %s: %w", id, err)
	}
	return r, nil
}

// fix is the patch that leaves the role holding policy once and nothing
// else, without a parent; nil when it already does.
func (r roleAccess) fix(policy string) map[string]any {
	patch := map[string]any{}
	if r.Parent != nil {
		patch["parent"] = nil
	}
	held := false
	var drop []string
	for _, a := range r.Policies {
		if a.Policy == policy && !held {
			held = true
			continue
		}
		drop = append(drop, a.ID)
	}
	rel := map[string]any{}
	if !held {
		rel["create"] = []any{map[string]any{"policy": policy}}
	}
	if len(drop) > 0 {
		rel["delete"] = drop
	}
	if len(rel) > 0 {
		patch["policies"] = rel
	}
	if len(patch) == 0 {
		return nil
	}
	return patch
}

// ensureOnlyPolicy makes the role (called name) hold the policy and
// nothing else.
func ensureOnlyPolicy(ctx context.Context, c *directus.Client, name, role, policy string) (int, error) {
	r, err := readRole(ctx, c, role)
	if err != nil {
		return 0, err
	}
	patch := r.fix(policy)
	if patch == nil {
		return 0, nil
	}
	if err := c.Do(ctx, "PATCH", "/roles/"+role, nil, patch, nil); err != nil {
		return 0, fmt.Errorf("provision: leave the role %s only its policy: %w", name, err)
	}
	return 1, nil
}

// CheckAttendee reports the attendees' role or policy missing, or not as
// Attendee makes them: a grant missing or one too many, admin or app
// access, another policy or a parent role.
func CheckAttendee(ctx context.Context, c *directus.Client) ([]Problem, error) {
	p, found, err := readPolicy(ctx, c, AttendeeName)
	if err != nil {
		return nil, err
	}
	if !found {
		return []Problem{{Collection: "directus_policies", Message: fmt.Sprintf("the policy %q is missing", AttendeeName)}}, nil
	}
	var problems []Problem
	if p.AdminAccess || p.AppAccess {
		problems = append(problems, Problem{Collection: "directus_policies", Message: fmt.Sprintf("the policy %q has admin or app access", AttendeeName)})
	}
	have, err := readPermissions(ctx, c, p.ID)
	if err != nil {
		return nil, err
	}
	problems = append(problems, grantProblems(have, attendeeGrants)...)
	more, err := checkAttendeeRole(ctx, c, p.ID)
	return append(problems, more...), err
}

func grantProblems(have []permission, want []grant) []Problem {
	missing, extra := diffGrants(have, want)
	var problems []Problem
	for _, g := range missing {
		problems = append(problems, Problem{Collection: g.collection, Message: fmt.Sprintf("the role %q may not %s", AttendeeName, g.action)})
	}
	for _, p := range extra {
		msg := fmt.Sprintf("the role %q may %s, which setup does not grant", AttendeeName, p.Action)
		if slices.Contains(want, grant{p.Collection, p.Action}) {
			msg = fmt.Sprintf("the role %q has %s granted twice", AttendeeName, p.Action)
		}
		problems = append(problems, Problem{Collection: p.Collection, Message: msg})
	}
	return problems
}

func checkAttendeeRole(ctx context.Context, c *directus.Client, policy string) ([]Problem, error) {
	problem := func(msg string) []Problem {
		return []Problem{{Collection: "directus_roles", Message: fmt.Sprintf("the role %q %s", AttendeeName, msg)}}
	}
	var roles []struct {
		ID string `json:"id"`
	}
	if err := c.Do(ctx, "GET", "/roles", whereEq("name", AttendeeName, "id"), nil, &roles); err != nil {
		return nil, fmt.Errorf("provision: read roles: %w", err)
	}
	if len(roles) == 0 {
		return problem("is missing: the chat widget's users have no role"), nil
	}
	r, err := readRole(ctx, c, roles[0].ID)
	if err != nil {
		return nil, err
	}
	if patch := r.fix(policy); patch != nil {
		return problem(fmt.Sprintf("does not hold just the policy %q (it lacks it, or another policy or a parent role gives attendees more)", AttendeeName)), nil
	}
	return nil, nil
}
