package provision

import (
	"context"
	"fmt"
	"time"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/directus"
)

// ImportResult counts what an import did per collection.
type ImportResult struct {
	Created   map[string]int
	Updated   map[string]int
	Unchanged map[string]int
}

// Changes is how many items were created or updated.
func (r ImportResult) Changes() int {
	n := 0
	for _, m := range []map[string]int{r.Created, r.Updated} {
		for _, v := range m {
			n += v
		}
	}
	return n
}

// Import writes a bundle into the conference collections: items missing
// are created, items that differ are updated, the rest left alone, so that
// importing the same bundle again changes nothing. It never deletes.
func Import(ctx context.Context, c *directus.Client, b *conference.Bundle) (ImportResult, error) {
	res := ImportResult{Created: map[string]int{}, Updated: map[string]int{}, Unchanged: map[string]int{}}
	steps := []struct {
		collection string
		items      []map[string]any
	}{
		{"conferences", conferenceItems(b)}, {"speakers", speakerItems(b)},
		{"sessions", sessionItems(b)}, {"exhibitors", exhibitorItems(b)},
	}
	for _, st := range steps {
		if err := upsert(ctx, c, st.collection, st.items, res); err != nil {
			return res, err
		}
	}
	return res, nil
}

func upsert(ctx context.Context, c *directus.Client, collection string, items []map[string]any, res ImportResult) error {
	var have []map[string]any
	if err := c.ReadAll(ctx, collection, directus.Query{Fields: []string{"*"}}, &have); err != nil {
		return fmt.Errorf("provision: read %s: %w", collection, err)
	}
	byID := map[string]map[string]any{}
	for _, h := range have {
		byID[fmt.Sprint(h["id"])] = h
	}
	var create []map[string]any
	for _, it := range items {
		old, ok := byID[it["id"].(string)]
		switch {
		case !ok:
			create = append(create, it)
		case same(it, old):
			res.Unchanged[collection]++
		default:
			if err := c.UpdateItem(ctx, collection, it["id"].(string), it, nil); err != nil {
				return fmt.Errorf("provision: update %s/%s: %w", collection, it["id"], err)
			}
			res.Updated[collection]++
		}
	}
	for start := 0; start < len(create); start += 100 {
		batch := create[start:min(start+100, len(create))]
		if err := c.CreateItems(ctx, collection, batch); err != nil {
			return fmt.Errorf("provision: create %d %s: %w", len(batch), collection, err)
		}
		res.Created[collection] += len(batch)
	}
	return nil
}

// same compares the fields we write with what Directus holds: timestamps
// as instants, empty strings as nulls, JSON as JSON.
func same(want, have map[string]any) bool {
	for k, v := range want {
		h := have[k]
		if ts, ok := v.(string); ok && (k == "starts_at" || k == "ends_at") {
			if !sameInstant(ts, h) {
				return false
			}
			continue
		}
		if isEmpty(v) && isEmpty(h) {
			continue
		}
		if !sameJSON(v, h) {
			return false
		}
	}
	return true
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []string:
		return len(x) == 0
	case []any:
		return len(x) == 0
	case map[string]string:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

func sameInstant(want string, have any) bool {
	h, _ := have.(string)
	if want == "" || h == "" {
		return want == h
	}
	a, err1 := time.Parse(time.RFC3339, want)
	b, err2 := time.Parse(time.RFC3339Nano, h)
	if err2 != nil {
		b, err2 = time.Parse("2006-01-02T15:04:05", h)
	}
	return err1 == nil && err2 == nil && a.Equal(b)
}

func conferenceItems(b *conference.Bundle) []map[string]any {
	var out []map[string]any
	for _, c := range b.Conferences {
		out = append(out, map[string]any{"id": c.ID, "name": c.Name, "timezone": c.Timezone, "venue": c.Venue,
			"starts_on": nullable(c.StartsOn), "ends_on": nullable(c.EndsOn)})
	}
	return out
}

func sessionItems(b *conference.Bundle) []map[string]any {
	var out []map[string]any
	for _, s := range b.Sessions {
		out = append(out, map[string]any{"id": s.ID, "conference": s.ConferenceID, "title": s.Title, "description": s.Description,
			"track": s.Track, "format": s.Format, "starts_at": nullable(s.StartsAt), "ends_at": nullable(s.EndsAt), "room": s.Room,
			"speaker_ids": orEmpty(s.SpeakerIDs), "facets": s.Facets})
	}
	return out
}

func exhibitorItems(b *conference.Bundle) []map[string]any {
	var out []map[string]any
	for _, e := range b.Exhibitors {
		out = append(out, map[string]any{"id": e.ID, "conference": e.ConferenceID, "name": e.Name, "description": e.Description,
			"booth": e.Booth, "website": e.Website, "facets": e.Facets})
	}
	return out
}

func speakerItems(b *conference.Bundle) []map[string]any {
	var out []map[string]any
	for _, p := range b.Speakers {
		out = append(out, map[string]any{"id": p.ID, "conference": p.ConferenceID, "name": p.Name, "job_title": p.JobTitle,
			"company": p.Company, "bio": p.Bio, "session_ids": orEmpty(p.SessionIDs), "facets": p.Facets})
	}
	return out
}

// nullable sends an empty date as null: Directus rejects "" for dates.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func orEmpty(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
}
