package agent

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/when"
)

// planReply is the JSON a planner returns.
type planReply struct {
	Intent  string         `json:"intent"`
	Queries []search.Query `json:"queries"`
}

const maxQueryText = 300

// plan asks the model for a plan and validates it; an unusable plan is
// replaced by the default plan (every table, the question as query text).
func (t *turn) plan(ctx context.Context) error {
	t.progress(StepPlan, "Working out where to look…")
	in := &PlanInput{
		Message: t.st.Message, Reading: t.st.Reading, Topic: t.st.Topic, Filter: t.st.Filter, Language: t.st.Language,
		Conference: t.st.Conference, History: t.st.History,
		Mentions: t.mentions(), MaxQueries: MaxQueries, MaxLimit: MaxPlanLimit, Support: t.support,
	}
	var reply planReply
	var queries []search.Query
	src, err := t.c.ask(ctx, Call{Step: StepPlan, Plan: in}, func(comp Completion) error {
		reply = planReply{}
		present, ignored, err := decodeChecked(comp.Text, &reply)
		t.ignore(StepPlan, ignored)
		if err != nil {
			return err
		}
		if !present["queries"] {
			return invalid(CheckRequired, `"queries" is missing`)
		}
		var dropped []error
		queries, dropped, err = t.validatePlan(t.withFilter(reply.Queries))
		for _, d := range dropped {
			t.reject(StepPlan, comp.Model, d)
		}
		return err
	})
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	if err != nil {
		src, reply.Intent, queries = FromMechanical, "unknown", t.defaultPlan()
		t.st.PlanRejected = err.Error()
	}
	t.st.PlanSource, t.st.Intent = src, strings.TrimSpace(reply.Intent)
	queries = t.switchedTable(queries)
	if !slices.ContainsFunc(queries, func(q search.Query) bool { return q.Table != search.Exhibitors }) {
		t.st.Filter = nil // "a vendor in the expo": exhibitors have no time or room, so it constrains nothing asked
	}
	t.st.PlannedQueries = queries
	t.st.OriginalPlannedQueries = cloneQueries(queries)
	t.planFromMemory(ctx)
	return nil
}

// mentions are the conference's entities the question names where it
// asks: "we moved off Google Drive" in a story names no exhibitor to look
// up, unless what is asked says nothing of its own ("Where is it?").
// They are read once: planning, each check and the answer ask for them.
func (t *turn) mentions() []search.Mention {
	if t.named == nil {
		t.named = t.lexicon().MentionsAsked(t.st.Topic)
		if t.named == nil {
			t.named = []search.Mention{}
		}
	}
	return t.named
}

// vague reports whether the question names nothing to look for: no
// content word the conference could match, no entity, no time or place
// ("hi", "can you recommend something?").
func (t *turn) vague() bool {
	st := t.st
	if st.FollowUp != nil || st.Filter != nil || st.Outside != "" || len(t.lexicon().Mentions(t.asked())) > 0 {
		return false
	}
	return len(t.lexicon().Analyze(st.Topic).Concepts) == 0
}

// readQuestion reads what the question says besides its topic: its
// language (and, in another, its English reading), and its time, place and
// format constraints in the conference's calendar at the moment it was
// asked.
//
// A follow-up is read first: a question that refers back is read as the
// question it stands for ("who gives the first one?" with the first cited
// item's title, "and exhibitors?" as the earlier question).
func (t *turn) readQuestion(ctx context.Context) {
	st := t.st
	lex := t.lexicon()
	st.Language = lexical.Language(lexical.Unshortened(lexical.Unaddressed(st.Message)), lex.Corpus())
	t.translate(ctx)
	st.FollowUp = resolveFollowUp(t.asked(), st.History, t.items)
	text := lexical.Respelled(t.asked()) // "any worksops tomorow?" asks for workshops
	if st.FollowUp != nil && st.FollowUp.Question != "" {
		text = st.FollowUp.Question
	}
	p := parseWhen(text, st.AskedAt, t.agent.search.Calendar(st.Conference.ID))
	if t.agent.opts.Off.Off("filters") {
		p = when.Parsed{Rest: text}
	}
	st.Topic = strings.TrimSpace(p.Rest)
	switch {
	case onlyFormats(p.Filter) && lexical.Several(text):
		// A format word in one need of several ("…get hands-on with FHIR")
		// is not the whole question's filter: it stays a search word.
		st.Topic = text
	case !p.Filter.IsZero():
		f := p.Filter
		st.Filter = &f
		st.Topic = t.untold(ctx, st.Topic)
		if len(lex.Analyze(st.Topic).Concepts) > 0 {
			f.Not = nil // "gluten-free food at lunch" may be the lunch itself; "anything during lunch?" is not
		}
	case st.Topic == "":
		st.Topic = text
	}
	st.Outside = p.Outside
}

// parseWhen reads a question's time, place and format. A story's time
// words filter nothing ("the repo is now 40 GB"), unless it says when the
// attendee is free or the question points back at its time ("I've got a
// meeting at 3pm. Anything I can catch before then?"); of what it turns
// down, only what the attendee says in their own voice counts.
func parseWhen(text string, now time.Time, cal when.Calendar) when.Parsed {
	p := when.Parse(text, now, cal)
	ask, context := lexical.Split(text)
	if len(context) == 0 || lexical.SaysWhenFree(text) || when.PointsBack(strings.Join(ask, " ")) {
		return p
	}
	a := when.Parse(strings.Join(ask, " "), now, cal)
	p.Filter, p.Outside = a.Filter, a.Outside
	if aside := turnedDownAside(context, now, cal); len(aside) > 0 {
		p.Filter = p.Filter.ButNot(aside)
	}
	return p
}

// turnedDownAside is what sentences of context turn down in the
// attendee's own voice: "Any workshops tomorrow? I'm not free in the
// morning." keeps the morning out, "Last year's edition had no workshops."
// keeps nothing out.
func turnedDownAside(context []string, now time.Time, cal when.Calendar) []when.Filter {
	var out []when.Filter
	for _, s := range context {
		if lexical.OwnChoice(s) {
			out = append(out, when.Parse(s, now, cal).Filter.Except...)
		}
	}
	return out
}

// untold drops from a question's topic the sentences that ask nothing and
// name nothing the question's time or place holds: "Just landed in
// Toronto. Is there a keynote first thing tomorrow?" and "can't sleep.
// When's the keynote in the morning?" ask only for their time. A sentence
// that only tells still counts when what it names is on then ("I'm into
// security. Any workshops tomorrow?" and a security workshop tomorrow).
// Only a question with a time or place is read so; it still asks for
// something without them.
func (t *turn) untold(ctx context.Context, topic string) string {
	asking, told := lexical.Told(topic)
	if len(asking) == 0 || len(told) == 0 {
		return topic
	}
	for _, s := range told {
		if slices.ContainsFunc(t.namedIn(s), func(n string) bool { return t.heldThen(ctx, n) }) {
			return topic
		}
	}
	return strings.Join(asking, " ")
}

// namedIn lists what a sentence that only tells may name, each once: its
// rarest word the conference uses ("varroa" in a long story of a lost
// hive), the whole sentence and each of its needs (lexical.Needs). None
// when it holds no word the conference uses.
func (t *turn) namedIn(s string) []string {
	var rarest *lexical.Concept
	for _, c := range t.lexicon().Analyze(s).Concepts {
		if c.Known() && (rarest == nil || c.Weight > rarest.Weight) {
			rarest = &c
		}
	}
	if rarest == nil {
		return nil
	}
	out := []string{rarest.Word, s}
	for _, n := range lexical.Needs(s) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// heldThen reports whether a session or speaker that meets the question's
// filter holds what text names: at least search.MinCoverage of its word
// weight. A story is judged need by need (lexical.Needs), since its
// sentences are long.
func (t *turn) heldThen(ctx context.Context, text string) bool {
	for _, tb := range []search.Table{search.Sessions, search.Speakers} {
		q := search.Query{Table: tb, Mode: search.Faceted, Text: text, Filter: t.st.Filter, Limit: search.DefaultLimit}
		rs, err := t.agent.search.Search(ctx, t.st.Conference.ID, q)
		if err != nil {
			return true // unsure: keep what the attendee said
		}
		if slices.ContainsFunc(rs, func(r search.Result) bool { return r.Coverage >= search.MinCoverage }) {
			return true
		}
	}
	return false
}

// onlyFormats reports whether f constrains formats and nothing else.
func onlyFormats(f when.Filter) bool {
	g := f
	g.Formats = nil
	return len(f.Formats) > 0 && g.IsZero()
}

// items returns the conference's items refs names.
func (t *turn) items(refs []search.Ref) []search.Result {
	return t.agent.search.Items(t.st.Conference.ID, refs)
}

// withFilter gives the question's filter to every sessions and speakers
// query that has none of its own: a planner need not repeat it. One with a
// filter of its own (a widened one) still keeps out what the attendee
// turned down.
func (t *turn) withFilter(qs []search.Query) []search.Query {
	if t.st.Filter == nil {
		return qs
	}
	for i := range qs {
		var f when.Filter
		switch {
		case qs[i].Table == search.Exhibitors:
			continue
		case qs[i].Filter == nil:
			f = *t.st.Filter
		case len(qs[i].Filter.Except) == 0 && len(t.st.Filter.Except) > 0:
			f = qs[i].Filter.ButNot(t.st.Filter.Except)
		default:
			continue
		}
		qs[i].Filter = &f
	}
	return qs
}

// validatePlan keeps the valid queries of a plan, with defaults resolved and
// limits clamped, and says why it dropped the others; it fails, with the
// first query's problem, when none is valid.
func (t *turn) validatePlan(qs []search.Query) ([]search.Query, []error, error) {
	if len(qs) == 0 {
		return nil, nil, invalid(CheckRequired, "the plan has no queries")
	}
	var out []search.Query
	var dropped []error
	seen := map[queryKey]bool{}
	for i, q := range qs {
		q, err := t.normalise(q)
		if err != nil {
			var v *ValidationError
			errors.As(err, &v)
			dropped = append(dropped, invalid(v.Check, "queries[%d]: %s", i, v.Reason))
			continue
		}
		if k := keyOf(q); !seen[k] && len(out) < MaxQueries {
			seen[k] = true
			out = append(out, q)
		}
	}
	if len(out) == 0 {
		return nil, nil, dropped[0]
	}
	return out, dropped, nil
}

// normalise checks one planned query and resolves its defaults: faceted
// mode, DefaultLimit, the embedder's threshold. Limits are clamped to
// 1..MaxPlanLimit and thresholds to Loosest..1.
func (t *turn) normalise(q search.Query) (search.Query, error) {
	q.Text = strings.TrimSpace(q.Text)
	if q.Mode == "" {
		q.Mode = search.Faceted
	}
	switch {
	case !q.Table.Valid():
		return q, invalid(CheckTables, "table %q is not one of sessions, exhibitors, speakers", q.Table)
	case !q.Mode.Valid():
		return q, invalid(CheckTables, "search mode %q is not faceted or master", q.Mode)
	case q.Threshold != nil && (*q.Threshold < 0 || *q.Threshold > 1):
		return q, invalid(CheckLimits, "score threshold %g outside 0..1", *q.Threshold)
	case q.Text == "" && q.Filter == nil:
		return q, invalid(CheckQueryText, "empty query text (only a query with a filter may have none)")
	case len(q.Text) > maxQueryText:
		return q, invalid(CheckQueryText, "query text longer than %d characters", maxQueryText)
	}
	q.Limit = min(max(q.Limit, 0), MaxPlanLimit)
	if q.Limit == 0 {
		q.Limit = search.DefaultLimit
	}
	cal := t.calibration()
	th := cal.Threshold
	if q.Threshold != nil {
		th = max(*q.Threshold, cal.Loosest)
	}
	q.Threshold = &th
	return q, nil
}

// defaultPlan searches every table for the question's topic; with a time
// or place filter, only the tables that have a schedule.
func (t *turn) defaultPlan() []search.Query {
	var out []search.Query
	for _, tb := range search.Tables {
		if t.st.Filter != nil && tb == search.Exhibitors {
			continue
		}
		q, _ := t.normalise(search.Query{Table: tb, Mode: search.Faceted, Text: truncate(t.st.Topic, maxQueryText)})
		out = append(out, q)
	}
	return t.withFilter(out)
}

// switchedTable keeps, for a question that asks the earlier one of another
// table ("and exhibitors?"), only that table's queries, or searches it for
// the topic when the plan has none.
func (t *turn) switchedTable(qs []search.Query) []search.Query {
	f := t.st.FollowUp
	if f == nil || f.Kind != FollowTable {
		return qs
	}
	var out []search.Query
	for _, q := range qs {
		if q.Table == f.Table {
			out = append(out, q)
		}
	}
	if len(out) > 0 {
		return out
	}
	q, _ := t.normalise(search.Query{Table: f.Table, Mode: search.Faceted, Text: truncate(t.st.Topic, maxQueryText)})
	return t.withFilter([]search.Query{q})
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// queryKey identifies a query for "never try the same thing twice": table,
// mode, normalised text, threshold to the hundredth and filter.
type queryKey struct {
	table  search.Table
	mode   search.Mode
	text   string
	th     int
	filter string
}

func keyOf(q search.Query) queryKey {
	th := 0
	if q.Threshold != nil {
		th = int(*q.Threshold*100 + 0.5)
	}
	filter := ""
	if q.Filter != nil {
		b, _ := json.Marshal(q.Filter)
		filter = string(b)
	}
	return queryKey{q.Table, q.Mode, strings.Join(strings.Fields(strings.ToLower(q.Text)), " "), th, filter}
}

func cloneQueries(qs []search.Query) []search.Query {
	out := make([]search.Query, len(qs))
	for i, q := range qs {
		out[i] = q
		if q.Threshold != nil {
			th := *q.Threshold
			out[i].Threshold = &th
		}
	}
	return out
}

// support is how well the conference's text answers text (see
// search.Lexicon.Support).
func (t *turn) support(text string) float64 {
	if lex := t.lexicon(); lex != nil {
		return lex.Support(text)
	}
	return 0
}
