package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
	"github.com/erleah/erleah-agent/search/when"
)

// Questions about the conference itself and its parts, answered from its
// record, calendar and catalogue without searching or calling a model:
// "when does it all kick off?", "who's exhibiting?".

// aboutConference reports whether the question, as read and respelled,
// asks only when the conference runs, starts or ends, how long it lasts or
// where it is, and keeps the answer: nothing else in it to search for, and
// no earlier answer it refers to.
func (t *turn) aboutConference(question string) bool {
	st := t.st
	if !t.standsAlone() && (st.FollowUp != nil || !when.AsksClocks(question)) { // "do the clocks change tonight?" names a time
		return false
	}
	answer, rest := when.About(question, st.AskedAt, t.agent.search.Calendar(st.Conference.ID))
	if answer == "" || !t.nothingMore(rest) {
		return false
	}
	st.About = answer
	return true
}

// listing reports whether the question, as read and respelled, asks for
// a whole part of the programme ("who's exhibiting?", "what tracks are
// there?") and nothing more, and which.
func (t *turn) listing(question string) string {
	if !t.standsAlone() {
		return ""
	}
	kind, rest := lexical.Listing(question)
	if kind == "" || !t.nothingMore(rest) {
		return ""
	}
	return kind
}

// standsAlone reports whether the question refers to no earlier answer and
// names no time, place or format: one that could be about the conference
// as a whole.
func (t *turn) standsAlone() bool {
	st := t.st
	return st.FollowUp == nil && st.Filter == nil && st.Outside == ""
}

// nothingMore reports whether words left over from a question name
// nothing to search for.
func (t *turn) nothingMore(rest string) bool {
	lex := t.lexicon()
	return len(lex.Mentions(rest)) == 0 && len(lex.Analyze(rest).Concepts) == 0
}

// say answers with text, which cites nothing, without searching or
// calling a model.
func (t *turn) say(text string) func(context.Context) error {
	return func(context.Context) error {
		g := newCiteGuard(nil, t.chunk)
		g.write(LanguageNote(t.st.Language, t.st.Reading) + text)
		t.finish(g, FromMechanical)
		return nil
	}
}

// listLimit is how many items a listing names before saying how many more
// there are.
const listLimit = 25

// tellList answers a question asking for a whole part of the programme.
func (t *turn) tellList(kind string) func(context.Context) error {
	return func(context.Context) error {
		st := t.st
		st.Intent = "list " + kind
		cal := t.agent.search.Calendar(st.Conference.ID)
		var text string
		var shown []search.Result
		switch kind {
		case lexical.ListTracks:
			text = names(st.Conference.Name, "track", cal.Tracks, "The programme does not group its sessions into tracks.")
		case lexical.ListRooms:
			text = names(st.Conference.Name, "room", cal.Rooms, "The programme does not say which rooms its sessions are in.")
		case lexical.ListHighlights:
			shown = keynotes(t.agent.search.Catalogue(st.Conference.ID, search.Sessions))
			st.QueryResults[search.Sessions] = shown
			text = highlights(shown)
		default:
			tb := search.Table(kind)
			all := t.agent.search.Catalogue(st.Conference.ID, tb)
			shown = all[:min(len(all), listLimit)]
			st.QueryResults[tb] = shown
			text = catalogue(st.Conference.Name, tb, shown, len(all))
		}
		allowed := map[string]search.Result{}
		for _, r := range shown {
			allowed[r.Key()] = r
		}
		g := newCiteGuard(allowed, t.chunk)
		g.write(LanguageNote(st.Language, st.Reading) + text)
		t.finish(g, FromMechanical)
		return nil
	}
}

// keynotes are the keynote sessions of a catalogue, by start.
func keynotes(all []search.Result) []search.Result {
	var out []search.Result
	for _, r := range all {
		if r.Session != nil && r.Session.Format == "keynote" {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b search.Result) int { return a.Session.Starts.Compare(b.Session.Starts) })
	return out[:min(len(out), listLimit)]
}

// highlights answers "what should I not miss?" with the keynotes, the
// sessions a programme itself puts first, and offers to choose by interest.
func highlights(keynotes []search.Result) string {
	const ask = "Tell me what you work on or what interests you, and I'll pick talks for you.\n"
	if len(keynotes) == 0 {
		return "The programme marks no keynotes. " + ask
	}
	var b strings.Builder
	b.WriteString("The programme's headline sessions are its keynotes:\n")
	for _, r := range keynotes {
		fmt.Fprintf(&b, "- %s (%s) [%s]\n", r.Title, r.Details, r.Key())
	}
	b.WriteString(ask)
	return b.String()
}

// names lists a calendar's names of one kind: "X has 3 tracks: A, B and C."
func names(conf, noun string, all []string, none string) string {
	if len(all) == 0 {
		return none + "\n"
	}
	return fmt.Sprintf("%s has %d %s: %s. Ask me what is on in one of them.\n", conf, len(all), counted(len(all), noun), terms.Series(all, "and"))
}

// catalogue lists the items shown of a table of n, each with its details
// and citation.
func catalogue(conf string, tb search.Table, shown []search.Result, n int) string {
	if n == 0 {
		return fmt.Sprintf("%s lists no %s.\n", conf, tb)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s has %d %s:\n", conf, n, counted(n, strings.TrimSuffix(string(tb), "s")))
	for _, r := range shown {
		b.WriteString("- " + r.Title)
		if r.Details != "" {
			b.WriteString(" (" + r.Details + ")")
		}
		fmt.Fprintf(&b, " [%s]\n", r.Key())
	}
	if more := n - len(shown); more > 0 {
		fmt.Fprintf(&b, "…and %d more. Tell me what you are looking for and I'll find the ones that fit.\n", more)
	}
	return b.String()
}

func counted(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// smallTalkReply answers a message that asks nothing of the programme
// (see lexical.SmallTalk) in kind.
func smallTalkReply(kind, conf string) string {
	if conf == "" {
		conf = "this conference"
	}
	examples := "for example “what's on this afternoon?”, “anything on <a topic> tomorrow morning?”, “who's exhibiting?” or “when does it start?”"
	switch kind {
	case lexical.TalkGreeting:
		return fmt.Sprintf("Hello! I can find talks, workshops, speakers and exhibitors at %s, and tell you when and where they are: %s.", conf, examples)
	case lexical.TalkThanks:
		return fmt.Sprintf("You're welcome! Ask me anything else about %s.", conf)
	case lexical.TalkPraise:
		return fmt.Sprintf("Thank you, glad it helps! Ask me anything else about %s.", conf)
	case lexical.TalkBye:
		return fmt.Sprintf("Enjoy %s!", conf)
	case lexical.TalkIdentity:
		return fmt.Sprintf("I'm an automated assistant for %s. I answer from its programme (talks, workshops, speakers, exhibitors, times and rooms), so I can't tell you what it does not say.", conf)
	case lexical.TalkFeeling:
		return fmt.Sprintf("Sorry to hear that. I can't change things on the spot, but I can check the %s programme for you: a session's time and room, what's on next, or who's exhibiting.", conf)
	case lexical.TalkMood:
		return fmt.Sprintf("I hear you! Whenever you want, I can check the %s programme for you: what's on next, a session's time and room, or who's exhibiting.", conf)
	case lexical.TalkHelp:
		return fmt.Sprintf("I can find talks, workshops, speakers and exhibitors at %s by topic, time or room, and tell you when and where they are: %s.", conf, examples)
	}
	return fmt.Sprintf("Anything else I can find for you at %s?", conf)
}

// LanguageNote says, for a question in another language, that the agent
// works in English, and how it read the question ("" for English).
func LanguageNote(language, reading string) string {
	if !lexical.Foreign(language) {
		return ""
	}
	name := lexical.LanguageName(language)
	if reading == "" {
		return fmt.Sprintf("I work in English, so I read your question (in %s) by the words I recognised.\n\n", name)
	}
	return fmt.Sprintf("I work in English, so I read your question (in %s) as “%s”.\n\n", name, lexical.Clip(reading, maxReading))
}

// maxReading bounds the reading quoted back to the attendee, in bytes.
const maxReading = 300
