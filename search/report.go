package search

import (
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
)

// LoadReport says what one Load indexed, per conference.
type LoadReport struct {
	Conferences []ConferenceReport `json:"conferences"`
}

// ConferenceReport counts one conference's entities and where their facets
// came from: given under the schema's keys, given under the bundle's own
// keys (indexed with DefaultFacetWeight), or derived from other fields.
type ConferenceReport struct {
	ID       string         `json:"id"`
	Entities map[Table]int  `json:"entities"`
	Given    int            `json:"given_facets"`
	Derived  int            `json:"derived_facets"`
	Own      map[string]int `json:"own_facet_keys"` // key → entities carrying it
	Bare     int            `json:"entities_without_facets"`
	// Unchanged counts the entities a Stored index already held with the
	// same content, so they were not written again.
	Unchanged int `json:"unchanged"`
}

// Log writes one line per conference.
func (r LoadReport) Log(log *slog.Logger) {
	for _, c := range r.Conferences {
		log.Info("conference indexed", "summary", c.String())
	}
}

// report describes docs, one conference each in ids order.
func report(ids []string, docs []Document) LoadReport {
	byID := map[string]*ConferenceReport{}
	var out LoadReport
	for _, id := range ids {
		out.Conferences = append(out.Conferences, ConferenceReport{ID: id, Entities: map[Table]int{}, Own: map[string]int{}})
	}
	for i := range out.Conferences {
		byID[out.Conferences[i].ID] = &out.Conferences[i]
	}
	for _, d := range docs {
		if c := byID[d.Conference]; c != nil {
			c.add(d)
		}
	}
	return out
}

func (c *ConferenceReport) add(d Document) {
	c.Entities[d.Table]++
	if len(d.Facets) == 0 {
		c.Bare++
	}
	for _, f := range d.Facets {
		switch {
		case f.Derived:
			c.Derived++
		case KnownFacet(d.Table, f.Key):
			c.Given++
		default: // given under the bundle's own key
			c.Given++
			c.Own[f.Key]++
		}
	}
}

// String is the report's one log line: "c1: 88 sessions, 36 exhibitors,
// 65 speakers; facets 212 given, 301 derived; own keys indexed with the
// default weight: theme (47), talks_about (33)".
func (c ConferenceReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d sessions, %d exhibitors, %d speakers; facets %d given, %d derived",
		c.ID, c.Entities[Sessions], c.Entities[Exhibitors], c.Entities[Speakers], c.Given, c.Derived)
	if c.Bare > 0 {
		fmt.Fprintf(&b, ", %d entities without any", c.Bare)
	}
	if c.Unchanged > 0 {
		fmt.Fprintf(&b, "; %d unchanged in the index, not written again", c.Unchanged)
	}
	if len(c.Own) > 0 {
		var keys []string
		for _, k := range slices.Sorted(maps.Keys(c.Own)) {
			keys = append(keys, fmt.Sprintf("%s (%d)", k, c.Own[k]))
		}
		b.WriteString("; own keys indexed with the default weight: " + strings.Join(keys, ", "))
	}
	return b.String()
}
