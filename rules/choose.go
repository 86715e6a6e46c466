package rules

import (
	"slices"
	"strings"

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

// choose selects what to recommend, tables ordered by their best score,
// each speaker with the talk of theirs that answers.
func choose(in *agent.RespondInput) map[search.Table][]pick {
	in = slotsInTurn(in)
	ev := questionEvidence(in)
	fits := forErrand(in, judge(in, ev))
	top := float32(0) // the best answering score in any table: picks stay within reach of it
	for _, rs := range in.Results {
		for _, r := range rs {
			if fits(r) {
				top = max(top, r.Score)
			}
		}
	}
	most := maxStrong
	if browsing(in) {
		most = agent.AnswerLimit // "list all workshops": the list, not the best three
	}
	picks := map[search.Table][]pick{}
	skip := func(search.Result) bool { return false }
	if browsing(in) && !in.Filter.Next && !allPauses(in.Results[search.Sessions]) {
		skip = pause // "what's on after lunch?" asks for talks, not the afternoon break; "when is the break?" is no listing; "first thing tomorrow" is the coffee too
	}
	for tb, rs := range in.Results {
		for _, r := range rs {
			if skip(r) {
				continue
			}
			if r.Score >= in.Calibration.Confident && r.Score >= nearTop*top && fits(r) && len(picks[tb]) < most {
				picks[tb] = append(picks[tb], pick{r: r})
			}
		}
	}
	if len(picks) == 0 && !ev.lacksARealThing() {
		picks = hedged(in, fits)
	} else if len(picks) > 0 {
		closeSeconds(in, picks, top, fits)
	}
	if picks == nil {
		picks = map[search.Table][]pick{}
	}
	withCompanions(in, picks, top, fits)
	named := namedIn(in)
	withNamed(in, picks, named)
	withTalks(in, picks, fits, named)
	inTurn(picks[search.Sessions], ofPick, in.AskedAt)
	if roomAsked(in) {
		notOver(in, picks)
	}
	return picks
}

// withNamed adds a speaker the question names by name ("who is Priya
// Ramanathan?"), or who gives a talk it names ("who is giving the thermal
// runaway talk?"), when a search found them, first among speakers and
// sure, whatever their score: a biography scores low against a name, and
// the attendee asked for that very person (a session named is found by its
// title); in the order the search found them, not a map's.
func withNamed(in *agent.RespondInput, picks map[search.Table][]pick, named map[search.Ref]bool) {
	rs := in.Results[search.Speakers]
	for i := len(rs) - 1; i >= 0; i-- { // each put first: in the end, in the order found
		r := rs[i]
		talks := in.Talks[r.Key()]
		byName := named[r.Ref] && inFilter(in.Filter, r, talks, func(search.Result) bool { return true })
		givesNamed := slices.ContainsFunc(talks, func(t search.Result) bool { return named[t.Ref] && inFilter(in.Filter, t, nil, nil) })
		if !byName && !givesNamed {
			continue
		}
		picks[search.Speakers] = slices.DeleteFunc(picks[search.Speakers], func(p pick) bool { return sameItem(r)(p.r) }) // sure, not hedged
		picks[search.Speakers] = slices.Insert(picks[search.Speakers], 0, pick{r: r})
	}
}

// withCompanions adds, beside talks recommended sure, the exhibitor looked
// up for the same question that answers it as surely: in the confidence
// band, within reach of the best answer and holding the question's words.
// One: the attendee asked for talks, or for nothing in particular, and is
// pointed to the expo, not sent round it.
func withCompanions(in *agent.RespondInput, picks map[search.Table][]pick, top float32, fits func(search.Result) bool) {
	if !slices.ContainsFunc(picks[search.Sessions], func(p pick) bool { return !p.hedged }) {
		return
	}
	for _, r := range in.Companions {
		if r.Score >= in.Calibration.Confident && r.Score >= nearTop*top && fits(r) {
			picks[search.Exhibitors] = append(picks[search.Exhibitors], pick{r: r})
			return
		}
	}
}

// browsing reports whether the question asks for a time, place or format
// and nothing else ("workshops tomorrow", "what's on in Hall 1?").
func browsing(in *agent.RespondInput) bool {
	return in.Filter != nil && topicText(in.Topic) == ""
}

// pause reports whether a result is a break or a meal of the programme: a
// session of no talk format whose title names one ("Afternoon break",
// "Lunch and exhibition").
func pause(r search.Result) bool {
	return service(r.Session) && slices.ContainsFunc(terms.Words(r.Title), lexical.PauseWord)
}

// allPauses reports whether every result is a pause (or there are none).
func allPauses(rs []search.Result) bool {
	return !slices.ContainsFunc(rs, func(r search.Result) bool { return !pause(r) })
}

// judge returns whether a result answers the question (see evidence) and
// meets its time and place constraints, judging each result once. A
// speaker the question did not ask for, found because a reflection looked
// among speakers too, must hold half the question: a biography is long,
// general prose, where a third of a question's words ("gas", "distribution"
// in "Atlantic Gas & Electric… distribution system operator") is easily
// met by chance.
func judge(in *agent.RespondInput, ev evidence) func(search.Result) bool {
	judged := map[string]bool{}
	return func(r search.Result) bool {
		ok, seen := judged[r.Key()]
		if !seen {
			ok = ev.answers(r) && inFilter(in.Filter, r, in.Talks[r.Key()], ev.answers)
			if ok && r.Table == search.Speakers && !searchedIn(in.FirstPlan, search.Speakers) {
				ok = ev.support(r) >= unaskedSpeakerSupport
			}
			judged[r.Key()] = ok
		}
		return ok
	}
}

// closeSeconds adds, beside what is sure, the close second of each table
// that has none: hedged, at the hedge level and within reach of the best.
func closeSeconds(in *agent.RespondInput, picks map[search.Table][]pick, top float32, fits func(search.Result) bool) {
	level := hedgeLevel(in.Calibration)
	for tb, rs := range in.Results {
		if len(picks[tb]) > 0 {
			continue
		}
		if i := slices.IndexFunc(rs, func(r search.Result) bool { return r.Score >= level && r.Score >= nearTop*top && fits(r) }); i >= 0 {
			picks[tb] = []pick{{r: rs[i], hedged: true}}
		}
	}
}

// withTalks adds to each recommended speaker the first talk of theirs that
// answers, when none of theirs is recommended yet: a speaker found for
// what they present comes with the session where they present it, as sure
// as the speaker.
func withTalks(in *agent.RespondInput, picks map[search.Table][]pick, fits func(search.Result) bool, named map[search.Ref]bool) {
	for _, p := range picks[search.Speakers] {
		talks := in.Talks[p.r.Key()]
		if named[p.r.Ref] {
			allTalks(in, picks, p, talks)
			continue
		}
		if slices.ContainsFunc(picks[search.Sessions], func(s pick) bool { return slices.ContainsFunc(talks, sameItem(s.r)) }) {
			continue
		}
		if i := slices.IndexFunc(talks, fits); i >= 0 {
			t := talks[i]
			t.Score = p.r.Score // ranked with its speaker
			picks[search.Sessions] = append(picks[search.Sessions], pick{r: t, hedged: p.hedged})
		}
	}
}

// allTalks adds every talk of a speaker the question names that meets its
// time and place ("when does Priya Natarajan speak?" has two answers when
// she gives two talks), ranked with the speaker.
func allTalks(in *agent.RespondInput, picks map[search.Table][]pick, p pick, talks []search.Result) {
	for _, t := range talks {
		if !inFilter(in.Filter, t, nil, nil) {
			continue
		}
		if i := slices.IndexFunc(picks[search.Sessions], func(s pick) bool { return sameItem(t)(s.r) }); i >= 0 {
			picks[search.Sessions][i].hedged = picks[search.Sessions][i].hedged && p.hedged // their talk, as sure as they are
			continue
		}
		t.Score = p.r.Score
		picks[search.Sessions] = append(picks[search.Sessions], pick{r: t, hedged: p.hedged})
	}
}

// namedIn are the entities the question names where it asks.
func namedIn(in *agent.RespondInput) map[search.Ref]bool {
	out := map[search.Ref]bool{}
	if in.Lexicon == nil {
		return out
	}
	for _, m := range in.Lexicon.MentionsAsked(asked(in.Message, in.Reading)) {
		out[m.Ref] = true
	}
	return out
}

// sameItem matches results of the same item as r.
func sameItem(r search.Result) func(search.Result) bool {
	return func(o search.Result) bool { return o.Key() == r.Key() }
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
		best, bestResult = standout(in, fits)
	}
	if best == "" {
		return nil
	}
	return map[search.Table][]pick{best: {{r: bestResult, hedged: true}}}
}

// standout is, when no item reaches the hedge level, an item that stands
// alone in its table: above the threshold, at least twice the score of
// the table's next item, and holding at least half the question's word
// weight ("VSH or SMR stock" and the one talk that spells both out).
func standout(in *agent.RespondInput, fits func(search.Result) bool) (search.Table, search.Result) {
	for _, tb := range search.Tables {
		rs := in.Results[tb]
		if len(rs) == 0 || !searchedIn(in.FirstPlan, tb) || !fits(rs[0]) || fedBack(in, tb) {
			continue
		}
		top := rs[0]
		alone := len(rs) == 1 || top.Score >= standoutRatio*rs[1].Score
		if alone && top.Score >= in.Calibration.Threshold && top.Coverage >= standoutCover {
			return tb, top
		}
	}
	return "", search.Result{}
}

// fedBack reports whether table tb was searched with words taken from its
// own best matches (pseudo-relevance feedback, see related): they lift
// those matches over the rest, so a lead they give is no sign of standing
// out ("installation vessels for offshore wind" and a rotor-sail talk,
// lifted by its own "payback period").
func fedBack(in *agent.RespondInput, tb search.Table) bool {
	for _, f := range in.FirstPlan {
		r := rewrite(in.Lexicon, tb, f.Text, nil)
		if len(r.related) > 0 && slices.ContainsFunc(in.Queries, func(q search.Query) bool { return q.Table == tb && q.Text == r.text }) {
			return true
		}
	}
	return false
}

// searchedIn reports whether queries search table tb.
func searchedIn(queries []search.Query, tb search.Table) bool {
	return slices.ContainsFunc(queries, func(q search.Query) bool { return q.Table == tb })
}

// An item stands out with this share of the question and this ratio to the
// next; a speaker nobody asked for needs this share of it.
const (
	standoutCover         = 0.5
	standoutRatio         = 2
	unaskedSpeakerSupport = 0.5
)

// questionEvidence is the evidence of the question as first planned.
func questionEvidence(in *agent.RespondInput) evidence {
	planned := in.FirstPlan
	if len(planned) == 0 {
		planned = in.Queries
	}
	return newEvidence(in.Lexicon, planned, in.Language, asked(in.Message, in.Reading))
}

// lacksARealThing reports whether the question, as first planned, names a
// thing of general English the conference never mentions and nothing here
// explains ("a sauna", "self-driving car regulation"): then no item is even
// a close match, since none has what the question is about.
func (ev evidence) lacksARealThing() bool {
	if len(ev.analyses) == 0 {
		return false
	}
	for _, a := range ev.analyses {
		if !slices.ContainsFunc(a.Concepts, realThing) {
			return false
		}
	}
	return true
}

// hedgeLevel is the score a hedged pick needs: halfway between the
// threshold and the confidence band.
func hedgeLevel(c search.Calibration) float32 { return (c.Threshold + c.Confident) / 2 }

// inFilter reports whether a session meets the question's own time, place
// and format constraints, and a speaker through one of their talks that is
// on the topic too (when talks are known; any other talk of theirs then is
// not what was asked for): a reflection may have widened them to find
// something, but what is recommended is what was asked for.
func inFilter(f *when.Filter, r search.Result, talks []search.Result, onTopic func(search.Result) bool) bool {
	switch {
	case f == nil:
		return true
	case r.Session != nil:
		s := r.Session
		return f.Match(s.Starts, s.Ends, s.Room, s.Track, s.Format)
	case r.Table == search.Speakers && len(talks) > 0:
		return slices.ContainsFunc(talks, func(t search.Result) bool { return inFilter(f, t, nil, nil) && onTopic(t) })
	}
	return true
}

// evidence is what an item must cover to be recommended: the content words
// of the question as first planned, each weighed by its rarity in the
// conference. A word the conference never uses counts against every item
// unless something explains it (an acronym its text spells out, a general
// abbreviation it writes in full), and then an item with the explanation
// has it: otherwise "a sauna at the venue" would be answered by anything
// at the venue. Unexplained, it weighs as much as it is specific in
// general English (terms.Specificity): "without privacy problems" lacks
// less than "a sauna" does. Rewrites, relaxations and pivots change where
// the agent looks, never what was asked; in a question in another
// language, the unknown words are just that language's.
type evidence struct {
	lex      *search.Lexicon
	analyses []lexical.Analysis
	lacking  []float64 // per analysis, the share of its weight nothing here explains
}

func newEvidence(lex *search.Lexicon, planned []search.Query, language, question string) evidence {
	ev := evidence{lex: lex}
	if lex == nil {
		return ev
	}
	alts := alternates(question)
	foreign := lexical.Foreign(language)
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
		explainByAlternates(a, alts)
		for i, k := range a.Concepts {
			if realThing(k) {
				a.Concepts[i].Weight *= terms.Specificity(k.Word)
			}
		}
		ev.analyses = append(ev.analyses, a)
		ev.lacking = append(ev.lacking, unexplained(a))
	}
	return ev
}

// asWritten is word w as text writes it ("RHLF" for rhlf), or w.
func asWritten(w, text string) string {
	for _, x := range terms.Written(text) {
		if strings.EqualFold(x, w) {
			return x
		}
	}
	return w
}

// explanations lists what an unknown word of text stands for in the
// conference: the phrases its text abbreviates that way, or the general
// glossary's expansions, whose words it uses, of a term around the word
// ("prem" in "on-prem"). The acronym the conference writes for a phrase
// around it is the analysis's own (lexical.Corpus.Analyze).
func explanations(lex *search.Lexicon, w, text string) []string {
	out := lex.Corpus().Expansions(asWritten(w, text))
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
		if missing(k) {
			w += k.Weight
		}
	}
	return w / max(a.Weight(), 1e-9)
}

// missing reports whether no item can have a concept: the conference never
// uses the word and nothing here explains it.
func missing(k lexical.Concept) bool { return !k.Known() && len(k.Alts) == 0 }

// realThing reports whether a missing concept is a word of general English
// ("sauna"), not another language's or a name.
func realThing(k lexical.Concept) bool { return missing(k) && terms.IsEnglish(k.Word) }

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
