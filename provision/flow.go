package provision

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"

	"github.com/erleah/erleah-agent/directus"
)

// FlowName names the webhook Flow the agent owns.
const FlowName = "erleah-agent: answer user messages"

// FlowOptions describe the webhook the Flow calls.
type FlowOptions struct {
	URL    string // the agent's /v1/webhooks/directus
	Secret string // sent as X-Webhook-Secret
	// SecretFromEnv makes the Flow read the secret from Directus's own
	// environment ({{$env.AGENT_WEBHOOK_SECRET}}, which needs
	// FLOWS_ENV_ALLOW_LIST=AGENT_WEBHOOK_SECRET) instead of storing it.
	SecretFromEnv bool
}

// body is the request body template: the event, the new message's id and
// what the client sent.
const body = `{"event":"{{$trigger.event}}","collection":"{{$trigger.collection}}","key":"{{$trigger.key}}","payload":{{$trigger.payload}}}`

type flow struct {
	ID             string         `json:"id,omitempty"`
	Name           string         `json:"name"`
	Icon           string         `json:"icon"`
	Status         string         `json:"status"`
	Trigger        string         `json:"trigger"`
	Accountability *string        `json:"accountability"` // null: runs are not logged
	Options        map[string]any `json:"options"`
	Operation      *string        `json:"operation,omitempty"`
}

type operation struct {
	ID        string         `json:"id,omitempty"`
	Name      string         `json:"name"`
	Key       string         `json:"key"`
	Type      string         `json:"type"`
	PositionX int            `json:"position_x"`
	PositionY int            `json:"position_y"`
	Options   map[string]any `json:"options"`
	Resolve   *string        `json:"resolve"`
	Reject    *string        `json:"reject"`
	Flow      string         `json:"flow,omitempty"`
}

// Flow creates the webhook Flow (an action on messages.items.create, a
// condition that lets only user messages through, then a request to the
// agent) or brings an existing one up to date. It returns how many items it
// created or changed; zero means it was already right.
func Flow(ctx context.Context, c *directus.Client, o FlowOptions) (int, error) {
	if u, err := url.Parse(o.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return 0, fmt.Errorf("provision: webhook URL %q is not an http(s) URL", o.URL)
	}
	if o.Secret == "" && !o.SecretFromEnv {
		return 0, fmt.Errorf("provision: a webhook secret is required (WEBHOOK_SECRET)")
	}
	f, changes, err := ensureFlow(ctx, c, desiredFlow())
	if err != nil {
		return 0, err
	}
	ops, err := flowOperations(ctx, c, f.ID)
	if err != nil {
		return 0, err
	}
	req, n, err := ensureOperation(ctx, c, ops, requestOp(f.ID, o))
	if err != nil {
		return 0, err
	}
	changes += n
	cond, n, err := ensureOperation(ctx, c, ops, conditionOp(f.ID, req))
	if err != nil {
		return 0, err
	}
	changes += n
	if f.Operation == nil || *f.Operation != cond {
		if err := c.Do(ctx, "PATCH", "/flows/"+f.ID, nil, map[string]any{"operation": cond}, nil); err != nil {
			return 0, fmt.Errorf("provision: link flow: %w", err)
		}
		changes++
	}
	return changes, nil
}

func desiredFlow() flow {
	all := "all"
	return flow{Name: FlowName, Icon: "smart_toy", Status: "active", Trigger: "event", Accountability: &all,
		Options: map[string]any{"type": "action", "scope": []any{"items.create"}, "collections": []any{"messages"}}}
}

// ensureFlow creates the flow named want.Name or brings it up to want
// (its first operation aside); it returns it and whether it changed.
func ensureFlow(ctx context.Context, c *directus.Client, want flow) (flow, int, error) {
	found, err := findFlow(ctx, c, want.Name)
	if err != nil {
		return flow{}, 0, err
	}
	if len(found) == 0 {
		var created flow
		if err := c.Do(ctx, "POST", "/flows", nil, want, &created); err != nil {
			return flow{}, 0, fmt.Errorf("provision: create flow: %w", err)
		}
		return created, 1, nil
	}
	f := found[0]
	want.ID, want.Operation = f.ID, f.Operation
	if sameJSON(f, want) {
		return f, 0, nil
	}
	if err := c.Do(ctx, "PATCH", "/flows/"+f.ID, nil, want, nil); err != nil {
		return flow{}, 0, fmt.Errorf("provision: update flow: %w", err)
	}
	return want, 1, nil
}

func findFlow(ctx context.Context, c *directus.Client, name string) ([]flow, error) {
	var found []flow
	q := whereEq("name", name, "id,name,icon,status,trigger,accountability,options,operation")
	if err := c.Do(ctx, "GET", "/flows", q, nil, &found); err != nil {
		return nil, fmt.Errorf("provision: read flows: %w", err)
	}
	return found, nil
}

func flowOperations(ctx context.Context, c *directus.Client, flowID string) (map[string]operation, error) {
	var ops []operation
	q := whereEq("flow", flowID, "id,name,key,type,position_x,position_y,options,resolve,reject,flow")
	if err := c.Do(ctx, "GET", "/operations", q, nil, &ops); err != nil {
		return nil, fmt.Errorf("provision: read operations: %w", err)
	}
	out := map[string]operation{}
	for _, op := range ops {
		out[op.Key] = op
	}
	return out, nil
}

func requestOp(flowID string, o FlowOptions) operation {
	secret := o.Secret
	if o.SecretFromEnv {
		secret = "{{$env.AGENT_WEBHOOK_SECRET}}"
	}
	return operation{Name: "Notify the agent", Key: "notify_agent", Type: "request", PositionX: 37, PositionY: 1, Flow: flowID,
		Options: map[string]any{"method": "POST", "url": o.URL, "body": body,
			"headers": []any{map[string]any{"header": "X-Webhook-Secret", "value": secret}, map[string]any{"header": "Content-Type", "value": "application/json"}}}}
}

func conditionOp(flowID, next string) operation {
	return operation{Name: "Only user messages", Key: "only_user_messages", Type: "condition", PositionX: 19, PositionY: 1, Flow: flowID,
		Options: map[string]any{"filter": map[string]any{"$trigger": map[string]any{"payload": map[string]any{"role": map[string]any{"_eq": "user"}}}}},
		Resolve: &next}
}

// ensureOperation creates the operation or updates it in place; it returns
// its id and whether it changed anything.
func ensureOperation(ctx context.Context, c *directus.Client, have map[string]operation, want operation) (string, int, error) {
	old, ok := have[want.Key]
	if !ok {
		var created operation
		if err := c.Do(ctx, "POST", "/operations", nil, want, &created); err != nil {
			return "", 0, fmt.Errorf("provision: create operation %s: %w", want.Key, err)
		}
		return created.ID, 1, nil
	}
	want.ID = old.ID
	if sameJSON(old, want) {
		return old.ID, 0, nil
	}
	if err := c.Do(ctx, "PATCH", "/operations/"+old.ID, nil, want, nil); err != nil {
		return "", 0, fmt.Errorf("provision: update operation %s: %w", want.Key, err)
	}
	return old.ID, 1, nil
}

// sameJSON compares two values as JSON documents.
func sameJSON(a, b any) bool {
	var x, y any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	_ = json.Unmarshal(ja, &x)
	_ = json.Unmarshal(jb, &y)
	return reflect.DeepEqual(x, y)
}
