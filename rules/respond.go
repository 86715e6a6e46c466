package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
	"github.com/erleah/erleah-agent/search/when"
)

// Answer selection.
const (
	maxStrong = 3   // confident items recommended per table
	nearTop   = 0.8 // a confident pick scores at least this share of the table's best
	// minSupport is the share of the question's word weight an item must
	// contain to be recommended at all (EVAL.md: chosen on the tuning sets).
	minSupport = search.MinCoverage
)

// pick is one item the answer recommends.
type pick struct {
	r      search.Result
	hedged bool
}

// respond writes the answer: per table, the confident items within reach of
// the best, with the close second of a table that has none; when nothing is
// confident, the one closest match, hedged; and an honest sentence when
// nothing fits. The text is streamed line by line when stream is set.
func respond(in *agent.RespondInput, stream func(string)) agent.Completion {
	if f := in.FollowUp; f != nil && f.Kind == agent.FollowDetails {
		return streamed(detailsAnswer(in), stream)
	}
	picks := choose(in)
	text := compose(in, picks)
	if len(picks) == 0 && in.Filter != nil && in.Outside == "" {
		text = widened(in, text)
	}
	if down := unavailable(in); len(down) > 0 {
		text += fmt.Sprintf("\nI couldn't search the %s just now, so there may be more; please ask again in a moment.\n", joinWith(down, "or"))
	}
	return streamed(text, stream)
}

// streamed sends text line by line when stream is set and returns it.
func streamed(text string, stream func(string)) agent.Completion {
	if stream != nil {
		for _, line := range strings.SplitAfter(text, "\n") {
			if line != "" {
				stream(line)
			}
		}
	}
	return agent.Completion{Text: text, Model: Name}
}

// choose selects what to recommend, tables ordered by their best score.
func choose(in *agent.RespondInput) map[search.Table][]pick {
	planned := in.FirstPlan
	if len(planned) == 0 {
		planned = in.Queries
	}
	ev := newEvidence(in.Lexicon, planned, in.Language)
	judged := map[string]bool{}
	fits := func(r search.Result) bool { // each result is judged once
		ok, seen := judged[r.Key()]
		if !seen {
			ok = ev.answers(r) && inFilter(in.Filter, r)
			judged[r.Key()] = ok
		}
		return ok
	}
	top := float32(0) // the best answering score in any table: picks stay within reach of it
	for _, rs := range in.Results {
		for _, r := range rs {
			if fits(r) {
				top = max(top, r.Score)
			}
		}
	}
	strong := map[search.Table][]pick{}
	for tb, rs := range in.Results {
		for _, r := range rs {
			if r.Score >= in.Calibration.Confident && r.Score >= nearTop*top && fits(r) && len(strong[tb]) < maxStrong {
				strong[tb] = append(strong[tb], pick{r: r})
			}
		}
	}
	if len(strong) == 0 {
		return hedged(in, fits)
	}
	level := hedgeLevel(in.Calibration)
	for tb, rs := range in.Results { // beside what is sure, the close seconds of other tables
		for _, r := range rs {
			if len(strong[tb]) == 0 && r.Score >= level && r.Score >= nearTop*top && fits(r) {
				strong[tb] = append(strong[tb], pick{r: r, hedged: true})
				break
			}
		}
	}
	return strong
}

// hedged picks, when nothing is sure, the one closest match: the best
// answering item of any table above the hedge level, said to be unsure
// (EVAL.md: one, not two, on the tuning sets).
func hedged(in *agent.RespondInput, fits func(search.Result) bool) map[search.Table][]pick {
	level := hedgeLevel(in.Calibration)
	var best search.Table
	var bestResult search.Result
	for _, tb := range search.Tables {
		for _, r := range in.Results[tb] {
			if r.Score >= level && r.Score > bestResult.Score && fits(r) {
				best, bestResult = tb, r
			}
		}
	}
	if best == "" {
		return nil
	}
	return map[search.Table][]pick{best: {{r: bestResult, hedged: true}}}
}

// hedgeLevel is the score a hedged pick needs: halfway between the
// threshold and the confidence band.
func hedgeLevel(c search.Calibration) float32 { return (c.Threshold + c.Confident) / 2 }

// inFilter reports whether a session meets the question's own time, place
// and format constraints: a reflection may have widened them to find
// something, but what is recommended is what was asked for.
func inFilter(f *when.Filter, r search.Result) bool {
	if f == nil || r.Session == nil {
		return true
	}
	s := r.Session
	return f.Match(s.Starts, s.Ends, s.Room, s.Track, s.Format)
}

// evidence is what an item must cover to be recommended: the content words
// of the question as first planned, each weighed by its rarity in the
// conference. A word the conference never uses counts against every item
// unless something explains it (an acronym its text spells out, a general
// abbreviation it writes in full), and then an item with the explanation
// has it: otherwise "a sauna at the venue" would be answered by anything
// at the venue. Rewrites, relaxations and pivots change where the agent
// looks, never what was asked; in a question in another language, the
// unknown words are just that language's.
type evidence struct {
	lex      *search.Lexicon
	analyses []lexical.Analysis
	lacking  []float64 // per analysis, the share of its weight nothing here explains
}

func newEvidence(lex *search.Lexicon, planned []search.Query, language string) evidence {
	ev := evidence{lex: lex}
	if lex == nil {
		return ev
	}
	foreign := language != "" && language != lexical.English
	for _, q := range planned {
		a := lex.Analyze(q.Text)
		if foreign {
			a.Concepts = slices.DeleteFunc(a.Concepts, func(k lexical.Concept) bool { return !k.Known() })
		}
		for i, k := range a.Concepts {
			if !k.Known() {
				for _, e := range explanations(lex, k.Word, q.Text) {
					a.Explain(i, e)
				}
			}
		}
		ev.analyses = append(ev.analyses, a)
		ev.lacking = append(ev.lacking, unexplained(a))
	}
	return ev
}

// explanations lists what an unknown word of text stands for in the
// conference: the phrases its text abbreviates that way, or the general
// glossary's expansions, whose words it uses, of a term around the word
// ("prem" in "on-prem").
func explanations(lex *search.Lexicon, w, text string) []string {
	out := lex.Corpus().Expansions(w)
	words := terms.Words(text)
	for pos, x := range words {
		if x != w {
			continue
		}
		for j := max(0, pos-longestTerm+1); j <= pos; j++ {
			if exp, n := expand(words, j); n > 0 && j+n > pos {
				out = append(out, slices.DeleteFunc(slices.Clone(exp), func(e string) bool { return !allKnown(lex, terms.Words(e)) })...)
			}
		}
	}
	return out
}

// answers reports whether an item answers the question: for one of its
// analyses it contains at least minSupport of the word weight, and more
// than the words the conference never uses and nothing explains weigh,
// since those are what the item certainly lacks ("GraphQL API design" is
// not answered by an API talk).
func (ev evidence) answers(r search.Result) bool {
	if ev.lex == nil {
		return r.Coverage >= minSupport
	}
	for i, a := range ev.analyses {
		if len(a.Concepts) == 0 {
			return true // the question asks nothing besides its filter
		}
		c := ev.lex.Corpus().Coverage(string(r.Table), r.Key(), a)
		if c >= minSupport && c > ev.lacking[i] {
			return true
		}
	}
	return false
}

// unexplained is the share of an analysis's weight carried by words the
// conference never uses and nothing explains.
func unexplained(a lexical.Analysis) float64 {
	var w float64
	for _, k := range a.Concepts {
		if !k.Known() && len(k.Alts) == 0 {
			w += k.Weight
		}
	}
	return w / max(a.Weight(), 1e-9)
}

// support is the largest share of one query's word weight that an item
// contains.
func (ev evidence) support(r search.Result) float64 {
	if ev.lex == nil {
		return r.Coverage
	}
	best := 0.0
	for _, a := range ev.analyses {
		if len(a.Concepts) == 0 {
			return 1 // the question asks nothing besides its filter
		}
		best = max(best, ev.lex.Corpus().Coverage(string(r.Table), r.Key(), a))
	}
	return best
}

func compose(in *agent.RespondInput, picks map[search.Table][]pick) string {
	name := in.Conference.Name
	if name == "" {
		name = "this conference"
	}
	var b strings.Builder
	if in.Language != "" && in.Language != lexical.English {
		fmt.Fprintf(&b, "I work in English, so I read your question (in %s) by the words I recognised.\n\n", lexical.LanguageName(in.Language))
	}
	switch {
	case in.Outside != "":
		b.WriteString(in.Outside + " Ask me about one of its days instead.\n")
		return b.String()
	case len(picks) == 0:
		b.WriteString(nothingFits(in, name))
		return b.String()
	}
	switch label := filterLabel(in.Filter); {
	case in.Filter != nil && in.Filter.Next:
		fmt.Fprintf(&b, "Here is what is on %s at %s:\n", label, name)
	case label != "":
		fmt.Fprintf(&b, "Here is what I found at %s for %s:\n", name, label)
	default:
		fmt.Fprintf(&b, "Here is what I found at %s:\n", name)
	}
	tables := orderTables(picks)
	for _, tb := range tables {
		fmt.Fprintf(&b, "\n%s:\n", heading(tb))
		for _, p := range picks[tb] {
			b.WriteString(bullet(p))
		}
	}
	if missing := searchedWithout(in, picks); len(missing) > 0 {
		fmt.Fprintf(&b, "\nI found no %s that fit closely.\n", joinWith(missing, "or"))
	}
	return b.String()
}

// widened adds to a "nothing fits" answer the closest items outside the
// question's own time and place, which a reflection that widened the
// filter found: said to be outside it, hedged, never instead of it.
func widened(in *agent.RespondInput, nothing string) string {
	wide := *in
	wide.Filter = nil
	picks := choose(&wide)
	if len(picks) == 0 {
		return nothing
	}
	var b strings.Builder
	b.WriteString(nothing)
	fmt.Fprintf(&b, "\nOutside %s, the closest I found:\n", in.Filter.Label)
	for _, tb := range orderTables(picks) {
		for _, p := range picks[tb] {
			p.hedged = true
			b.WriteString(bullet(p))
		}
	}
	return b.String()
}

func filterLabel(f *when.Filter) string {
	if f == nil {
		return ""
	}
	return f.Label
}

func nothingFits(in *agent.RespondInput, name string) string {
	topic := topicText(in.Topic) // without its time and place words, which the label says
	if topic == "" {
		topic = topicText(in.Message)
	}
	if topic == "" {
		topic = in.Message
	}
	at := name
	if label := filterLabel(in.Filter); label != "" {
		at += " for " + label
	}
	msg := fmt.Sprintf("I couldn't find anything at %s that clearly matches %s.", at, quote(shorten(topic, 10)))
	for _, rs := range in.Results {
		if len(rs) > 0 {
			return msg + " The closest results were only loosely related, so I'd rather not send you to them; try describing what you need in other words.\n"
		}
	}
	return msg + " Try describing what you need in other words.\n"
}

func orderTables(picks map[search.Table][]pick) []search.Table {
	var out []search.Table
	for _, tb := range search.Tables {
		if len(picks[tb]) > 0 {
			out = append(out, tb)
		}
	}
	slices.SortStableFunc(out, func(a, b search.Table) int {
		sa, sb := picks[a][0].r.Score, picks[b][0].r.Score
		switch {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	return out
}

func heading(tb search.Table) string {
	return map[search.Table]string{search.Sessions: "Sessions", search.Exhibitors: "Exhibitors", search.Speakers: "Speakers"}[tb]
}

// bullet renders one recommendation with why it matched and its citation.
func bullet(p pick) string {
	r := p.r
	var b strings.Builder
	b.WriteString("- " + r.Title)
	if r.Details != "" {
		b.WriteString(" (" + r.Details + ")")
	}
	if p.hedged {
		b.WriteString(": the closest match I found, though not a sure fit.")
	} else if why := matchedOn(r); why != "" {
		b.WriteString(": matches on " + why + ".")
	} else {
		b.WriteString(".")
	}
	if r.Summary != "" {
		b.WriteString(" " + clip(r.Summary, 160))
	}
	fmt.Fprintf(&b, " [%s]\n", r.Key())
	return b.String()
}

// facetLabels name facets for the attendee.
var facetLabels = map[string]string{
	"session_topic": "topic", "target_audience": "audience", "learning_outcomes": "what you will learn",
	"industry_relevance": "industry", "problems_addressed": "the problems it tackles", "technologies_covered": "technologies",
	"selling_intent": "what they offer", "buying_intent": "what they want to buy", "seeking_to_meet": "who they want to meet",
	"i_am_this_person": "who they are", "services_providing": "their services", "services_seeking": "services they need",
	"problems_i_solve": "the problems they solve", "challenges_facing": "their challenges",
	"speaker_expertise": "expertise", "speaking_topics": "their talks", "audience_value": "what they share",
	"industry_experience": "industry experience", "problems_they_solve": "the problems they solve",
}

func matchedOn(r search.Result) string {
	var labels []string
	for _, m := range r.Matched {
		if l := facetLabels[m.Key]; l != "" && len(labels) < 2 {
			labels = append(labels, l)
		}
	}
	return joinWith(labels, "and")
}

// searchedWithout names the searched tables the answer recommends nothing from.
func searchedWithout(in *agent.RespondInput, picks map[search.Table][]pick) []string {
	var out []string
	for _, s := range in.Tables {
		if len(picks[s.Table]) == 0 && s.Outcome != agent.Unavailable {
			out = append(out, tableWords(s.Table))
		}
	}
	return out
}

// unavailable names the tables whose search failed.
func unavailable(in *agent.RespondInput) []string {
	var out []string
	for _, s := range in.Tables {
		if s.Outcome == agent.Unavailable {
			out = append(out, tableWords(s.Table))
		}
	}
	return out
}

// joinWith joins words as "a", "a and b" or "a, b and c" (or "or").
func joinWith(words []string, conj string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// clip cuts s to at most n bytes at a word boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	for cut <= 0 && n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	if cut <= 0 {
		cut = n
	}
	return strings.TrimRight(s[:cut], ",;: ") + "…"
}
