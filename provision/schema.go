// Package provision makes a Directus instance ready for the agent and keeps
// it so: it applies the project's schema (diff first, merge mode, never
// touching other collections), creates or updates the webhook Flow, creates
// the agent's least-privilege user, checks that the collections and fields
// the agent relies on exist with the right types, and imports conference
// bundles. Every step is idempotent: running it again changes nothing.
package provision

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/directus"
)

// snapshot is the part of a schema snapshot that checks need.
type snapshot struct {
	Directus    string `json:"directus"`
	Vendor      string `json:"vendor"`
	Collections []struct {
		Collection string `json:"collection"`
	} `json:"collections"`
	Fields []struct {
		Collection string `json:"collection"`
		Field      string `json:"field"`
		Type       string `json:"type"`
		Schema     *struct {
			IsUnique bool `json:"is_unique"`
		} `json:"schema"`
	} `json:"fields"`
}

func parseSnapshot(data []byte) (snapshot, error) {
	var s snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("provision: schema snapshot: %w", err)
	}
	return s, nil
}

// Collections lists the collections of a snapshot.
func Collections(data []byte) ([]string, error) {
	s, err := parseSnapshot(data)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range s.Collections {
		out = append(out, c.Collection)
	}
	return out, nil
}

// SchemaResult says what applying the schema did.
type SchemaResult struct {
	Changed bool   // something was applied
	Forced  string // why the version/vendor check was overridden, if it was
	// Checked says Check found nothing missing (a forced diff on an
	// instance whose schema is in place): no need to check again.
	Checked bool
}

// ApplySchema brings the instance's schema up to the snapshot in merge mode:
// what the snapshot has is created or updated, nothing else is deleted. The
// snapshot's Directus version and database vendor must match the instance's
// unless the check is forced, which happens (and is reported) when only they
// differ.
func ApplySchema(ctx context.Context, c *directus.Client, data []byte) (SchemaResult, error) {
	var res SchemaResult
	diff, changed, err := c.SchemaDiff(ctx, data, false)
	if err != nil && versionOrVendor(err) {
		res.Forced = err.Error()
		diff, changed, err = c.SchemaDiff(ctx, data, true)
	}
	if err != nil {
		return res, fmt.Errorf("provision: schema diff: %w", err)
	}
	if !changed {
		return res, nil
	}
	if res.Forced != "" && complete(ctx, c, data) {
		res.Checked = true
		return res, nil
	}
	if err := c.SchemaApply(ctx, diff, res.Forced != ""); err != nil {
		return res, fmt.Errorf("provision: schema apply: %w", err)
	}
	res.Changed = true
	return res, nil
}

// complete reports whether the instance already has everything the
// snapshot names. A forced diff across database vendors is never empty
// (varchar against character varying, char(36) against uuid), and applying
// it to a schema that is in place fails on PostgreSQL (it tries to drop the
// primary keys' NOT NULL), so setup on such an instance changes nothing.
func complete(ctx context.Context, c *directus.Client, data []byte) bool {
	problems, err := Check(ctx, c, data)
	return err == nil && len(problems) == 0
}

// versionOrVendor recognises Directus refusing a snapshot of another
// version or database.
func versionOrVendor(err error) bool {
	var de *directus.Error
	if !errors.As(err, &de) || de.Status != 400 {
		return false
	}
	m := strings.ToLower(de.Message)
	return strings.Contains(m, "version") || strings.Contains(m, "vendor") || strings.Contains(m, "database") || strings.Contains(m, "force")
}

// Problem is something the agent relies on that the instance lacks.
type Problem struct {
	Collection string
	Field      string
	Message    string
}

func (p Problem) String() string {
	if p.Field == "" {
		return p.Collection + ": " + p.Message
	}
	return p.Collection + "." + p.Field + ": " + p.Message
}

// Check compares the instance with the snapshot: every collection and field
// present, with a compatible type, and reply_to unique. It returns the
// problems found; an error means the instance could not be read.
func Check(ctx context.Context, c *directus.Client, data []byte) ([]Problem, error) {
	s, err := parseSnapshot(data)
	if err != nil {
		return nil, err
	}
	have, err := c.Collections(ctx)
	if err != nil {
		return nil, fmt.Errorf("provision: list collections: %w", err)
	}
	var problems []Problem
	for _, col := range s.Collections {
		if !slices.ContainsFunc(have, func(h directus.Collection) bool { return h.Collection == col.Collection }) {
			problems = append(problems, Problem{Collection: col.Collection, Message: "collection missing"})
			continue
		}
		more, err := checkFields(ctx, c, s, col.Collection)
		if err != nil {
			return nil, err
		}
		problems = append(problems, more...)
	}
	return problems, nil
}

func checkFields(ctx context.Context, c *directus.Client, s snapshot, collection string) ([]Problem, error) {
	fields, err := c.Fields(ctx, collection)
	if err != nil {
		return nil, fmt.Errorf("provision: list fields of %s: %w", collection, err)
	}
	byName := map[string]directus.Field{}
	for _, f := range fields {
		byName[f.Field] = f
	}
	var problems []Problem
	for _, want := range s.Fields {
		if want.Collection != collection {
			continue
		}
		got, ok := byName[want.Field]
		switch {
		case !ok:
			problems = append(problems, Problem{collection, want.Field, "field missing (want " + want.Type + ")"})
		case !compatible(want.Type, got.Type):
			problems = append(problems, Problem{collection, want.Field, fmt.Sprintf("type %s, want %s", got.Type, want.Type)})
		case want.Schema != nil && want.Schema.IsUnique && (got.Schema == nil || !got.Schema.IsUnique):
			problems = append(problems, Problem{collection, want.Field, "must be unique"})
		}
	}
	return problems, nil
}

// compatible accepts the same type, and uuid for string (SQLite stores a
// reference to a uuid key as a string; PostgreSQL as a uuid).
func compatible(want, got string) bool {
	if want == got {
		return true
	}
	pair := []string{want, got}
	slices.Sort(pair)
	return pair[0] == "string" && pair[1] == "uuid" || pair[0] == "dateTime" && pair[1] == "timestamp"
}
