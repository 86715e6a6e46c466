package conference

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
)

// validator collects every problem of a bundle before it is rejected.
type validator struct {
	problems  []Problem
	undecoded map[string]bool // records already reported as undecodable
}

func (v *validator) add(path, format string, args ...any) {
	v.problems = append(v.problems, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// owners maps an id to its conference for one kind of record.
type owners map[string]string

func (v *validator) check(b *Bundle) {
	confs := v.checkConferences(b.Conferences)
	speakers := v.ids("speakers", len(b.Speakers), func(i int) (string, string) { return b.Speakers[i].ID, b.Speakers[i].ConferenceID })
	sessions := v.ids("sessions", len(b.Sessions), func(i int) (string, string) { return b.Sessions[i].ID, b.Sessions[i].ConferenceID })
	v.ids("exhibitors", len(b.Exhibitors), func(i int) (string, string) { return b.Exhibitors[i].ID, b.Exhibitors[i].ConferenceID })
	for i, s := range b.Sessions {
		v.checkSession(fmt.Sprintf("sessions[%d]", i), s, confs, speakers)
	}
	for i, e := range b.Exhibitors {
		v.checkExhibitor(fmt.Sprintf("exhibitors[%d]", i), e, confs)
	}
	for i, p := range b.Speakers {
		v.checkSpeaker(fmt.Sprintf("speakers[%d]", i), p, confs, sessions)
	}
	v.facetKeys("sessions", len(b.Sessions), func(i int) Facets { return b.Sessions[i].Facets })
	v.facetKeys("exhibitors", len(b.Exhibitors), func(i int) Facets { return b.Exhibitors[i].Facets })
	v.facetKeys("speakers", len(b.Speakers), func(i int) Facets { return b.Speakers[i].Facets })
}

// facetKeys bounds the distinct facet keys of one kind.
func (v *validator) facetKeys(kind string, n int, at func(int) Facets) {
	keys := map[string]bool{}
	for i := range n {
		for k := range at(i) {
			keys[k] = true
		}
	}
	if len(keys) > MaxFacetKeys {
		v.add(kind, "%d distinct facet keys, at most %d", len(keys), MaxFacetKeys)
	}
}

func (v *validator) checkConferences(cs []Conference) map[string]bool {
	known := make(map[string]bool)
	if len(cs) == 0 {
		v.add("conferences", "at least one conference is required")
	}
	for i, c := range cs {
		path := fmt.Sprintf("conferences[%d]", i)
		if v.undecoded[path] {
			continue
		}
		if v.checkID(path, c.ID) && known[c.ID] {
			v.add(path+".id", "duplicate conference id %q", c.ID)
		}
		known[c.ID] = true
		v.required(path+".name", c.Name)
		if c.Timezone != "" {
			if _, err := time.LoadLocation(c.Timezone); err != nil {
				v.add(path+".timezone", "unknown time zone %q", c.Timezone)
			}
		}
		start := v.date(path+".starts_on", c.StartsOn)
		end := v.date(path+".ends_on", c.EndsOn)
		if !start.IsZero() && !end.IsZero() && end.Before(start) {
			v.add(path+".ends_on", "ends before it starts (%s < %s)", c.EndsOn, c.StartsOn)
		}
	}
	return known
}

// ids checks the ids of one kind and returns their owning conferences.
func (v *validator) ids(kind string, n int, at func(int) (id, conf string)) owners {
	seen := make(owners)
	for i := range n {
		path := fmt.Sprintf("%s[%d]", kind, i)
		if v.undecoded[path] {
			continue
		}
		id, conf := at(i)
		if !v.checkID(path, id) {
			continue
		}
		if _, dup := seen[id]; dup {
			v.add(path+".id", "duplicate id %q", id)
			continue
		}
		seen[id] = conf
	}
	return seen
}

func (v *validator) checkID(path, id string) bool {
	switch {
	case strings.TrimSpace(id) == "":
		v.add(path+".id", "required")
		return false
	case !CiteableID(id):
		v.add(path+".id", "%q must not contain spaces, '/', '[' or ']'", id)
		return false
	}
	return true
}

// CiteableID reports whether id can stand in a citation [collection/id]:
// not empty, no white space, '/', '[' or ']'.
func CiteableID(id string) bool {
	return id != "" && !strings.ContainsAny(id, " \t\r\n/[]")
}

func (v *validator) required(path, value string) {
	if strings.TrimSpace(value) == "" {
		v.add(path, "required")
	}
}

func (v *validator) conference(path, id string, confs map[string]bool) {
	switch {
	case strings.TrimSpace(id) == "":
		v.add(path+".conference_id", "required")
	case !confs[id]:
		v.add(path+".conference_id", "unknown conference %q", id)
	}
}

func (v *validator) checkSession(path string, s Session, confs map[string]bool, speakers owners) {
	if v.undecoded[path] {
		return
	}
	v.conference(path, s.ConferenceID, confs)
	v.required(path+".title", s.Title)
	if s.Format != "" && !slices.Contains([]string{FormatTalk, FormatWorkshop, FormatPanel, FormatKeynote, FormatOther}, s.Format) {
		v.add(path+".format", "unknown format %q (want talk, workshop, panel, keynote or other)", s.Format)
	}
	start := v.timestamp(path+".starts_at", s.StartsAt)
	end := v.timestamp(path+".ends_at", s.EndsAt)
	if !start.IsZero() && !end.IsZero() && !end.After(start) {
		v.add(path+".ends_at", "must be after starts_at")
	}
	v.refs(path+".speaker_ids", "speaker", s.SpeakerIDs, s.ConferenceID, speakers)
	v.facets(path, s.Facets)
}

func (v *validator) checkExhibitor(path string, e Exhibitor, confs map[string]bool) {
	if v.undecoded[path] {
		return
	}
	v.conference(path, e.ConferenceID, confs)
	v.required(path+".name", e.Name)
	if e.Website != "" {
		if u, err := url.Parse(e.Website); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			v.add(path+".website", "not an http(s) URL: %q", e.Website)
		}
	}
	v.facets(path, e.Facets)
}

func (v *validator) checkSpeaker(path string, p Speaker, confs map[string]bool, sessions owners) {
	if v.undecoded[path] {
		return
	}
	v.conference(path, p.ConferenceID, confs)
	v.required(path+".name", p.Name)
	v.refs(path+".session_ids", "session", p.SessionIDs, p.ConferenceID, sessions)
	v.facets(path, p.Facets)
}

// refs reports references to unknown ids, to ids of another conference and
// repeated references.
func (v *validator) refs(path, kind string, ids []string, conf string, known owners) {
	seen := make(map[string]bool)
	for i, id := range ids {
		at := fmt.Sprintf("%s[%d]", path, i)
		owner, ok := known[id]
		switch {
		case !ok:
			v.add(at, "unknown %s %q", kind, id)
		case owner != conf:
			v.add(at, "%s %q belongs to conference %q, not %q", kind, id, owner, conf)
		case seen[id]:
			v.add(at, "%s %q listed twice", kind, id)
		}
		seen[id] = true
	}
}

// facets checks facet keys: any key is accepted (contract §2), but it
// must say something.
func (v *validator) facets(path string, facets Facets) {
	for k := range facets {
		if strings.TrimSpace(k) == "" {
			v.add(path+".facets", "a facet key is empty")
		}
	}
}

func (v *validator) date(path, value string) time.Time {
	if value == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.DateOnly, value)
	if err != nil {
		v.add(path, "not a date (YYYY-MM-DD): %q", value)
	}
	return t
}

func (v *validator) timestamp(path, value string) time.Time {
	if value == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, value)
	if err != nil {
		v.add(path, "not an RFC 3339 time with offset: %q", value)
	}
	return t
}
