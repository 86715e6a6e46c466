package search

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search/when"
)

// schedule is one conference's sessions in time and place, for filters.
type schedule struct {
	cal      when.Calendar
	sessions []slot
	talksOf  map[string][]int // speaker id → indexes in sessions
	index    map[string]int   // session id → index in sessions
}

type slot struct {
	id                  string
	start, end          time.Time
	room, track, format string
}

// scheduleOf gathers the calendar and the session slots of conference c
// from its documents; talks links each speaker to its sessions, whichever
// side of the bundle lists the link (speakerSessions).
func scheduleOf(c conference.Conference, docs []Document, talks map[string][]conference.Session) *schedule {
	s := &schedule{cal: when.Calendar{Name: c.Name, Venue: strings.TrimSpace(c.Venue), Location: location(c.Timezone)}, talksOf: map[string][]int{}}
	days := map[string]time.Time{}
	index := map[string]int{}
	s.index = index
	for _, d := range docs {
		if d.Session == nil {
			continue
		}
		x := d.Session
		index[d.ID] = len(s.sessions)
		s.sessions = append(s.sessions, slot{id: d.ID, start: x.Starts, end: x.Ends, room: x.Room, track: x.Track, format: x.Format})
		addOnce(&s.cal.Rooms, x.Room)
		addOnce(&s.cal.Tracks, x.Track)
		if landmark(x.Format) && !x.Starts.IsZero() && !x.Ends.IsZero() {
			s.cal.Landmarks = append(s.cal.Landmarks, when.Landmark{Title: landmarkTitle(d.Title, x.Format), Start: x.Starts, End: x.Ends, Format: x.Format})
		}
		s.cal.Opening, s.cal.Closing = bounds(s.cal.Opening, s.cal.Closing, d.Title, x)
		if x.Format != "" && x.Format != "other" {
			s.cal.LastTalk = latest(s.cal.LastTalk, d.Title, x)
		}
		if !x.Starts.IsZero() {
			day := x.Starts.In(s.cal.Location)
			days[day.Format(time.DateOnly)] = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, s.cal.Location)
		}
	}
	for speaker, sessions := range talks {
		for _, x := range sessions {
			if i, ok := index[x.ID]; ok {
				s.talksOf[speaker] = append(s.talksOf[speaker], i)
			}
		}
	}
	s.cal.Days = conferenceDays(c, s.cal.Location, days)
	s.cal.Hours = dayHours(s.sessions, s.cal.Location)
	s.cal.Uses = when.Uses(entryTexts(docs))
	return s
}

// bounds keeps the programme's first session (by start) and last (by end)
// as x, titled title, is read; a session without both times is left out.
func bounds(first, last when.Landmark, title string, x *Slot) (when.Landmark, when.Landmark) {
	if x.Starts.IsZero() || x.Ends.IsZero() {
		return first, last
	}
	if first.Start.IsZero() || x.Starts.Before(first.Start) {
		first = when.Landmark{Title: title, Start: x.Starts, End: x.Ends, Format: x.Format}
	}
	return first, latest(last, title, x)
}

// latest keeps the session that ends last, as x, titled title, is read; a
// session without both times is left out.
func latest(last when.Landmark, title string, x *Slot) when.Landmark {
	if x.Starts.IsZero() || x.Ends.IsZero() || !last.End.IsZero() && !x.Ends.After(last.End) {
		return last
	}
	return when.Landmark{Title: title, Start: x.Starts, End: x.Ends, Format: x.Format}
}

// dayHours are each day's first start and last end among sessions, by day
// in loc, in order.
func dayHours(sessions []slot, loc *time.Location) []when.Span {
	byDay := map[string]when.Span{}
	for _, x := range sessions {
		if x.start.IsZero() || x.end.IsZero() {
			continue
		}
		key := x.start.In(loc).Format(time.DateOnly)
		h, ok := byDay[key]
		if !ok || x.start.Before(h.From) {
			h.From = x.start
		}
		if !ok || x.end.After(h.To) {
			h.To = x.end
		}
		byDay[key] = h
	}
	out := slices.Collect(maps.Values(byDay))
	slices.SortFunc(out, func(a, b when.Span) int { return a.From.Compare(b.From) })
	return out
}

// entryTexts are the texts of the programme's sessions, one per session:
// a speaker's entry repeats its talks' titles and exhibitors say where
// their stand is ("at the exhibition"), so only sessions tell what topics
// a word is used for.
func entryTexts(docs []Document) []string {
	out := make([]string, 0, len(docs))
	for _, d := range docs {
		if d.Session == nil {
			continue
		}
		var b strings.Builder
		for _, f := range d.Fields {
			b.WriteString(f.Text)
			b.WriteString(" ")
		}
		out = append(out, b.String())
	}
	return out
}

// landmark reports whether sessions of a format can be landmarks: keynotes,
// and breaks, meals and receptions (other or no format), not talks.
func landmark(format string) bool {
	return format == conference.FormatKeynote || format == conference.FormatOther || format == ""
}

// landmarkTitle is how a session is named as a landmark: a keynote by the
// word too, whatever its title says.
func landmarkTitle(title, format string) string {
	if format == conference.FormatKeynote {
		return "keynote " + title
	}
	return title
}

// conferenceDays are the days from starts_on to ends_on, or the days its
// sessions start on when the conference does not say.
func conferenceDays(c conference.Conference, loc *time.Location, fromSessions map[string]time.Time) []time.Time {
	first, err1 := time.ParseInLocation(time.DateOnly, c.StartsOn, loc)
	last, err2 := time.ParseInLocation(time.DateOnly, c.EndsOn, loc)
	var out []time.Time
	if err1 == nil && err2 == nil && !last.Before(first) && last.Sub(first) < 60*24*time.Hour {
		for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
			out = append(out, d)
		}
		return out
	}
	for _, d := range fromSessions {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return out
}

func location(tz string) *time.Location {
	if loc, err := time.LoadLocation(tz); err == nil && tz != "" {
		return loc
	}
	return time.UTC
}

func addOnce(list *[]string, s string) {
	if s != "" && !slices.Contains(*list, s) {
		*list = append(*list, s)
	}
}

// allowed lists the ids of table tb that a filter keeps: the matching
// sessions, and the speakers of matching sessions. It returns nil (no
// restriction) for a nil or empty filter and for exhibitors, which have no
// schedule.
func (s *schedule) allowed(tb Table, f *when.Filter) map[string]bool {
	if s == nil || f == nil || f.IsZero() || tb == Exhibitors {
		return nil
	}
	keep := f.Apply(len(s.sessions), func(i int) (time.Time, time.Time, string, string, string) {
		x := s.sessions[i]
		return x.start, x.end, x.room, x.track, x.format
	})
	out := map[string]bool{}
	if tb == Sessions {
		for _, i := range keep {
			out[s.sessions[i].id] = true
		}
		return out
	}
	kept := make([]bool, len(s.sessions))
	for _, i := range keep {
		kept[i] = true
	}
	for speaker, talks := range s.talksOf {
		if slices.ContainsFunc(talks, func(i int) bool { return kept[i] }) {
			out[speaker] = true
		}
	}
	return out
}

// start is when a session starts, zero when unknown (or not a session).
func (s *schedule) start(id string) time.Time {
	if i, ok := s.index[id]; ok {
		return s.sessions[i].start
	}
	return time.Time{}
}
