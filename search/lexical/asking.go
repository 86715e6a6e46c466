package lexical

import (
	"regexp"
	"strings"
)

// A long message often tells a story before, after or between what it
// asks: "Our repo is now 40 GB because artists commit textures. Anything
// on huge binary files in git?" The sentences that ask say what to search
// for and when; the others are context.

// sentenceMark ends a sentence: its marks, then a space or the end ("40.5"
// does not end one); in chat an emoji ends one too ("just landed 👋 what
// time…").
var sentenceMark = regexp.MustCompile(`[.!?…]+(?:\s+|$)|\n+|` + emoji + `(?:\s+|$)`)

// emoji is one emoji as chat types it, with its modifiers (not "°" or "©").
const emoji = `[\x{2600}-\x{27BF}\x{1F000}-\x{1FAFF}][\x{FE0F}\x{1F3FB}-\x{1F3FF}\x{2600}-\x{27BF}\x{1F000}-\x{1FAFF}]*`

// asks marks a sentence that asks for something: a question mark, a
// request verb of the attendee's ("I'd love", "we need", "looking for",
// "would help"), a request's opening ("any talks…", "which…", "can I…",
// not "can't sleep"), or the time the attendee must leave ("I have to
// leave at 3"), which bounds what is asked.
var asks = regexp.MustCompile(`(?i)\?|\b(?:i|we)(?:'d|'m|'re|\s+would|\s+am|\s+are|\s+really|\s+also|\s+still)*\s+(?:want|wanna|need|like|love|hope|hoping|looking|interested|keen|curious|wonder|wondering)\b|\b(?:looking|hoping|searching)\s+(?:for|to)\b|\bwould\s+(?:help|be\s+(?:great|nice|useful|ideal|good|helpful|handy))\b|\b(?:recommend|suggest|point\s+me|show\s+me|tell\s+me|help\s+(?:me|us))\b|\b(?:have|has|need|got)\s+to\s+(?:leave|head\s+off)\b|^` + requestOpening)

// discourseMarkers open a sentence without adding to it ("anyway, what's
// starting next?").
const discourseMarkers = `so|well|ok|okay|also|btw|anyway|anyhow`

// requestOpening is how a sentence that asks may open.
const requestOpening = `\W*(?:(?:right|` + discourseMarkers + `)[\s,]+)?(?:any|anything|anyone|anybody|someone|is\s+there|are\s+there|which|whos?|wheres?|whats?|whens?|hows?|can\s|could|please|find|list)\b`

// dashedRequest is a spaced dash that opens a request ("Trying to plan
// before I fly in — which workshops are on Saturday?"): what comes before
// it tells, as a sentence of its own would (see Told).
var dashedRequest = regexp.MustCompile(`(?i)\s[—–]\s+(?:` + requestOpening + `)`)

// sentences splits text into sentences, each with its closing marks.
func sentences(text string) []string {
	var out []string
	last := 0
	for _, m := range sentenceMark.FindAllStringIndex(text, -1) {
		out = appendTrimmed(out, text[last:m[1]])
		last = m[1]
	}
	return appendTrimmed(out, text[last:])
}

// toldApart splits text into sentences, and a sentence where a dash opens
// a request into what it tells and what it asks.
func toldApart(text string) []string {
	var out []string
	for _, s := range sentences(text) {
		out = appendDashed(out, s)
	}
	return out
}

// appendDashed appends sentence s, cut where a dash opens a request.
func appendDashed(out []string, s string) []string {
	start := 0
	for _, loc := range dashedRequest.FindAllStringIndex(s, -1) {
		out = appendTrimmed(out, s[start:loc[0]])
		start = loc[0]
	}
	return appendTrimmed(out, s[start:])
}

// appendTrimmed appends s without its surrounding space and leading dash,
// unless that leaves nothing.
func appendTrimmed(out []string, s string) []string {
	if s = strings.TrimLeft(strings.TrimSpace(s), "—– "); s != "" {
		out = append(out, s)
	}
	return out
}

// minStory is the fewest words of a sentence of context: a shorter one
// that asks nothing names a topic ("Git talks.", "Kubernetes security.").
const minStory = 5

// Asking returns the sentences of text that ask for something, and
// whether other sentences were left out as context. A message in which no
// sentence, or every one, asks is returned whole.
func Asking(text string) (string, bool) {
	ask, context := Split(text)
	if len(context) == 0 {
		return text, false
	}
	return strings.Join(ask, " "), true
}

// free says when the attendee can come ("I'm free from 2pm until the boat
// tour", "we're only around until 4", "I have a gap after lunch", "I've got
// 30 min", "will reach by 11").
var free = regexp.MustCompile(`(?i)\b(?:i['’]?m|i\s+am|we['’]?re|we\s+are)\s+(?:only\s+|just\s+|completely\s+)?(?:free|available|around)\b|\b(?:i|we)(?:\s+have|['’]ve\s+got|\s+got)\s+(?:some\s+|a\s+bit\s+of\s+)?(?:free\s+)?(?:time|a\s+gap|a\s+slot|a\s+window)\b` +
	`|\b(?:i|we)(?:\s+have|['’]ve\s+got|\s+got)\s+(?:only\s+|just\s+|about\s+)?(?:\d{1,3}|an?|one|two|three|half\s+an?)\s*(?:hours?|hrs?|minutes?|mins?)\b` +
	`|\b(?:will|should|shall|['’]ll|going\s+to)\s+(?:only\s+)?(?:reach|arrive|get\s+(?:there|here|in)|be\s+(?:there|here|in))\s+(?:by|at|around|about)\b`)

// SaysWhenFree reports whether a message says when the attendee can come:
// the time words of such a sentence are the question's, though it asks
// nothing itself.
func SaysWhenFree(text string) bool { return free.MatchString(text) }

// Split returns the sentences of text that ask and those Asking leaves
// out as context (none when no sentence asks, or every one does).
func Split(text string) (ask, context []string) {
	all, ctx := contextSentences(text)
	for i, s := range all {
		if ctx[i] {
			context = append(context, s)
		} else {
			ask = append(ask, s)
		}
	}
	return ask, context
}

// ownChoice is the attendee saying, in their own voice, what they cannot
// come to or would rather not have: "I'm not free in the morning", "we
// can't do Thursday", "I'd rather avoid panels", or a turn-down that opens
// a clause, addressed to the agent ("No panels though, they are too
// shallow", "Not on Wednesday please, I have a workshop"). "Last year's fair
// had no workshops" is a story's, and "I can't believe…" turns nothing down.
var ownChoice = regexp.MustCompile(`(?i)\b(?:i|we)(?:['’]m|['’]re|\s+am|\s+are|['’]ll\s+be|\s+will\s+be)\s+(?:not\s+(?:free|available|around|there|here|coming)|away|busy|gone|unavailable)\b` +
	`|\b(?:i|we)\s+(?:can['’]?t|cannot|won['’]?t|will\s+not)\s+(?:be\s+able\s+to\s+)?(?:do|make|attend|come|join|be\s+(?:there|here|around|free|available))\b` +
	`|\b(?:i|we)(?:['’]d|\s+would)\s+(?:rather|prefer|like\s+to\s+avoid)\b|\b(?:i|we)\s+(?:prefer|want\s+to\s+avoid|avoid|skip)\b` +
	`|(?:^|[,;:]\s*|\b(?:but|and|so|also)\s+)(?:no|not|nor|neither|except|without)\s`)

// OwnChoice reports whether a sentence says, in the attendee's own voice,
// what they cannot come to or would rather not have: then what it turns
// down is theirs, where a story's "had no workshops" is not.
func OwnChoice(sentence string) bool { return ownChoice.MatchString(strings.TrimSpace(sentence)) }

// Told splits text into the sentences that ask for something and those
// that only tell ("Just landed in Toronto."), whatever their length; a
// dash that opens a request ends what tells ("Trying to plan — which
// workshops are on Saturday?").
func Told(text string) (asking, told []string) {
	for _, s := range toldApart(text) {
		if asks.MatchString(s) {
			asking = append(asking, s)
		} else {
			told = append(told, s)
		}
	}
	return asking, told
}

// contextSentences splits text into sentences and says which are context
// (see Asking): none when no sentence asks.
func contextSentences(text string) ([]string, []bool) {
	all := sentences(text)
	ctx := make([]bool, len(all))
	n := 0
	for i, s := range all {
		ctx[i] = !asks.MatchString(s) && len(strings.Fields(s)) >= minStory
		if ctx[i] {
			n++
		}
	}
	if n == len(all) {
		clear(ctx)
	}
	return all, ctx
}
