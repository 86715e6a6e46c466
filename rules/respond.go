package rules

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
	"github.com/erleah/erleah-agent/search/when"
)

// respond writes the answer: per table, the confident items within reach of
// the best, with the close second of a table that has none; when nothing is
// confident, the one closest match, hedged; and an honest sentence when
// nothing fits. The text is streamed line by line when stream is set.
func respond(in *agent.RespondInput, stream func(string)) agent.Completion {
	if f := in.FollowUp; f != nil && f.Kind == agent.FollowDetails {
		return streamed(detailsAnswer(in), stream)
	}
	picks := choose(in)
	var alt alternatives
	if len(picks) == 0 && in.Filter != nil && in.Outside == "" {
		alt = widened(in)
	}
	text := compose(in, picks, alt) + elsewhere(in, alt.picks)
	if down := unavailable(in); len(down) > 0 {
		text += fmt.Sprintf("\nI couldn't search the %s just now, so there may be more; please ask again in a moment.\n", terms.Series(down, "or"))
	}
	return streamed(text, stream)
}

// laterDay is the day the next sessions picked start on ("Fri 12 Feb"),
// when "what's next" named no day and that is after the day the question
// was asked there; "" otherwise.
func laterDay(in *agent.RespondInput, picks map[search.Table][]pick) string {
	ps := picks[search.Sessions]
	if in.Filter == nil || !in.Filter.Next || !in.Filter.To.IsZero() || len(ps) == 0 || ps[0].r.Session == nil || ps[0].r.Session.Starts.IsZero() || in.AskedAt.IsZero() {
		return ""
	}
	start := ps[0].r.Session.Starts
	y, m, d := in.AskedAt.In(start.Location()).Date()
	if start.Before(time.Date(y, m, d+1, 0, 0, 0, 0, start.Location())) {
		return ""
	}
	return start.Format("Mon 2 Jan")
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

// compose writes the answer's text; alt is what answers the question
// outside its time and place, listed after a "nothing fits".
func compose(in *agent.RespondInput, picks map[search.Table][]pick, alt alternatives) string {
	name := in.Conference.Name
	if name == "" {
		name = "this conference"
	}
	var b strings.Builder
	b.WriteString(languageNote(in.Language, in.Reading))
	if lexical.AsksToBook(in.Message) {
		b.WriteString("I can't book or reserve places, but here is what the programme says.\n\n")
	}
	switch {
	case in.Outside != "":
		b.WriteString(in.Outside + " Ask me about one of its days instead.\n")
		return b.String()
	case priceUnstated(in, picks):
		b.WriteString(noPrices)
		if onlyHedged(picks) {
			return b.String()
		}
	case len(picks) == 0:
		b.WriteString(nothingFits(in, name, alt))
		return b.String()
	}
	if roomAsked(in) {
		b.WriteString(roomLead(in))
	}
	switch label, later := filterLabel(in.Filter), laterDay(in, picks); {
	case later != "":
		where := strings.TrimPrefix(strings.TrimPrefix(label, "next"), ",") // "next, in Hall 1": " in Hall 1"
		fmt.Fprintf(&b, "Nothing more is on%s today at %s; the next is on %s:\n", where, name, later)
	case in.Filter != nil && in.Filter.Next:
		fmt.Fprintf(&b, "Here is what is on %s at %s:\n", label, name)
	case label != "":
		fmt.Fprintf(&b, "Here is what I found at %s%s:\n", name, forLabel(label))
	default:
		fmt.Fprintf(&b, "Here is what I found at %s:\n", name)
	}
	tables := orderTables(picks)
	q := quoting{want: terms.Stems(in.Topic), asksWhen: whenAsked.MatchString(asked(in.Message, in.Reading)), now: in.AskedAt}
	for _, tb := range tables {
		fmt.Fprintf(&b, "\n%s:\n", heading(tb))
		for _, p := range picks[tb] {
			b.WriteString(bullet(p, q))
		}
	}
	if none := unanswered(in, picks); len(none) > 0 {
		fmt.Fprintf(&b, "\nThe programme has nothing on %s.\n", terms.Series(none, "or"))
	}
	if missing := searchedWithout(in, picks); len(missing) > 0 {
		fmt.Fprintf(&b, "\nI found no %s that fit closely.\n", terms.Series(missing, "or"))
	}
	if browsing(in) && slices.ContainsFunc(tables, func(tb search.Table) bool { return len(picks[tb]) >= agent.AnswerLimit }) {
		b.WriteString("\nThere may be more: add a day, a time or a topic to narrow it down.\n")
	}
	return b.String()
}

// widened returns, when nothing fits the question's own time and place,
// the items that answer it outside them, which a reflection that widened
// the filter found: shown after the "nothing fits", never instead of it.
// Sessions over by the time the question was asked are not offered, nor
// speakers whose talks all are: an attendee asking for this afternoon
// cannot go to this morning's talk.
func widened(in *agent.RespondInput) alternatives {
	wide := *in
	wide.Filter = nil
	if in.Filter != nil && len(in.Filter.Except) > 0 {
		wide.Filter = &when.Filter{Except: in.Filter.Except} // what was turned down stays out
	}
	if in.AskedAt.IsZero() {
		return alternatives{picks: choose(&wide)}
	}
	over := func(r search.Result) bool {
		return r.Session != nil && !r.Session.Ends.IsZero() && !r.Session.Ends.After(in.AskedAt)
	}
	toCome := wide
	toCome.Talks = map[string][]search.Result{}
	for k, ts := range in.Talks {
		toCome.Talks[k] = slices.DeleteFunc(slices.Clone(ts), over)
	}
	toCome.Results = maps.Clone(in.Results)
	toCome.Results[search.Sessions] = slices.DeleteFunc(slices.Clone(in.Results[search.Sessions]), over)
	toCome.Results[search.Speakers] = slices.DeleteFunc(slices.Clone(in.Results[search.Speakers]), func(r search.Result) bool {
		return len(in.Talks[r.Key()]) > 0 && len(toCome.Talks[r.Key()]) == 0
	})
	if picks := choose(&toCome); len(picks) > 0 {
		return alternatives{picks: picks}
	}
	return alternatives{past: len(choose(&wide)) > 0}
}

// alternatives are the items that answer a question outside its time and
// place; past says there were some, all over already.
type alternatives struct {
	picks map[search.Table][]pick
	past  bool
}

// elsewhere names the items found outside the question's time and place,
// with their own time and place, as a next step: they do not answer what
// was asked, so they are not recommended (cited).
func elsewhere(in *agent.RespondInput, picks map[search.Table][]pick) string {
	if len(picks) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nOn the same topic outside %s:\n", strings.TrimPrefix(in.Filter.AskedLabel(), "in "))
	for _, tb := range orderTables(picks) {
		for _, p := range picks[tb] {
			b.WriteString(named(p.r))
		}
	}
	return b.String()
}

// named is an item's line without a citation: its title, and its time and
// place when it has them.
func named(r search.Result) string {
	if r.Details == "" {
		return "- " + r.Title + "\n"
	}
	return "- " + r.Title + " (" + r.Details + ")\n"
}

// forLabel joins a filter's label to what it narrows: "for tomorrow", but
// "in Room B", "starting next" and "on now", not "for in Room B" or "for
// next".
func forLabel(label string) string {
	switch {
	case strings.HasPrefix(label, "in "):
		return " " + label
	case label == "next", strings.HasPrefix(label, "next, "):
		return " starting next" + strings.TrimPrefix(label, "next") // not "for next"
	case label == "now", strings.HasPrefix(label, "now, "):
		return " on now" + strings.TrimPrefix(label, "now")
	}
	return " for " + label
}

func filterLabel(f *when.Filter) string {
	if f == nil {
		return ""
	}
	return f.Label
}

// quoteWords is the most words a reply quotes of a topic.
const quoteWords = 10

// quotable is the topic quoted as a phrase: whole, or up to where a new
// part of its sentence starts ("make realistic fake patient datasets so
// researchers…" → "make realistic fake patient datasets"), as the
// attendee wrote it in source (their message, or its English reading). A
// topic cut at the word limit, down to fewer than two content words ("Two
// things on my list: …"), or with words taken out of its middle ("germs in
// swamp soil keep a little lamp going try") would read as mangled, so it is
// not quoted.
func quotable(source, topic string) string {
	q := shorten(topic, quoteWords)
	n, all := len(strings.Fields(q)), len(strings.Fields(topic))
	if n < all && (n >= quoteWords || len(terms.Content(q)) < 2) {
		return "what you asked for"
	}
	return quotedOr(source, q, "what you asked for")
}

// nothingFits says that nothing fits the question; when items outside its
// time and place follow, or all of those are over, it does not call them
// loosely related.
func nothingFits(in *agent.RespondInput, name string, alt alternatives) string {
	ask, _ := lexical.Asking(in.Topic) // a long message's story is not what it looks for
	topic := topicText(ask)            // without its time and place words, which the label says
	at := name
	if label := filterLabel(in.Filter); label != "" {
		at += forLabel(label)
	}
	if topic == "" && in.Filter != nil { // a question of time and place only
		return fmt.Sprintf("I couldn't find anything at %s. Try another time or place.\n", at)
	}
	if topic == "" {
		topic = topicText(asked(in.Message, in.Reading))
	}
	if topic == "" {
		topic = asked(in.Message, in.Reading)
	}
	if n := nameNowhere(in); n != "" {
		return fmt.Sprintf("“%s” is not in the programme of %s: no speaker, talk or exhibitor there mentions the name.\n", n, name)
	}
	msg := fmt.Sprintf("I couldn't find anything at %s that clearly matches %s.", at, quotable(cmp.Or(in.Reading, in.Message), topic))
	switch {
	case len(alt.picks) > 0:
		return msg + "\n"
	case alt.past:
		return msg + " What I found on it is already over.\n"
	}
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
func bullet(p pick, q quoting) string {
	r := p.r
	var b strings.Builder
	b.WriteString("- " + r.Title)
	if r.Details != "" {
		b.WriteString(" (" + r.Details + runningAt(r, q.now) + ")")
	}
	if p.hedged {
		b.WriteString(": the closest match I found, though not a sure fit.")
	} else if why := matchedOn(r); why != "" {
		b.WriteString(": matches on " + why + ".")
	} else {
		b.WriteString(".")
	}
	if r.Summary != "" {
		b.WriteString(" " + snippet(r, q.want, q.asksWhen))
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
	return terms.Series(labels, "and")
}

// searchedWithout names the searched tables the answer recommends nothing from.
func searchedWithout(in *agent.RespondInput, picks map[search.Table][]pick) []string {
	var out []string
	for _, s := range in.Tables {
		if len(picks[s.Table]) == 0 && s.Outcome != agent.Unavailable && !(s.Table == search.Exhibitors && employsPicked(in, picks)) {
			out = append(out, tableWords(s.Table))
		}
	}
	return out
}

// employsPicked reports whether a speaker recommended works for an
// exhibitor, as their details say ("Sam Okafor (…, Emerald Imaging
// Systems)"): then "no exhibitors fit" would tell the attendee their
// company is not here.
func employsPicked(in *agent.RespondInput, picks map[search.Table][]pick) bool {
	if in.Lexicon == nil {
		return false
	}
	return slices.ContainsFunc(picks[search.Speakers], func(p pick) bool {
		return slices.ContainsFunc(in.Lexicon.Mentions(p.r.Details), func(m search.Mention) bool { return m.Ref.Table == search.Exhibitors })
	})
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
