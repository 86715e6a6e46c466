package agent

import (
	"regexp"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/search"
)

// FollowUp says how a question continues the conversation: it refers to
// items the assistant cited before ("who gives the first one?"), asks for
// their time and place ("when is it?"), for more like them ("anything
// similar?"), or asks the earlier question of another table ("and
// exhibitors?").
type FollowUp struct {
	Kind FollowUpKind `json:"kind"`
	// Refs are the cited items referred to; for FollowMore, all items cited
	// before, which the answer leaves out.
	Refs []search.Ref `json:"refs,omitempty"`
	// Table is the table asked about by FollowTable.
	Table search.Table `json:"table,omitempty"`
	// Question is the question as searched: the message with its
	// references replaced, or the earlier question it continues.
	Question string `json:"question,omitempty"`
}

// FollowUpKind names the ways a question continues a conversation.
type FollowUpKind string

// Kinds of follow-up.
const (
	FollowRefer   FollowUpKind = "refer"   // a pronoun or ordinal names cited items
	FollowDetails FollowUpKind = "details" // when or where a cited item is
	FollowMore    FollowUpKind = "more"    // more like the cited items
	FollowTable   FollowUpKind = "table"   // the earlier question, of another table
)

// marker finds citation markers in an earlier answer.
var marker = regexp.MustCompile(`\[(sessions|exhibitors|speakers)/([^\]\s/\[]+)\]`)

// cited lists the items an earlier assistant turn cited, in order, once.
func (h Turn) cited() []search.Ref {
	var out []search.Ref
	add := func(r search.Ref) {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, c := range h.Citations {
		add(search.Ref{Table: c.Collection, ID: c.ID})
	}
	for _, m := range marker.FindAllStringSubmatch(h.Text, -1) {
		add(search.Ref{Table: search.Table(m[1]), ID: m[2]})
	}
	return out
}

// exchange is what a follow-up may refer to: the last question asked and
// the items the last answer cited.
type exchange struct {
	question string
	cited    []search.Ref
}

func lastExchange(hist []Turn) (exchange, bool) {
	var c exchange
	for i := len(hist) - 1; i >= 0; i-- {
		h := hist[i]
		switch {
		case h.Role == "assistant" && c.cited == nil && c.question == "":
			c.cited = h.cited()
		case h.Role == "user" && c.question == "":
			c.question = strings.TrimSpace(h.Text)
		}
	}
	return c, c.question != "" || len(c.cited) > 0
}

// Words that mark a follow-up. They are English: the builtin rules read
// English; a model reads the history itself.
var (
	plural   = []string{"them", "they", "those", "these", "ones"}
	ordinals = map[string]int{"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1}
	details  = []string{"when", "where", "time", "room", "start", "starts", "begin", "begins", "day", "booth", "located"}
	moreCues = []string{"more like", "similar", "any more", "anything else", "what else", "something else", "other options",
		"others", "another", "more of", "alternatives"}
	tableCue = map[string]search.Table{
		"session": search.Sessions, "sessions": search.Sessions, "talk": search.Sessions, "talks": search.Sessions,
		"workshop": search.Sessions, "workshops": search.Sessions,
		"exhibitor": search.Exhibitors, "exhibitors": search.Exhibitors, "company": search.Exhibitors, "companies": search.Exhibitors,
		"vendor": search.Exhibitors, "vendors": search.Exhibitors, "booths": search.Exhibitors, "expo": search.Exhibitors, "stands": search.Exhibitors,
		"speaker": search.Speakers, "speakers": search.Speakers, "people": search.Speakers, "experts": search.Speakers,
	}
)

// maxReferWords bounds a question read as referring back by a pronoun: a
// long question with "it" in it is a new question.
const maxReferWords = 9

// resolveFollowUp reads how msg continues hist, or returns nil when it
// starts afresh. items gives the conference's items for refs, in the
// order asked.
func resolveFollowUp(msg string, hist []Turn, items func([]search.Ref) []search.Result) *FollowUp {
	ctx, ok := lastExchange(hist)
	if !ok {
		return nil
	}
	words := followWords(msg)
	refs, how := referred(words, ctx.cited, items)
	lower := " " + strings.Join(words, " ") + " "
	switch {
	case len(refs) > 0 && anyWord(words, details) && (how != byDefault || len(words) <= 5):
		return &FollowUp{Kind: FollowDetails, Refs: refs}
	case ctx.question != "" && anyPhrase(lower, moreCues):
		return &FollowUp{Kind: FollowMore, Refs: ctx.cited, Question: strings.TrimSpace(ctx.question + " " + likeCited(items(ctx.cited)))}
	}
	if tb, rest, ok := switchedTable(words); ok && ctx.question != "" {
		return &FollowUp{Kind: FollowTable, Table: tb, Question: strings.TrimSpace(ctx.question + " " + rest)}
	}
	if len(refs) > 0 && (how == byOrdinal || how == byDescription || how == byPronoun && len(words) <= maxReferWords) {
		return &FollowUp{Kind: FollowRefer, Refs: refs, Question: replaceReference(msg, titlesOf(items(refs)))}
	}
	return nil
}

// followWords are msg's lower-case words, "'s" read as "is" ("when's").
func followWords(msg string) []string {
	msg = strings.NewReplacer("'s ", " is ", "’s ", " is ").Replace(strings.ToLower(msg) + " ")
	return strings.Fields(strings.Map(keepWordRune, msg))
}

func titlesOf(rs []search.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Title
	}
	return out
}

// How a question points at cited items.
type pointer int

const (
	byDefault     pointer = iota // it does not: the first cited item, if anything
	byPronoun                    // "it", "them", "that one"
	byOrdinal                    // "the second one"
	byDescription                // "the hands-on one": the cited item it describes
)

// referred picks the cited items a question points at: by ordinal, by
// description, else the first for a singular pronoun and all for a plural
// one.
func referred(words []string, cited []search.Ref, items func([]search.Ref) []search.Result) ([]search.Ref, pointer) {
	if len(cited) == 0 {
		return nil, byDefault
	}
	for _, w := range words {
		if i, ok := ordinals[w]; ok {
			if i < 0 {
				i = len(cited) - 1
			}
			if i < len(cited) {
				return cited[i : i+1], byOrdinal
			}
		}
	}
	if r, ok := described(words, cited, items); ok {
		return []search.Ref{r}, byDescription
	}
	switch {
	case anyWord(words, plural):
		return cited, byPronoun
	case singular(words):
		return cited[:1], byPronoun
	}
	return cited[:1], byDefault
}

// described finds the cited item that "the … one" describes: the only one
// whose title or summary has the most of the describing words.
func described(words []string, cited []search.Ref, items func([]search.Ref) []search.Result) (search.Ref, bool) {
	desc := describing(words)
	if len(desc) == 0 {
		return search.Ref{}, false
	}
	best, bestN, tie := search.Ref{}, 0, false
	for _, r := range items(cited) {
		text := " " + strings.Join(followWords(r.Title+" "+r.Summary+" "+r.Details), " ") + " "
		n := 0
		for _, w := range desc {
			if strings.Contains(text, " "+w) {
				n++
			}
		}
		switch {
		case n > bestN:
			best, bestN, tie = search.Ref{Table: r.Table, ID: r.ID}, n, false
		case n == bestN && n > 0:
			tie = true
		}
	}
	return best, bestN > 0 && !tie
}

// describing returns the words between "the" and "one" ("the hands on
// one" → hands, on), at most three, none an ordinal.
func describing(words []string) []string {
	for i, w := range words {
		if w != "one" || i == 0 {
			continue
		}
		var desc []string
		for j := i - 1; j >= 0 && j >= i-4; j-- {
			if words[j] == "the" {
				return desc
			}
			if _, ord := ordinals[words[j]]; ord {
				return nil
			}
			if len(words[j]) > 2 {
				desc = append(desc, words[j])
			}
		}
	}
	return nil
}

// singular reports a singular pronoun pointing back: "it" anywhere; "that"
// or "this" last or before "one" ("where is that?", "this one"), since
// elsewhere they are mostly not pronouns ("talks that cover…").
func singular(words []string) bool {
	for i, w := range words {
		switch {
		case w == "it":
			return true
		case (w == "that" || w == "this") && (i == len(words)-1 || words[i+1] == "one"):
			return true
		}
	}
	return false
}

// switchedTable reads "and exhibitors?", "what about speakers?", "any
// vendors selling that?": a table word, and nothing else to search for but
// at most two words beside a word pointing back; those are returned.
func switchedTable(words []string) (search.Table, string, bool) {
	var tb search.Table
	var rest []string
	back := false
	for _, w := range words {
		switch t, ok := tableCue[w]; {
		case ok:
			tb = t
		case backWords[w]:
			back = true
		case !followFiller[w]:
			rest = append(rest, w)
		}
	}
	ok := tb != "" && (len(rest) == 0 || back && len(rest) <= 2)
	return tb, strings.Join(rest, " "), ok
}

// backWords point back at what was asked before.
var backWords = wordSet("that", "it", "this", "those", "these", "them", "same")

// followFiller are the words around a table switch.
var followFiller = wordSet("and", "what", "about", "any", "are", "there", "for", "doing", "do", "at",
	"the", "on", "topic", "also", "too", "how", "which", "who", "is", "of", "in", "with", "then", "anyone", "someone",
	"ok", "okay", "thanks", "or", "can", "could", "i", "meet", "see", "visit", "talk", "to", "you", "recommend", "some")

func wordSet(ws ...string) map[string]bool {
	out := make(map[string]bool, len(ws))
	for _, w := range ws {
		out[w] = true
	}
	return out
}

// replaceReference puts the referred items' titles where the question
// points at them, so that it can be searched like any question.
func replaceReference(msg string, titles []string) string {
	if len(titles) == 0 {
		return msg
	}
	name := `"` + strings.Join(titles, `" and "`) + `"`
	for _, re := range references {
		if loc := re.FindStringIndex(msg); loc != nil {
			return msg[:loc[0]] + name + msg[loc[1]:]
		}
	}
	return msg + " " + name
}

// references match the words that point back at cited items, surest first.
var references = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bthe (first|second|third|last|1st|2nd|3rd)( one)?\b`),
	regexp.MustCompile(`(?i)\b(that|this) one\b`),
	regexp.MustCompile(`(?i)\b(it|them|they|those|these)\b`),
	regexp.MustCompile(`(?i)\b(that|this)\W*$`),
}

func anyWord(words, set []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return slices.Contains(set, w) })
}

func anyPhrase(text string, phrases []string) bool {
	return slices.ContainsFunc(phrases, func(p string) bool { return strings.Contains(text, " "+p+" ") })
}

// keepWordRune keeps letters, digits and spaces; other runes become spaces.
func keepWordRune(r rune) rune {
	switch {
	case r == '\'' || r == '’':
		return -1
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r > 127:
		return r
	}
	return ' '
}

// details answers "when is it?" from the cited items themselves: they are
// the results, and nothing is searched. It reports false when the items
// are not (or no longer) in the conference.
func (t *turn) details() bool {
	f := t.st.FollowUp
	if f == nil || f.Kind != FollowDetails {
		return false
	}
	items := t.agent.search.Items(t.st.Conference.ID, f.Refs)
	if len(items) == 0 {
		t.st.FollowUp = nil
		return false
	}
	for _, r := range items {
		t.st.QueryResults[r.Table] = append(t.st.QueryResults[r.Table], r)
	}
	t.st.FirstPassResults = cloneResults(t.st.QueryResults)
	return true
}
