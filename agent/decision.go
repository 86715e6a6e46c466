package agent

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/erleah/erleah-agent/search"
)

// Decision is a reflection decision as the model returns it.
type Decision struct {
	Reasoning   string         `json:"reasoning"`
	Strategy    Strategy       `json:"strategy"`
	UserMessage string         `json:"user_message"`
	NewQueries  []search.Query `json:"new_queries"`
	// Recalled, optional, names the remembered lessons the decision
	// follows (their ids, from what_worked_before).
	Recalled []string `json:"recalled,omitempty"`
	// IgnoredKeys are the reply's keys the agent does not know.
	IgnoredKeys []string `json:"-"`
}

// The validation checks a model's JSON reply goes through, in order (plans
// and decisions all of them, evaluations the first three and CheckScores).
// The first that fails names the ValidationError.
const (
	CheckPresent    = "present"
	CheckWellFormed = "well_formed"
	CheckRequired   = "required_fields"
	CheckStrategy   = "strategy"
	CheckTables     = "tables_and_modes"
	CheckLimits     = "limits"
	CheckQueryText  = "query_text"
	CheckScores     = "scores"
)

// ValidationError says which check rejected a reply and why.
type ValidationError struct {
	Check  string
	Reason string
}

func (e *ValidationError) Error() string { return "reply failed check " + e.Check + ": " + e.Reason }

func invalid(check, format string, args ...any) error {
	return &ValidationError{Check: check, Reason: fmt.Sprintf(format, args...)}
}

// ParseDecision decodes a model's reflection reply and validates it in
// order: present, well-formed, required fields, strategy, tables and modes,
// limits, query text. It never guesses a missing value. Unknown keys are
// ignored and listed in IgnoredKeys; the prototype's names are accepted
// ("planned_queries" or "queries" for new_queries, "message" for
// user_message).
func ParseDecision(text string) (*Decision, error) {
	d, ignored, err := parseDecision(text)
	if err != nil {
		return nil, err
	}
	d.IgnoredKeys = ignored
	return d, nil
}

// parseDecision is ParseDecision returning the ignored keys even when the
// reply is rejected.
func parseDecision(text string) (*Decision, []string, error) {
	var d Decision
	present, ignored, err := decodeChecked(text, &d)
	if err != nil {
		return nil, ignored, err
	}
	checks := []func(*Decision, map[string]bool) error{checkRequired, checkStrategy, checkTables, checkLimits, checkQueryText}
	for _, check := range checks {
		if err := check(&d, present); err != nil {
			return nil, ignored, err
		}
	}
	return &d, ignored, nil
}

// decodeChecked runs the first two checks on a JSON reply, present and
// well-formed, decoding it into dst; it returns the keys present and the
// keys ignored.
func decodeChecked(text string, dst any) (map[string]bool, []string, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil, invalid(CheckPresent, "the reply is empty")
	}
	d, err := decodeReply(text, dst)
	if err != nil {
		return nil, d.ignored, invalid(CheckWellFormed, "%v", err)
	}
	return d.present, d.ignored, nil
}

func checkRequired(d *Decision, present map[string]bool) error {
	for _, f := range []string{"reasoning", "strategy", "user_message", "new_queries"} {
		if !present[f] {
			return invalid(CheckRequired, "%q is missing", f)
		}
	}
	switch {
	case strings.TrimSpace(d.Reasoning) == "":
		return invalid(CheckRequired, "reasoning is empty")
	case strings.TrimSpace(d.UserMessage) == "":
		return invalid(CheckRequired, "user_message is empty")
	case len(d.NewQueries) == 0 || len(d.NewQueries) > MaxQueries:
		return invalid(CheckRequired, "new_queries has %d queries, want 1 to %d", len(d.NewQueries), MaxQueries)
	}
	return nil
}

func checkStrategy(d *Decision, _ map[string]bool) error {
	switch d.Strategy {
	case Relax, Rewrite, Pivot:
		return nil
	}
	return invalid(CheckStrategy, "strategy %q is not relax, rewrite or pivot", d.Strategy)
}

func checkTables(d *Decision, _ map[string]bool) error {
	for i, q := range d.NewQueries {
		if !q.Table.Valid() {
			return invalid(CheckTables, "new_queries[%d]: table %q is not sessions, exhibitors or speakers", i, q.Table)
		}
		if q.Mode != "" && !q.Mode.Valid() {
			return invalid(CheckTables, "new_queries[%d]: search mode %q is not faceted or master", i, q.Mode)
		}
	}
	return nil
}

func checkLimits(d *Decision, _ map[string]bool) error {
	for i, q := range d.NewQueries {
		if q.Limit < 0 || q.Limit > MaxPlanLimit {
			return invalid(CheckLimits, "new_queries[%d]: limit %d outside 1..%d", i, q.Limit, MaxPlanLimit)
		}
		if q.Threshold != nil && (*q.Threshold < 0 || *q.Threshold > 1) {
			return invalid(CheckLimits, "new_queries[%d]: score threshold %g outside 0..1", i, *q.Threshold)
		}
	}
	return nil
}

func checkQueryText(d *Decision, _ map[string]bool) error {
	for i, q := range d.NewQueries {
		text := strings.TrimSpace(q.Text)
		if text == "" && q.Filter == nil {
			return invalid(CheckQueryText, "new_queries[%d]: query text is empty (only a query with a filter may have none)", i)
		}
		if len(text) > maxQueryText {
			return invalid(CheckQueryText, "new_queries[%d]: query text longer than %d characters", i, maxQueryText)
		}
	}
	return nil
}

// jargon matches words an attendee-facing note must not contain: search
// internals, ids and links.
var jargon = regexp.MustCompile(`(?i)\b(threshold|faceted|master mode|search mode|vector|embedding|cosine|score|query|queries|json|limit)\b|\b(sessions|exhibitors|speakers)/\S+|https?://|\b[spe]\d{2,}\b`)

// plainNote returns msg when it is fit for the attendee (one or two plain
// sentences, no internals, ids or links), or a plain note for the strategy.
func plainNote(msg string, s Strategy) (string, bool) {
	if msg, ok := plain(msg, 280); ok {
		return msg, true
	}
	return defaultNote(s), false
}

// plain returns text with its spaces folded when it is one or two plain
// sentences of at most maxLen bytes, without internals, ids or links.
func plain(text string, maxLen int) (string, bool) {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" || len(text) > maxLen || sentences(text) > 2 || jargon.MatchString(text) {
		return "", false
	}
	return text, true
}

func sentences(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c == '.' || c == '!' || c == '?') && (i+1 == len(s) || s[i+1] == ' ') {
			n++
		}
	}
	return max(n, 1)
}

func defaultNote(s Strategy) string {
	switch s {
	case Rewrite:
		return "Nothing matched your wording closely, so I'm trying the terms this conference uses."
	case Pivot:
		return "That looks better answered elsewhere in the programme, so I'm checking there too."
	}
	return "Nothing matched closely, so I'm widening the search a little."
}
