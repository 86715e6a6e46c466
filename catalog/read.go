package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/directus"
)

// Items as Directus returns them: the m2o "conference" field holds the id.
type (
	confItem struct {
		ID       string  `json:"id"`
		Name     string  `json:"name"`
		Timezone *string `json:"timezone"`
		Venue    *string `json:"venue"`
		StartsOn *string `json:"starts_on"`
		EndsOn   *string `json:"ends_on"`
	}
	sessionItem struct {
		ID          string    `json:"id"`
		Conference  string    `json:"conference"`
		Title       string    `json:"title"`
		Description *string   `json:"description"`
		Track       *string   `json:"track"`
		Format      *string   `json:"format"`
		StartsAt    *string   `json:"starts_at"`
		EndsAt      *string   `json:"ends_at"`
		Room        *string   `json:"room"`
		SpeakerIDs  []string  `json:"speaker_ids"`
		Facets      rawFacets `json:"facets"`
	}
	exhibitorItem struct {
		ID          string    `json:"id"`
		Conference  string    `json:"conference"`
		Name        string    `json:"name"`
		Description *string   `json:"description"`
		Booth       *string   `json:"booth"`
		Website     *string   `json:"website"`
		Facets      rawFacets `json:"facets"`
	}
	speakerItem struct {
		ID         string    `json:"id"`
		Conference string    `json:"conference"`
		Name       string    `json:"name"`
		JobTitle   *string   `json:"job_title"`
		Company    *string   `json:"company"`
		Bio        *string   `json:"bio"`
		SessionIDs []string  `json:"session_ids"`
		Facets     rawFacets `json:"facets"`
	}
)

// rawFacets defers facet values: a bad one is dropped with a warning
// instead of failing the whole read.
type rawFacets map[string]json.RawMessage

func s(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// read fetches conferences ids (all when empty) with their entities.
func (k *Catalog) read(ctx context.Context, ids []string) (*conference.Bundle, []string, error) {
	var confs []confItem
	var sessions []sessionItem
	var exhibitors []exhibitorItem
	var speakers []speakerItem
	reads := []struct {
		coll, key string
		dst       any
	}{{"conferences", "id", &confs}, {"sessions", "conference", &sessions}, {"exhibitors", "conference", &exhibitors}, {"speakers", "conference", &speakers}}
	for _, r := range reads {
		q := directus.Query{Fields: []string{"*"}, Sort: []string{"id"}}
		if len(ids) > 0 {
			q.Filter = map[string]any{r.key: map[string]any{"_in": ids}}
		}
		if err := k.c.ReadAll(ctx, r.coll, q, r.dst); err != nil {
			return nil, nil, fmt.Errorf("catalog: read %s: %w", r.coll, err)
		}
	}
	b := &conference.Bundle{}
	var problems []string
	for _, c := range confs {
		b.Conferences = append(b.Conferences, conference.Conference{ID: c.ID, Name: c.Name, Timezone: s(c.Timezone), Venue: s(c.Venue), StartsOn: s(c.StartsOn), EndsOn: s(c.EndsOn)})
	}
	for _, it := range sessions {
		b.Sessions = append(b.Sessions, conference.Session{ID: it.ID, ConferenceID: it.Conference, Title: it.Title, Description: s(it.Description),
			Track: s(it.Track), Format: s(it.Format), StartsAt: s(it.StartsAt), EndsAt: s(it.EndsAt), Room: s(it.Room), SpeakerIDs: it.SpeakerIDs, Facets: facetsOf(&problems, "sessions/"+it.ID, it.Facets)})
	}
	for _, it := range exhibitors {
		b.Exhibitors = append(b.Exhibitors, conference.Exhibitor{ID: it.ID, ConferenceID: it.Conference, Name: it.Name, Description: s(it.Description),
			Booth: s(it.Booth), Website: s(it.Website), Facets: facetsOf(&problems, "exhibitors/"+it.ID, it.Facets)})
	}
	for _, it := range speakers {
		b.Speakers = append(b.Speakers, conference.Speaker{ID: it.ID, ConferenceID: it.Conference, Name: it.Name, JobTitle: s(it.JobTitle),
			Company: s(it.Company), Bio: s(it.Bio), SessionIDs: it.SessionIDs, Facets: facetsOf(&problems, "speakers/"+it.ID, it.Facets)})
	}
	problems = append(problems, sanitize(b)...)
	return b, problems, nil
}

// facetsOf converts an item's facets as a bundle file's are converted,
// dropping values that are not texts.
func facetsOf(problems *[]string, where string, raw rawFacets) conference.Facets {
	if _, ok := raw[""]; ok { // a file with one is refused; here the key alone goes
		delete(raw, "")
		*problems = append(*problems, where+": a facet key is empty")
	}
	f, bad := conference.ParseFacets(raw)
	for _, p := range bad {
		*problems = append(*problems, where+": "+p)
	}
	return f
}

// sanitize drops what would break search rather than refusing the data:
// entities of unknown conferences and references to unknown entities. It
// returns what it dropped.
func sanitize(b *conference.Bundle) []string {
	var problems []string
	known := map[string]bool{}
	for _, c := range b.Conferences {
		known[c.ID] = true
	}
	speakers, sessions := map[string]bool{}, map[string]bool{}
	for _, p := range b.Speakers {
		speakers[p.ID] = true
	}
	for _, x := range b.Sessions {
		sessions[x.ID] = true
	}
	b.Sessions = slices.DeleteFunc(b.Sessions, func(x conference.Session) bool { return !keep(&problems, known, "sessions", x.ID, x.ConferenceID) })
	b.Exhibitors = slices.DeleteFunc(b.Exhibitors, func(x conference.Exhibitor) bool { return !keep(&problems, known, "exhibitors", x.ID, x.ConferenceID) })
	b.Speakers = slices.DeleteFunc(b.Speakers, func(x conference.Speaker) bool { return !keep(&problems, known, "speakers", x.ID, x.ConferenceID) })
	for i := range b.Sessions {
		b.Sessions[i].SpeakerIDs = refs(&problems, "sessions/"+b.Sessions[i].ID, b.Sessions[i].SpeakerIDs, speakers)
	}
	for i := range b.Speakers {
		b.Speakers[i].SessionIDs = refs(&problems, "speakers/"+b.Speakers[i].ID, b.Speakers[i].SessionIDs, sessions)
	}
	return problems
}

func keep(problems *[]string, known map[string]bool, kind, id, conf string) bool {
	switch {
	case !conference.CiteableID(id):
		*problems = append(*problems, fmt.Sprintf("%s %q: an id must not be empty or contain spaces, '/', '[' or ']'", kind, id))
	case !known[conf]:
		*problems = append(*problems, fmt.Sprintf("%s/%s: conference %q is not loaded", kind, id, conf))
	default:
		return true
	}
	return false
}

func refs(problems *[]string, where string, ids []string, known map[string]bool) []string {
	return slices.DeleteFunc(slices.Clone(ids), func(id string) bool {
		if known[id] {
			return false
		}
		*problems = append(*problems, fmt.Sprintf("%s: unknown reference %q", where, id))
		return true
	})
}

// conferencesOf reads the conference ids of a create or update event.
func conferencesOf(e directus.Event) []string {
	var items []map[string]any
	if json.Unmarshal(e.Data, &items) != nil {
		return []string{"*"}
	}
	var out []string
	for _, it := range items {
		switch {
		case e.UID == "catalog-conferences":
			out = append(out, fmt.Sprint(it["id"]))
		case it["conference"] != nil:
			out = append(out, fmt.Sprint(it["conference"]))
		default:
			out = append(out, "*") // an update without its conference: reload everything
		}
	}
	return out
}
