package directus

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// User is the part of a Directus user the agent needs.
type User struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Role  string `json:"role"` // role id; empty for users without a role
}

// Info is the part of GET /server/info the agent needs.
type Info struct {
	// Version is the Directus version, e.g. "12.4.0". Directus only tells
	// it to admins; it is empty otherwise.
	Version string `json:"version"`
}

// Collection is one entry of GET /collections.
type Collection struct {
	Collection string          `json:"collection"`
	Meta       json.RawMessage `json:"meta"`   // nil when Directus has no metadata for it
	Schema     json.RawMessage `json:"schema"` // nil for folders (collections without a table)
}

// Field is one entry of GET /fields/{collection}.
type Field struct {
	Field  string          `json:"field"`
	Type   string          `json:"type"`   // Directus type: "string", "uuid", "json", "alias"…
	Schema *FieldSchema    `json:"schema"` // nil for alias fields (no column)
	Meta   json.RawMessage `json:"meta"`   // nil when the field has no metadata
}

// FieldSchema is the database side of a field.
type FieldSchema struct {
	IsUnique        bool   `json:"is_unique"`
	IsPrimaryKey    bool   `json:"is_primary_key"`
	IsNullable      bool   `json:"is_nullable"`
	ForeignKeyTable string `json:"foreign_key_table"`
}

// Ping checks that Directus answers GET /server/ping with "pong". It is retried.
func (c *Client) Ping(ctx context.Context) error {
	r := get("/server/ping", nil)
	resp, err := c.send(ctx, r)
	if err != nil {
		return err
	}
	if body := bytes.TrimSpace(resp.Body()); string(body) != "pong" && string(body) != `"pong"` {
		return r.wrap(fmt.Errorf("unexpected answer %.40q", body))
	}
	return nil
}

// Me returns the user the token belongs to (GET /users/me). An invalid
// token is a 401 INVALID_CREDENTIALS *Error. It is retried.
func (c *Client) Me(ctx context.Context) (User, error) {
	var u User
	err := c.call(ctx, get("/users/me", url.Values{"fields": {"id,email,role"}}), &u)
	return u, err
}

// ServerInfo returns GET /server/info. It is retried.
func (c *Client) ServerInfo(ctx context.Context) (Info, error) {
	var info Info
	err := c.call(ctx, get("/server/info", nil), &info)
	return info, err
}

// Collections lists the collections the token can see (GET /collections),
// system collections included. It is retried.
func (c *Client) Collections(ctx context.Context) ([]Collection, error) {
	var cs []Collection
	if err := c.call(ctx, get("/collections", nil), &cs); err != nil {
		return nil, err
	}
	for i := range cs {
		cs[i].Meta = nilIfNull(cs[i].Meta)
		cs[i].Schema = nilIfNull(cs[i].Schema)
	}
	return cs, nil
}

// Fields lists the fields of collection (GET /fields/{collection}). It is retried.
func (c *Client) Fields(ctx context.Context, collection string) ([]Field, error) {
	var fs []Field
	if err := c.call(ctx, get("/fields/"+url.PathEscape(collection), nil), &fs); err != nil {
		return nil, err
	}
	for i := range fs {
		fs[i].Meta = nilIfNull(fs[i].Meta)
	}
	return fs, nil
}

// nilIfNull maps a JSON null captured by a json.RawMessage to nil.
func nilIfNull(raw json.RawMessage) json.RawMessage {
	if string(raw) == "null" {
		return nil
	}
	return raw
}

// SchemaSnapshot returns a schema snapshot (GET /schema/snapshot) limited to
// collections, or of the whole schema when none are given. Ship partial
// snapshots: a whole one applied in mirror mode deletes every other
// collection. Admin only. It is retried.
func (c *Client) SchemaSnapshot(ctx context.Context, collections []string) (json.RawMessage, error) {
	var q url.Values
	if len(collections) > 0 {
		q = url.Values{"includeCollections": collections}
	}
	var snap json.RawMessage
	err := c.call(ctx, get("/schema/snapshot", q), &snap)
	return snap, err
}

// SchemaDiff compares snapshot with the instance's schema in merge mode
// (POST /schema/diff?mode=merge), which never deletes what the snapshot
// lacks. It returns the "data" object to pass to SchemaApply and changed
// true (200), or changed false when nothing differs (204). force skips the
// check that the snapshot's Directus version and database vendor match the
// instance's (an INVALID_PAYLOAD *Error otherwise). It has no side effects
// and is retried. Admin only.
func (c *Client) SchemaDiff(ctx context.Context, snapshot []byte, force bool) (json.RawMessage, bool, error) {
	r := request{method: http.MethodPost, path: "/schema/diff", query: schemaQuery(force), body: snapshot, retry: true}
	r.query.Set("mode", "merge")
	var diff json.RawMessage
	if err := c.call(ctx, r, &diff); err != nil {
		return nil, false, err
	}
	diff = nilIfNull(diff)
	return diff, len(diff) > 0, nil
}

// SchemaApply applies a diff returned by SchemaDiff (POST /schema/apply),
// with force when the diff was made with force. Directus refuses a diff made
// against a schema that has changed since. It is not retried. Admin only.
func (c *Client) SchemaApply(ctx context.Context, diff json.RawMessage, force bool) error {
	r := request{method: http.MethodPost, path: "/schema/apply", query: schemaQuery(force), body: diff}
	return c.call(ctx, r, nil)
}

func schemaQuery(force bool) url.Values {
	q := url.Values{}
	if force {
		q.Set("force", "true")
	}
	return q
}
