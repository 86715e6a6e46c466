package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/erleah/erleah-agent/directus"
)

// Collection is the Directus collection that holds the lessons
// (migrations/directus-schema.json). Only the agent's own policy may read
// or write it; it holds no attendee identity.
const Collection = "agent_reflections"

// chunk bounds the ids per request: they travel in a filter in the query
// string of the read that tells new lessons from stored ones.
const chunk = 100

// Directus keeps lessons in the Directus collection agent_reflections, one
// item per lesson: the whole Lesson in the json field `lesson`, and its
// conference, failure, strategy, recovered and importance beside it for
// people browsing the collection. The item's id is the lesson's id, a UUID.
type Directus struct {
	c       *directus.Client
	skipped atomic.Int64
}

// NewDirectus returns a backend storing lessons through c, whose token
// needs read, create, update and delete on agent_reflections (the agent's
// user has them: provision.AgentUser).
func NewDirectus(c *directus.Client) *Directus { return &Directus{c: c} }

// row is an agent_reflections item as written.
type row struct {
	ID         string  `json:"id"`
	Conference string  `json:"conference"`
	Failure    string  `json:"failure"`
	Strategy   string  `json:"strategy"`
	Recovered  bool    `json:"recovered"`
	Importance float64 `json:"importance"`
	Lesson     Lesson  `json:"lesson"`
}

func toRow(l Lesson) row {
	return row{ID: l.ID, Conference: l.Conference, Failure: l.Failure, Strategy: l.Strategy,
		Recovered: l.Recovered, Importance: l.Importance, Lesson: l}
}

// Load reads every lesson. Items whose lesson is missing or does not parse
// are skipped (Skipped says how many were in the last Load); the item's id
// is the lesson's.
func (d *Directus) Load(ctx context.Context) ([]Lesson, error) {
	var items []struct {
		ID     string          `json:"id"`
		Lesson json.RawMessage `json:"lesson"`
	}
	if err := d.c.ReadAll(ctx, Collection, directus.Query{Fields: []string{"id", "lesson"}}, &items); err != nil {
		return nil, fmt.Errorf("memory: directus load: %w", err)
	}
	var out []Lesson
	skipped := 0
	for _, it := range items {
		var l Lesson
		if len(it.Lesson) == 0 || string(it.Lesson) == "null" || json.Unmarshal(it.Lesson, &l) != nil {
			skipped++
			continue
		}
		l.ID = it.ID
		out = append(out, l)
	}
	d.skipped.Store(int64(skipped))
	return out, nil
}

// Skipped is the number of items the last Load skipped because their lesson
// was missing or unreadable.
func (d *Directus) Skipped() int { return int(d.skipped.Load()) }

// Put creates the lessons that are not stored yet and replaces those that
// are. Per 100 lessons it sends at most three requests: a read of which ids
// exist, one batch create, one batch update. Should another writer create
// one of the ids in between (RECORD_NOT_UNIQUE), it does that once more.
func (d *Directus) Put(ctx context.Context, lessons []Lesson) error {
	lessons = lastByID(lessons)
	for _, l := range lessons {
		if !isUUID(l.ID) {
			return fmt.Errorf("memory: directus put: %w: id %q is not a UUID", ErrInvalid, l.ID)
		}
	}
	for part := range slices.Chunk(lessons, chunk) {
		err := d.put(ctx, part)
		if directus.IsUnique(err) {
			err = d.put(ctx, part)
		}
		if err != nil {
			return fmt.Errorf("memory: directus put: %w", err)
		}
	}
	return nil
}

func (d *Directus) put(ctx context.Context, lessons []Lesson) error {
	ids := make([]string, len(lessons))
	for i, l := range lessons {
		ids[i] = l.ID
	}
	have, err := d.existing(ctx, ids)
	if err != nil {
		return err
	}
	var create, update []row
	for _, l := range lessons {
		if have[strings.ToLower(l.ID)] {
			update = append(update, toRow(l))
		} else {
			create = append(create, toRow(l))
		}
	}
	if len(create) > 0 {
		if err := d.c.CreateItems(ctx, Collection, create); err != nil {
			return err
		}
	}
	if len(update) > 0 {
		// PATCH /items/{collection} with an array updates each item by its
		// primary key in one request (and is retried: it is idempotent).
		if err := d.c.Do(ctx, "PATCH", "/items/"+Collection, nil, update, nil); err != nil {
			return err
		}
	}
	return nil
}

// Delete removes lessons by id; ids that are not stored are ignored.
// Per 100 ids it sends a read of which exist and one batch delete: Directus
// refuses (403) a delete naming an item that does not exist.
func (d *Directus) Delete(ctx context.Context, ids []string) error {
	// An id that is not a UUID cannot be stored (and PostgreSQL would
	// refuse it in a filter).
	ids = slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return !isUUID(id) })
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for part := range slices.Chunk(ids, chunk) {
		have, err := d.existing(ctx, part)
		if err != nil {
			return fmt.Errorf("memory: directus delete: %w", err)
		}
		gone := slices.DeleteFunc(slices.Clone(part), func(id string) bool { return !have[strings.ToLower(id)] })
		if err := d.c.DeleteItems(ctx, Collection, gone); err != nil {
			return fmt.Errorf("memory: directus delete: %w", err)
		}
	}
	return nil
}

// existing returns which of ids are stored, in lower case (PostgreSQL
// answers a uuid key in lower case whatever case it was written in).
func (d *Directus) existing(ctx context.Context, ids []string) (map[string]bool, error) {
	var items []struct {
		ID string `json:"id"`
	}
	q := directus.Query{Fields: []string{"id"}, Filter: map[string]any{"id": map[string]any{"_in": ids}}}
	if err := d.c.ReadAll(ctx, Collection, q, &items); err != nil {
		return nil, err
	}
	have := make(map[string]bool, len(items))
	for _, it := range items {
		have[strings.ToLower(it.ID)] = true
	}
	return have, nil
}

// lastByID keeps the last of lessons sharing an id, in their first order.
func lastByID(lessons []Lesson) []Lesson {
	at := make(map[string]int, len(lessons))
	var out []Lesson
	for _, l := range lessons {
		if i, ok := at[l.ID]; ok {
			out[i] = l
			continue
		}
		at[l.ID] = len(out)
		out = append(out, l)
	}
	return out
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func isUUID(s string) bool { return uuidRE.MatchString(s) }

var _ Backend = (*Directus)(nil)
