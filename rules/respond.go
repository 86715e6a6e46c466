package rules

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/terms"
)

// Answer selection.
const (
	maxStrong  = 3    // confident items recommended per table
	maxHedged  = 2    // weak but supported items per table
	nearTop    = 0.8  // a confident pick scores at least this share of the table's best
	hedgedNear = 0.85 // a hedged pick scores at least this share of the table's best
	// minSupport is the share of the question's word weight an item must
	// cover to be recommended at all (EVAL.md shows the sweep 0.35–0.5).
	minSupport = 0.4
)

// pick is one item the answer recommends.
type pick struct {
	r      search.Result
	hedged bool
}

// respond writes the answer: per table, the confident items within reach of
// the best; where a table has none, the weak items that share an
// informative word with the question, hedged; and an honest sentence when
// nothing fits. The text is streamed line by line when stream is set.
func respond(in *agent.RespondInput, stream func(string)) agent.Completion {
	picks := choose(in)
	text := compose(in, picks)
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
	ws := queryWeights(in)
	out := map[search.Table][]pick{}
	for tb, rs := range in.Results {
		if len(rs) == 0 {
			continue
		}
		top := rs[0].Score
		for _, r := range rs {
			if r.Score >= in.Calibration.Confident && r.Score >= nearTop*top && ws.support(r) >= minSupport && len(out[tb]) < maxStrong {
				out[tb] = append(out[tb], pick{r: r})
			}
		}
		if len(out[tb]) > 0 {
			continue
		}
		for _, r := range rs {
			if r.Score >= hedgedNear*top && ws.support(r) >= minSupport && len(out[tb]) < maxHedged {
				out[tb] = append(out[tb], pick{r: r, hedged: true})
			}
		}
	}
	return out
}

// weights gives each topical word of the question, and of every query the
// turn tried, its inverse document frequency in the conference: rare words
// weigh most, and a word the conference never uses weighs the most of all.
type weights []map[string]float64

func queryWeights(in *agent.RespondInput) weights {
	texts := []string{in.Message}
	for _, q := range in.Queries {
		texts = append(texts, q.Text)
	}
	total := 0
	if in.Lexicon != nil {
		for _, tb := range search.Tables {
			total += in.Lexicon.Docs(tb)
		}
	}
	unexplained := unexplainedWords(in.Lexicon, in.Message)
	var out weights
	for _, text := range texts {
		w := map[string]float64{}
		if in.Lexicon != nil {
			for _, s := range in.Lexicon.Coverage(topicText(text)) {
				w[s.Stem] = idf(total, s.Total())
			}
		}
		for _, s := range unexplained {
			w[s] = idf(total, 0)
		}
		if len(w) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// idf weighs a word found in df of n documents; never below a floor, so a
// word every document has still counts (in a conference of one session,
// every word does).
func idf(n, df int) float64 {
	return max(math.Log(float64(n+1)/float64(df+1)), 0.1)
}

// unexplainedWords are the stems of the question's topical words that the
// conference never uses and that neither the glossary nor a spelling fix
// accounts for. Rewrites drop such words, so they must count against every
// item: otherwise "a sauna at the venue" would be answered by anything at
// the venue.
func unexplainedWords(lex *search.Lexicon, message string) []string {
	if lex == nil {
		return nil
	}
	words := terms.Words(topicText(message))
	var out []string
	for i := 0; i < len(words); i++ {
		if _, n := expand(words, i); n > 0 {
			i += n - 1
			continue
		}
		w := words[i]
		if terms.IsStop(w) || knows(lex, w) {
			continue
		}
		if _, sim := nearest(lex, w); sim >= minSpelling {
			continue
		}
		out = append(out, terms.Stem(w))
	}
	return out
}

// support is the largest share of one query's word weight that an item's
// text covers.
func (ws weights) support(r search.Result) float64 {
	parts := []string{r.Title, r.Details, r.Summary}
	for _, f := range r.Facets {
		parts = append(parts, f.Text)
	}
	has := map[string]bool{}
	for _, s := range terms.Stems(strings.Join(parts, " ")) {
		has[s] = true
	}
	best := 0.0
	for _, w := range ws {
		var got, all float64
		for s, x := range w {
			all += x
			if has[s] {
				got += x
			}
		}
		if all > 0 {
			best = max(best, got/all)
		}
	}
	return best
}

func compose(in *agent.RespondInput, picks map[search.Table][]pick) string {
	name := in.Conference.Name
	if name == "" {
		name = "this conference"
	}
	if len(picks) == 0 {
		return nothingFits(in, name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Here is what I found at %s:\n", name)
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

func nothingFits(in *agent.RespondInput, name string) string {
	topic := topicText(in.Message)
	if topic == "" {
		topic = in.Message
	}
	msg := fmt.Sprintf("I couldn't find anything at %s that clearly matches %s.", name, quote(shorten(topic, 10)))
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
		if len(picks[s.Table]) == 0 {
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
