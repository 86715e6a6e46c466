// Package conference holds conference bundles: the conferences, sessions,
// exhibitors and speakers the agent answers about (contract §2). It parses
// and validates bundle files, rejecting a bad file whole with every problem
// and its location, and embeds the demo bundle compiled into the binary.
//
// A Bundle is immutable after Parse returns and safe for concurrent reads.
package conference

// Conference is one event.
type Conference struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Timezone string `json:"timezone,omitempty"`
	Venue    string `json:"venue,omitempty"`
	StartsOn string `json:"starts_on,omitempty"`
	EndsOn   string `json:"ends_on,omitempty"`
}

// Session formats.
const (
	FormatTalk     = "talk"
	FormatWorkshop = "workshop"
	FormatPanel    = "panel"
	FormatKeynote  = "keynote"
	FormatOther    = "other"
)

// Session is a talk, workshop, panel, keynote or other programme item.
type Session struct {
	ID           string   `json:"id"`
	ConferenceID string   `json:"conference_id"`
	Title        string   `json:"title"`
	Description  string   `json:"description,omitempty"`
	Track        string   `json:"track,omitempty"`
	Format       string   `json:"format,omitempty"`
	StartsAt     string   `json:"starts_at,omitempty"`
	EndsAt       string   `json:"ends_at,omitempty"`
	Room         string   `json:"room,omitempty"`
	SpeakerIDs   []string `json:"speaker_ids,omitempty"`
	Facets       Facets   `json:"facets,omitempty"`
}

// Exhibitor is a company or organisation with a booth.
type Exhibitor struct {
	ID           string `json:"id"`
	ConferenceID string `json:"conference_id"`
	Name         string `json:"name"`
	Description  string `json:"description,omitempty"`
	Booth        string `json:"booth,omitempty"`
	Website      string `json:"website,omitempty"`
	Facets       Facets `json:"facets,omitempty"`
}

// Speaker is a person speaking at (or available during) a conference.
type Speaker struct {
	ID           string   `json:"id"`
	ConferenceID string   `json:"conference_id"`
	Name         string   `json:"name"`
	JobTitle     string   `json:"job_title,omitempty"`
	Company      string   `json:"company,omitempty"`
	Bio          string   `json:"bio,omitempty"`
	SessionIDs   []string `json:"session_ids,omitempty"`
	Facets       Facets   `json:"facets,omitempty"`
}

// Bundle is a validated set of conferences and their entities.
type Bundle struct {
	Conferences []Conference `json:"conferences"`
	Sessions    []Session    `json:"sessions"`
	Exhibitors  []Exhibitor  `json:"exhibitors"`
	Speakers    []Speaker    `json:"speakers"`
}

// Conference returns the conference with the given id.
func (b *Bundle) Conference(id string) (Conference, bool) {
	for _, c := range b.Conferences {
		if c.ID == id {
			return c, true
		}
	}
	return Conference{}, false
}

// ConferenceIDs lists the ids of the bundle's conferences in file order.
func (b *Bundle) ConferenceIDs() []string {
	ids := make([]string, len(b.Conferences))
	for i, c := range b.Conferences {
		ids[i] = c.ID
	}
	return ids
}

// Of returns the part of the bundle that belongs to conference id, with the
// same record order.
func (b *Bundle) Of(id string) *Bundle {
	out := &Bundle{}
	for _, c := range b.Conferences {
		if c.ID == id {
			out.Conferences = append(out.Conferences, c)
		}
	}
	for _, s := range b.Sessions {
		if s.ConferenceID == id {
			out.Sessions = append(out.Sessions, s)
		}
	}
	for _, e := range b.Exhibitors {
		if e.ConferenceID == id {
			out.Exhibitors = append(out.Exhibitors, e)
		}
	}
	for _, p := range b.Speakers {
		if p.ConferenceID == id {
			out.Speakers = append(out.Speakers, p)
		}
	}
	return out
}
