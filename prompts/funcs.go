package prompts

import (
	"encoding/json"
	"math"
	"text/template"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/when"
)

// funcs are what templates may call. They shape data compactly; json
// escapes '<', '>' and '&', so data cannot close its <data> tag.
var funcs = template.FuncMap{
	"json":    toJSON,
	"history": recent,
	"queries": compactQueries,
	"results": compactResults,
	"companions": func(rs []search.Result) map[search.Table][]search.Result {
		return map[search.Table][]search.Result{search.Exhibitors: rs}
	},
	"lessons": compactLessons,
	"add":     func(a, b int) int { return a + b },
}

// lesson is a remembered reflection round as a model sees it.
type lesson struct {
	ID         string  `json:"id"`
	Failed     string  `json:"failed_search"`
	Failure    string  `json:"failure"`
	Strategy   string  `json:"strategy"`
	Queries    []query `json:"queries_that_recovered"`
	Similarity float64 `json:"similarity"`
}

func compactLessons(rs []memory.Recalled) []lesson {
	out := make([]lesson, len(rs))
	for i, r := range rs {
		out[i] = lesson{ID: r.ID, Failed: r.Text, Failure: r.Failure, Strategy: r.Strategy,
			Queries: compactQueries(r.Queries), Similarity: round2(r.Similarity)}
	}
	return out
}

func toJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// maxTurns and maxTurnChars bound the conversation shown to a model.
const (
	maxTurns     = 6
	maxTurnChars = 400
)

func recent(h []agent.Turn) []agent.Turn {
	if len(h) > maxTurns {
		h = h[len(h)-maxTurns:]
	}
	out := make([]agent.Turn, len(h))
	for i, t := range h {
		if r := []rune(t.Text); len(r) > maxTurnChars {
			t.Text = string(r[:maxTurnChars]) + "…"
		}
		out[i] = t
	}
	return out
}

type query struct {
	Table     search.Table `json:"table"`
	Mode      search.Mode  `json:"search_mode"`
	Text      string       `json:"query_text"`
	Limit     int          `json:"limit"`
	Threshold *float64     `json:"score_threshold,omitempty"`
	Filter    *when.Filter `json:"filter,omitempty"`
}

func compactQueries(qs []search.Query) []query {
	out := make([]query, len(qs))
	for i, q := range qs {
		out[i] = query{Table: q.Table, Mode: q.Mode, Text: q.Text, Limit: q.Limit, Filter: q.Filter}
		if q.Threshold != nil {
			th := round2(float64(*q.Threshold))
			out[i].Threshold = &th
		}
	}
	return out
}

// item is a search result as a model sees it: what to call it, how to cite
// it, how well it matches and, for a session, when and where it is; nothing
// internal.
type item struct {
	Ref      string       `json:"ref"`
	Title    string       `json:"title"`
	Details  string       `json:"details,omitempty"`
	Summary  string       `json:"summary,omitempty"`
	Website  string       `json:"website,omitempty"`
	Session  *search.Slot `json:"session,omitempty"`
	Score    float64      `json:"score"`
	Coverage float64      `json:"coverage"`
	Matched  []string     `json:"matched_on,omitempty"`
}

type table struct {
	Table search.Table `json:"table"`
	Items []item       `json:"items"`
}

func compactResults(rs map[search.Table][]search.Result) []table {
	var out []table
	for _, tb := range search.Tables {
		list, ok := rs[tb]
		if !ok {
			continue
		}
		t := table{Table: tb, Items: []item{}}
		for _, r := range list {
			it := item{Ref: r.Key(), Title: r.Title, Details: r.Details, Summary: r.Summary, Website: r.Website, Session: r.Session,
				Score: round2(float64(r.Score)), Coverage: round2(r.Coverage)}
			for _, m := range r.Matched {
				it.Matched = append(it.Matched, m.Key)
			}
			t.Items = append(t.Items, it)
		}
		out = append(out, t)
	}
	return out
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
