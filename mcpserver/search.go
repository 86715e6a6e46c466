package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/when"
)

// Limits of the search tool.
const (
	defaultLimit = 10
	maxLimit     = 25
	maxQuery     = 500 // characters of query text
)

// SearchInput is search's input.
type SearchInput struct {
	Table        string `json:"table" jsonschema:"sessions, exhibitors or speakers"`
	Query        string `json:"query,omitempty" jsonschema:"what to look for; may be empty when a filter is given"`
	ConferenceID string `json:"conference_id" jsonschema:"the conference's id, from list_conferences"`
	From         string `json:"from,omitempty" jsonschema:"sessions starting at or after this time (RFC 3339)"`
	To           string `json:"to,omitempty" jsonschema:"sessions starting before this time (RFC 3339)"`
	Room         string `json:"room,omitempty" jsonschema:"only sessions in this room"`
	Track        string `json:"track,omitempty" jsonschema:"only sessions of this track"`
	Format       string `json:"format,omitempty" jsonschema:"only sessions of this format: talk, workshop, panel, keynote or other"`
	Limit        int    `json:"limit,omitempty" jsonschema:"at most this many items, 1 to 25 (default 10)"`
}

// Item is one search result.
type Item struct {
	Table   string  `json:"table"`
	ID      string  `json:"id"`
	Title   string  `json:"title"`
	Details string  `json:"details,omitempty"`
	Summary string  `json:"summary,omitempty"`
	Website string  `json:"website,omitempty"`
	Score   float32 `json:"score" jsonschema:"0 to 1; 1 for items a filter alone selected"`
	// A session's time and place.
	StartsAt string `json:"starts_at,omitempty"`
	EndsAt   string `json:"ends_at,omitempty"`
	Room     string `json:"room,omitempty"`
	Track    string `json:"track,omitempty"`
	Format   string `json:"format,omitempty"`
}

// Items is search's result.
type Items struct {
	Items []Item `json:"items"`
}

func (t *tools) search(ctx context.Context, req *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, Items, error) {
	tb := search.Table(in.Table)
	if !tb.Valid() {
		return nil, Items{}, fmt.Errorf("unknown table %q; use sessions, exhibitors or speakers", in.Table)
	}
	limit := in.Limit
	if limit == 0 {
		limit = defaultLimit
	}
	if limit < 1 || limit > maxLimit {
		return nil, Items{}, fmt.Errorf("limit %d is outside 1..%d", in.Limit, maxLimit)
	}
	if len(in.Query) > maxQuery {
		return nil, Items{}, fmt.Errorf("query is longer than %d characters", maxQuery)
	}
	if err := t.conference(ctx, req, in.ConferenceID); err != nil {
		return nil, Items{}, err
	}
	f, err := t.filter(in.ConferenceID, in.From, in.To, in.Room, in.Track, in.Format)
	if err != nil {
		return nil, Items{}, err
	}
	switch {
	case f != nil && tb == search.Exhibitors:
		return nil, Items{}, errors.New("from, to, room, track and format filter sessions and speakers, not exhibitors")
	case f == nil && strings.TrimSpace(in.Query) == "":
		return nil, Items{}, errors.New("query is required unless a filter (from, to, room, track, format) is given")
	}
	rs, err := t.opts.Engine.Search(ctx, in.ConferenceID, search.Query{Table: tb, Mode: search.Faceted, Text: in.Query, Limit: limit, Filter: f})
	if err != nil {
		return nil, Items{}, t.searchFailed(err)
	}
	return nil, Items{Items: items(rs)}, nil
}

// WhatsOnInput is whats_on's input.
type WhatsOnInput struct {
	ConferenceID string `json:"conference_id" jsonschema:"the conference's id, from list_conferences"`
	From         string `json:"from,omitempty" jsonschema:"start of the window (RFC 3339); default now"`
	To           string `json:"to,omitempty" jsonschema:"end of the window (RFC 3339); default 2 hours after from"`
	Room         string `json:"room,omitempty" jsonschema:"only sessions in this room"`
	Track        string `json:"track,omitempty" jsonschema:"only sessions of this track"`
}

// Schedule is whats_on's result.
type Schedule struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Sessions []Item `json:"sessions" jsonschema:"the sessions starting in [from, to), in time order, at most 50"`
}

// window is whats_on's default span.
const window = 2 * time.Hour

func (t *tools) whatsOn(ctx context.Context, req *mcp.CallToolRequest, in WhatsOnInput) (*mcp.CallToolResult, Schedule, error) {
	if err := t.conference(ctx, req, in.ConferenceID); err != nil {
		return nil, Schedule{}, err
	}
	from, err := instant("from", in.From)
	if err != nil {
		return nil, Schedule{}, err
	}
	to, err := instant("to", in.To)
	if err != nil {
		return nil, Schedule{}, err
	}
	if from.IsZero() {
		from = t.opts.Now()
	}
	if to.IsZero() {
		to = from.Add(window)
	}
	if !to.After(from) {
		return nil, Schedule{}, errors.New("to must be after from")
	}
	f, err := t.filter(in.ConferenceID, from.Format(time.RFC3339), to.Format(time.RFC3339), in.Room, in.Track, "")
	if err != nil {
		return nil, Schedule{}, err
	}
	rs, err := t.opts.Engine.Search(ctx, in.ConferenceID, search.Query{Table: search.Sessions, Mode: search.Faceted, Limit: search.MaxLimit, Filter: f})
	if err != nil {
		return nil, Schedule{}, t.searchFailed(err)
	}
	out := items(rs)
	slices.SortStableFunc(out, func(a, b Item) int { return strings.Compare(a.StartsAt, b.StartsAt) })
	return nil, Schedule{From: from.Format(time.RFC3339), To: to.Format(time.RFC3339), Sessions: out}, nil
}

// filter builds a search filter from the tools' filter arguments, checking
// rooms and tracks against the conference's calendar; nil when none is given.
func (t *tools) filter(conf, from, to, room, track, format string) (*when.Filter, error) {
	var f when.Filter
	var err error
	if f.From, err = instant("from", from); err != nil {
		return nil, err
	}
	if f.To, err = instant("to", to); err != nil {
		return nil, err
	}
	if !f.From.IsZero() && !f.To.IsZero() && !f.To.After(f.From) {
		return nil, errors.New("to must be after from")
	}
	cal := t.opts.Engine.Calendar(conf)
	if room != "" {
		r, err := oneOf("room", room, cal.Rooms)
		if err != nil {
			return nil, err
		}
		f.Rooms = []string{r}
	}
	if track != "" {
		tr, err := oneOf("track", track, cal.Tracks)
		if err != nil {
			return nil, err
		}
		f.Tracks = []string{tr}
	}
	if format != "" {
		fm, err := oneOf("format", format, []string{conference.FormatTalk, conference.FormatWorkshop, conference.FormatPanel, conference.FormatKeynote, conference.FormatOther})
		if err != nil {
			return nil, err
		}
		f.Formats = []string{fm}
	}
	if f.IsZero() {
		return nil, nil
	}
	return &f, nil
}

// instant reads an RFC 3339 time; "" is the zero time.
func instant(name, v string) (time.Time, error) {
	if strings.TrimSpace(v) == "" {
		return time.Time{}, nil
	}
	ts, err := time.Parse(time.RFC3339, strings.TrimSpace(v))
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %q is not an RFC 3339 time such as 2026-03-18T09:00:00+01:00", name, v)
	}
	return ts, nil
}

// oneOf finds v among known, ignoring case.
func oneOf(name, v string, known []string) (string, error) {
	i := slices.IndexFunc(known, func(k string) bool { return strings.EqualFold(k, strings.TrimSpace(v)) })
	if i < 0 {
		return "", fmt.Errorf("unknown %s %q; known: %s", name, v, strings.Join(known, ", "))
	}
	return known[i], nil
}

func (t *tools) searchFailed(err error) error {
	if errors.Is(err, search.ErrInvalidQuery) {
		return errors.New(strings.TrimPrefix(err.Error(), "search: "))
	}
	t.log.Error("mcp: search failed", "err", err)
	return errors.New("the search failed; please try again")
}

func items(rs []search.Result) []Item {
	out := make([]Item, 0, len(rs))
	for _, r := range rs {
		it := Item{Table: string(r.Table), ID: r.ID, Title: r.Title, Details: r.Details, Summary: r.Summary, Website: r.Website, Score: r.Score}
		if s := r.Session; s != nil {
			if !s.Starts.IsZero() {
				it.StartsAt = s.Starts.Format(time.RFC3339)
			}
			if !s.Ends.IsZero() {
				it.EndsAt = s.Ends.Format(time.RFC3339)
			}
			it.Room, it.Track, it.Format = s.Room, s.Track, s.Format
		}
		out = append(out, it)
	}
	return out
}
