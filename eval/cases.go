// Package eval measures the agent on evaluation cases (contract §3): how
// often the first search already finds a relevant item, how often reflection
// rescues a failed first search compared with mechanical relaxation, and how
// honest the answers' citations are (contract §4).
//
// It embeds the project's public evaluation set over the demo bundle.
package eval

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
)

// Case is one evaluation question with every item a good answer may
// recommend. All-empty Relevant means nothing in the conference answers it.
type Case struct {
	ID           string                    `json:"id"`
	ConferenceID string                    `json:"conference_id"`
	Message      string                    `json:"message"`
	Relevant     map[search.Table][]string `json:"relevant"`
	// Kind labels the case for per-kind figures (direct, jargon, time,
	// impossible…); optional. Category is its older name, still read.
	Kind     string `json:"kind,omitempty"`
	Category string `json:"category,omitempty"`
	// Now is the clock the question is asked at (RFC 3339), for time
	// questions; optional.
	Now     string        `json:"now,omitempty"`
	History []HistoryTurn `json:"history,omitempty"`
	Note    string        `json:"note,omitempty"`
}

// HistoryTurn is one earlier turn of the conversation a case continues.
type HistoryTurn struct {
	Role  string   `json:"role"`
	Text  string   `json:"text"`
	Cited []string `json:"cited,omitempty"`
}

// KindOf is the case's kind, its category when it has no kind, or
// "unlabelled".
func (c Case) KindOf() string {
	switch {
	case c.Kind != "":
		return c.Kind
	case c.Category != "":
		return c.Category
	}
	return "unlabelled"
}

// history is the case's earlier turns as the agent takes them.
func (c Case) history() []agent.Turn {
	var out []agent.Turn
	for _, h := range c.History {
		t := agent.Turn{Role: h.Role, Text: h.Text}
		for _, k := range h.Cited {
			tb, id, _ := strings.Cut(k, "/")
			t.Citations = append(t.Citations, agent.Citation{Collection: search.Table(tb), ID: id})
		}
		out = append(out, t)
	}
	return out
}

// Clock is the case's Now, or the zero time when it has none.
func (c Case) Clock() time.Time {
	t, _ := time.Parse(time.RFC3339, c.Now)
	return t
}

// Answerable reports whether some item answers the case.
func (c Case) Answerable() bool {
	for _, ids := range c.Relevant {
		if len(ids) > 0 {
			return true
		}
	}
	return false
}

// relevant returns the case's items as "table/id" keys.
func (c Case) relevant() map[string]bool {
	out := map[string]bool{}
	for tb, ids := range c.Relevant {
		for _, id := range ids {
			out[search.Ref{Table: tb, ID: id}.Key()] = true
		}
	}
	return out
}

//go:embed demo_cases.jsonl
var demoCases []byte

// DemoCases parses the public evaluation set over the demo bundle.
func DemoCases() ([]Case, error) { return ParseCases(bytes.NewReader(demoCases)) }

// ParseCases reads JSON Lines, one case per line; blank lines are skipped.
// Every bad line is reported, with its number, in one error.
func ParseCases(r io.Reader) ([]Case, error) {
	var cases []Case
	var problems []string
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		c, err := parseCase(line)
		if err == nil && seen[c.ID] > 0 {
			err = fmt.Errorf("duplicate id %q (first on line %d)", c.ID, seen[c.ID])
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("line %d: %v", n, err))
			continue
		}
		seen[c.ID] = n
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: read cases: %w", err)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("eval: invalid cases:\n  %s", strings.Join(problems, "\n  "))
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("eval: no cases")
	}
	return cases, nil
}

func parseCase(line string) (Case, error) {
	var c Case
	if err := json.Unmarshal([]byte(line), &c); err != nil {
		return c, err
	}
	switch {
	case strings.TrimSpace(c.ID) == "":
		return c, fmt.Errorf("id is required")
	case c.ConferenceID == "":
		return c, fmt.Errorf("conference_id is required")
	case strings.TrimSpace(c.Message) == "":
		return c, fmt.Errorf("message is required")
	}
	if c.Now != "" {
		if _, err := time.Parse(time.RFC3339, c.Now); err != nil {
			return c, fmt.Errorf("now: not an RFC 3339 time with offset: %q", c.Now)
		}
	}
	for i, h := range c.History {
		if h.Role != "user" && h.Role != "assistant" {
			return c, fmt.Errorf("history[%d].role: want user or assistant, got %q", i, h.Role)
		}
	}
	for tb := range c.Relevant {
		if !tb.Valid() {
			return c, fmt.Errorf("relevant: unknown table %q", tb)
		}
	}
	return c, nil
}

// Check reports cases that name a conference or a relevant item the bundle
// does not have, or an item of another conference.
func Check(cases []Case, b *conference.Bundle) error {
	owner := map[string]string{}
	for _, d := range search.Documents(b) {
		owner[d.Key()] = d.Conference
	}
	var problems []string
	for _, c := range cases {
		if _, ok := b.Conference(c.ConferenceID); !ok {
			problems = append(problems, fmt.Sprintf("%s: unknown conference %q", c.ID, c.ConferenceID))
			continue
		}
		for key := range c.relevant() {
			if conf, ok := owner[key]; !ok {
				problems = append(problems, fmt.Sprintf("%s: unknown relevant item %s", c.ID, key))
			} else if conf != c.ConferenceID {
				problems = append(problems, fmt.Sprintf("%s: relevant item %s belongs to %s", c.ID, key, conf))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("eval: cases do not match the bundle:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}
