package search

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search/lexical"
)

// MinFacetChars is the length below which a facet text counts as empty.
const MinFacetChars = 10

// FacetText is the text of one facet of an entity. Derived is true when the
// bundle did not provide it and it was derived from the entity's other fields.
type FacetText struct {
	Key     string `json:"key"`
	Text    string `json:"text"`
	Derived bool   `json:"derived,omitempty"`
}

// Item is what the agent knows about a search result besides its score: a
// title, a one-line detail (when and where, booth, role) and a summary.
type Item struct {
	Ref
	Title   string `json:"title"`
	Details string `json:"details,omitempty"`
	Summary string `json:"summary,omitempty"`
	// Sentences are the description's (a speaker's biography's), so that
	// an answer can quote the one a question asks about.
	Sentences []string `json:"-"`
	// Website is an exhibitor's; the only links an answer may give.
	Website string      `json:"website,omitempty"`
	Facets  []FacetText `json:"-"`
	// Session is when, where and what kind a session is; nil for
	// exhibitors and speakers.
	Session *Slot `json:"session,omitempty"`
	// Talks are a speaker's sessions.
	Talks []Ref `json:"talks,omitempty"`
	// Speakers are a session's speakers.
	Speakers []Ref `json:"speakers,omitempty"`
}

// Slot is a session's place in the programme.
type Slot struct {
	Starts time.Time `json:"starts_at,omitzero"`
	Ends   time.Time `json:"ends_at,omitzero"`
	Room   string    `json:"room,omitempty"`
	Track  string    `json:"track,omitempty"`
	Format string    `json:"format,omitempty"`
}

// Document is an entity ready to index: its item, the text of its master
// vector, the texts of its facets in schema order, and the fields its
// lexical ranking reads (its own text once, derived facets left out).
type Document struct {
	Item
	MasterText string
	Fields     []lexical.Field
}

// Lexical field weights: a word of an entity's name or title counts twice.
const (
	titleWeight = 2
	bodyWeight  = 1
)

// fields lists an entity's texts for the lexical index: the title, the
// other texts given, and its given facets.
func fields(title string, body []string, facets []FacetText) []lexical.Field {
	out := []lexical.Field{{Text: title, Weight: titleWeight}}
	for _, t := range body {
		if strings.TrimSpace(t) != "" {
			out = append(out, lexical.Field{Text: t, Weight: bodyWeight})
		}
	}
	for _, f := range facets {
		if !f.Derived {
			out = append(out, lexical.Field{Text: f.Text, Weight: bodyWeight})
		}
	}
	return out
}

// Documents builds the search documents of every entity in b. Facets the
// bundle lacks (or gives shorter than MinFacetChars) are derived from the
// entity's other fields; facets nothing supports stay absent, so sparse
// records have fewer facets and a lower coverage.
func Documents(b *conference.Bundle) []Document {
	speakersByID := make(map[string]conference.Speaker, len(b.Speakers))
	for _, p := range b.Speakers {
		speakersByID[p.ID] = p
	}
	talksOf := speakerSessions(b)
	tz := timezones(b)
	docs := make([]Document, 0, len(b.Sessions)+len(b.Exhibitors)+len(b.Speakers))
	for _, s := range b.Sessions {
		docs = append(docs, sessionDocument(s, speakersByID, tz[s.ConferenceID]))
	}
	for _, e := range b.Exhibitors {
		docs = append(docs, exhibitorDocument(e))
	}
	for _, p := range b.Speakers {
		docs = append(docs, speakerDocument(p, talksOf[p.ID]))
	}
	return docs
}

// speakerSessions links each speaker to its sessions, whichever side of the
// bundle lists the link.
func speakerSessions(b *conference.Bundle) map[string][]conference.Session {
	byID := make(map[string]conference.Session, len(b.Sessions))
	for _, s := range b.Sessions {
		byID[s.ID] = s
	}
	out := make(map[string][]conference.Session)
	seen := make(map[[2]string]bool)
	link := func(speaker string, s conference.Session) {
		if k := [2]string{speaker, s.ID}; !seen[k] {
			seen[k] = true
			out[speaker] = append(out[speaker], s)
		}
	}
	for _, s := range b.Sessions {
		for _, p := range s.SpeakerIDs {
			link(p, s)
		}
	}
	for _, p := range b.Speakers {
		for _, id := range p.SessionIDs {
			if s, ok := byID[id]; ok {
				link(p.ID, s)
			}
		}
	}
	for _, talks := range out { // the same text whatever order the records came in
		slices.SortFunc(talks, func(a, b conference.Session) int { return strings.Compare(a.ID, b.ID) })
	}
	return out
}

func timezones(b *conference.Bundle) map[string]*time.Location {
	out := make(map[string]*time.Location)
	for _, c := range b.Conferences {
		if loc, err := time.LoadLocation(c.Timezone); err == nil && c.Timezone != "" {
			out[c.ID] = loc
		}
	}
	return out
}

func sessionDocument(s conference.Session, speakers map[string]conference.Speaker, tz *time.Location) Document {
	var names []string
	var refs []Ref
	for _, id := range s.SpeakerIDs {
		if p, ok := speakers[id]; ok {
			names = append(names, p.Name)
			refs = append(refs, Ref{Conference: s.ConferenceID, Table: Speakers, ID: id})
		}
	}
	summary, sentences := described(s.Description)
	item := Item{
		Ref:       Ref{Conference: s.ConferenceID, Table: Sessions, ID: s.ID},
		Title:     s.Title,
		Details:   sessionDetails(s, names, tz),
		Summary:   summary,
		Sentences: sentences,
		Speakers:  refs,
	}
	item.Facets = facetTexts(Sessions, s.Facets, deriveSession(s))
	item.Session = &Slot{Room: s.Room, Track: s.Track, Format: s.Format}
	item.Session.Starts, _ = time.Parse(time.RFC3339, s.StartsAt)
	item.Session.Ends, _ = time.Parse(time.RFC3339, s.EndsAt)
	master := joinText(s.Title, s.Track, s.Format, s.Description, strings.Join(names, ", "), facetBody(item.Facets))
	fs := append(fields(s.Title, []string{s.Track, s.Description}, item.Facets), lexical.Field{Text: strings.Join(names, ", "), Weight: bodyWeight, Name: true})
	return Document{Item: item, MasterText: master, Fields: fs}
}

func exhibitorDocument(e conference.Exhibitor) Document {
	details := e.Booth
	if details != "" && !strings.HasPrefix(strings.ToLower(details), "booth") {
		details = "Booth " + details // "A-01"; not "Booth Booth 141"
	}
	summary, sentences := described(e.Description)
	item := Item{
		Ref:       Ref{Conference: e.ConferenceID, Table: Exhibitors, ID: e.ID},
		Title:     e.Name,
		Details:   details,
		Summary:   summary,
		Sentences: sentences,
		Website:   e.Website,
	}
	item.Facets = facetTexts(Exhibitors, e.Facets, deriveExhibitor(e))
	return Document{Item: item, MasterText: joinText(e.Name, e.Description, facetBody(item.Facets)), Fields: fields(e.Name, []string{e.Description}, item.Facets)}
}

func speakerDocument(p conference.Speaker, talks []conference.Session) Document {
	titles := make([]string, len(talks))
	for i, s := range talks {
		titles[i] = s.Title
	}
	summary, sentences := described(p.Bio)
	item := Item{
		Ref:       Ref{Conference: p.ConferenceID, Table: Speakers, ID: p.ID},
		Title:     p.Name,
		Details:   joinNonEmpty(", ", p.JobTitle, p.Company),
		Summary:   summary,
		Sentences: sentences,
	}
	for _, s := range talks {
		item.Talks = append(item.Talks, Ref{Conference: s.ConferenceID, Table: Sessions, ID: s.ID})
	}
	item.Facets = facetTexts(Speakers, p.Facets, deriveSpeaker(p, titles))
	master := joinText(p.Name, p.JobTitle, p.Company, p.Bio, strings.Join(titles, ". "), facetBody(item.Facets))
	fs := fields(p.Name, []string{p.JobTitle, p.Company, p.Bio, strings.Join(titles, ". ")}, item.Facets)
	fs[0].Name = true // the title is the speaker's name
	return Document{Item: item, MasterText: master, Fields: fs}
}

// facetTexts merges given and derived facets in schema order, a given facet
// winning when it is long enough to mean something, then the given facets
// the schema does not know, by key: any bundle's own facet names are
// searched too.
func facetTexts(t Table, given, derived map[string]string) []FacetText {
	var out []FacetText
	for _, def := range Facets(t) {
		if text := strings.TrimSpace(given[def.Key]); len(text) >= MinFacetChars {
			out = append(out, FacetText{Key: def.Key, Text: text})
			continue
		}
		if text := strings.TrimSpace(derived[def.Key]); len(text) >= MinFacetChars {
			out = append(out, FacetText{Key: def.Key, Text: text, Derived: true})
		}
	}
	for _, raw := range slices.Sorted(maps.Keys(given)) {
		key := strings.TrimSpace(raw)
		if text := strings.TrimSpace(given[raw]); key != "" && !KnownFacet(t, key) && len(text) >= MinFacetChars {
			out = append(out, FacetText{Key: key, Text: text})
		}
	}
	return out
}

func facetBody(fs []FacetText) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Text
	}
	return strings.Join(parts, " ")
}

// EndLayout is how a session's end is written after its start: the clock
// alone on the same day, else with its own day (a cloakroom open from
// Tuesday to Thursday ends "Thu 14 Oct 17:30", not Tuesday at 17:30).
func EndLayout(start, end time.Time, dated string) string {
	if y, m, d := start.Date(); end.Year() == y && end.Month() == m && end.Day() == d {
		return "15:04"
	}
	return dated
}

func sessionDetails(s conference.Session, speakers []string, tz *time.Location) string {
	when := ""
	if start, err := time.Parse(time.RFC3339, s.StartsAt); err == nil {
		if tz != nil {
			start = start.In(tz)
		}
		when = start.Format("Mon 2 Jan 15:04")
		if end, err := time.Parse(time.RFC3339, s.EndsAt); err == nil {
			if tz != nil {
				end = end.In(tz)
			}
			when += "–" + end.Format(EndLayout(start, end, "Mon 2 Jan 15:04"))
		}
	}
	by := ""
	if len(speakers) > 0 {
		by = "with " + strings.Join(speakers, ", ")
	}
	return joinNonEmpty(" · ", capitalize(s.Format), when, s.Room, by)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func joinNonEmpty(sep string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

// joinText joins non-empty fields into one text, each ending with a period.
func joinText(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p)
		if !strings.HasSuffix(p, ".") {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// String renders a document for debugging.
func (d Document) String() string {
	return fmt.Sprintf("%s %q (%d facets)", d.Key(), d.Title, len(d.Facets))
}
