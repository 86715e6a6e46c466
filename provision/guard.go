package provision

import (
	"context"
	"fmt"

	"github.com/erleah/erleah-agent/directus"
)

// GuardName names the filter Flow that keeps attendees from writing what
// only the agent writes.
const GuardName = "erleah-agent: only the agent writes replies"

// GuardMessage is the error (403 FORBIDDEN) Directus answers a create the
// guard refuses with.
const GuardMessage = "Only the agent writes assistant messages and replies: create user messages, without reply_to or id."

// Directus 12 without a licence refuses item-level permission rules, so an
// attendee's role holds whole collections: an attendee who may create
// messages may create assistant messages, and set any reply_to or id. The
// guard is a blocking ("filter") event Flow on messages.items.create, run
// inside the create's own request: a condition matches a create by anyone
// who is neither an admin nor a user of the agent's role that writes
// anything but a user message (role other than "user"), or sets reply_to,
// or chooses the id (the agent derives its reply's id from the question's,
// so a chosen id could take it first); a throw-error operation then cancels
// the create, and the client gets 403 with GuardMessage, a batch as a
// whole. Anything else goes on unchanged (a transform that returns nothing
// to replace the payload with). Creates made inside Directus without a user
// (other Flows, imports) carry no accountability and pass. Runs are not
// logged (accountability null): the guard runs on every message created.
//
// It does not cover updates: the attendees' role (Attendee) may not update
// messages. The agent does not rely on it alone: it checks authors and
// replies itself (package chat).

func desiredGuard() flow {
	return flow{Name: GuardName, Icon: "shield", Status: "active", Trigger: "event", Accountability: nil,
		Options: map[string]any{"type": "filter", "scope": []any{"items.create"}, "collections": []any{"messages"}}}
}

// guardFilter matches the creates the guard refuses. The condition
// operation requires every field a rule names to be there, so a rule on a
// field the payload leaves out does not match: a user message without a
// role, reply_to or id passes, and so do requests without accountability.
func guardFilter(agentRole string) map[string]any {
	on := func(root, field string, rule map[string]any) map[string]any {
		return map[string]any{root: map[string]any{field: rule}}
	}
	payload := func(field string, rule map[string]any) map[string]any {
		return map[string]any{"$trigger": map[string]any{"payload": map[string]any{field: rule}}}
	}
	return map[string]any{"_and": []any{
		on("$accountability", "admin", map[string]any{"_eq": false}),
		on("$accountability", "role", map[string]any{"_neq": agentRole}),
		map[string]any{"_or": []any{
			payload("role", map[string]any{"_neq": "user"}),
			payload("reply_to", map[string]any{"_nnull": true}),
			payload("id", map[string]any{"_nnull": true}),
		}},
	}}
}

func refuseOp(flowID string) operation {
	return operation{Name: "Refuse", Key: "refuse", Type: "throw-error", PositionX: 37, PositionY: 1, Flow: flowID,
		Options: map[string]any{"code": "FORBIDDEN", "status": "403", "message": GuardMessage}}
}

func allowOp(flowID string) operation {
	return operation{Name: "Let it through", Key: "let_through", Type: "transform", PositionX: 37, PositionY: 17, Flow: flowID,
		Options: map[string]any{"json": map[string]any{}}}
}

func checkOp(flowID, agentRole, refuse, allow string) operation {
	return operation{Name: "Only the agent writes replies", Key: "only_the_agent_writes_replies", Type: "condition", PositionX: 19, PositionY: 1,
		Flow: flowID, Options: map[string]any{"filter": guardFilter(agentRole)}, Resolve: &refuse, Reject: &allow}
}

// Guard creates the guard Flow, letting admins and users of agentRole (the
// agent's role, AgentUser's RoleID) through, or brings an existing one up
// to date. It returns how many items it created or changed; zero means it
// was already right.
func Guard(ctx context.Context, c *directus.Client, agentRole string) (int, error) {
	if agentRole == "" {
		return 0, fmt.Errorf("provision: the guard Flow needs the agent's role")
	}
	f, changes, err := ensureFlow(ctx, c, desiredGuard())
	if err != nil {
		return 0, err
	}
	ops, err := flowOperations(ctx, c, f.ID)
	if err != nil {
		return 0, err
	}
	refuse, n, err := ensureOperation(ctx, c, ops, refuseOp(f.ID))
	if err != nil {
		return 0, err
	}
	changes += n
	allow, n, err := ensureOperation(ctx, c, ops, allowOp(f.ID))
	if err != nil {
		return 0, err
	}
	changes += n
	check, n, err := ensureOperation(ctx, c, ops, checkOp(f.ID, agentRole, refuse, allow))
	if err != nil {
		return 0, err
	}
	changes += n
	if f.Operation == nil || *f.Operation != check {
		if err := c.Do(ctx, "PATCH", "/flows/"+f.ID, nil, map[string]any{"operation": check}, nil); err != nil {
			return 0, fmt.Errorf("provision: link the guard flow: %w", err)
		}
		changes++
	}
	return changes, nil
}

// CheckGuard reports the guard Flow missing, or not as Guard makes it for
// the agent's role (inactive, changed, or the role gone).
func CheckGuard(ctx context.Context, c *directus.Client) ([]Problem, error) {
	problem := func(msg string) []Problem {
		return []Problem{{Collection: "messages", Message: fmt.Sprintf("the Flow %q %s", GuardName, msg)}}
	}
	found, err := findFlow(ctx, c, GuardName)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return problem("is missing: attendees can write assistant messages and replies"), nil
	}
	var roles []struct {
		ID string `json:"id"`
	}
	if err := c.Do(ctx, "GET", "/roles", whereEq("name", AgentName, "id"), nil, &roles); err != nil {
		return nil, fmt.Errorf("provision: read roles: %w", err)
	}
	if len(roles) == 0 {
		return problem(fmt.Sprintf("lets the agent's role through, but there is no role %q", AgentName)), nil
	}
	f := found[0]
	want := desiredGuard()
	want.ID, want.Operation = f.ID, f.Operation
	if !sameJSON(f, want) {
		return problem("is not as setup makes it (inactive, or its trigger changed)"), nil
	}
	ops, err := flowOperations(ctx, c, f.ID)
	if err != nil {
		return nil, err
	}
	refuse, allow, check := ops["refuse"], ops["let_through"], ops["only_the_agent_writes_replies"]
	wantCheck := checkOp(f.ID, roles[0].ID, refuse.ID, allow.ID)
	for _, w := range []operation{refuseOp(f.ID), allowOp(f.ID), wantCheck} {
		have, ok := ops[w.Key]
		w.ID = have.ID
		if !ok || !sameJSON(have, w) {
			return problem(fmt.Sprintf("has its operation %q missing or changed", w.Key)), nil
		}
	}
	if f.Operation == nil || *f.Operation != check.ID {
		return problem("does not start with its check"), nil
	}
	return nil, nil
}
