package lexical

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/erleah/erleah-agent/search/terms"
)

// A question's clauses are cut at punctuation and at the conjunctions that
// join whole thoughts; "and" only where a new subject follows ("… and I
// want to …"), so "ML and data" stays one topic.
var (
	clauseBreak = regexp.MustCompile(`(?i)[.;:!?\n…]+|` + emoji + `|,|\s[—–-]+\s|\s(?:but|so|because|although|while)\s|\s(?:when|where|what)\s+(?:is|are|does|do|can|will)\s|\s(?:when|where|what)(?:'s|s)\s|\sand\s+(?:i|we|my|our|i'm|i'd|we're|we'd|im|id|also|can|could|would|is|are|what|which|how|where|who|please|any)\b`)
	andThen     = regexp.MustCompile(`(?i)^\sand\s+`)
	whThen      = regexp.MustCompile(`(?i)^\s(?:when|where|what)(?:'s|s)?\s`)
	apostrophe  = strings.NewReplacer("’", "'", "‘", "'")
)

// declined is a clause saying what the attendee does not want or has
// already found ("not interested in renting cloud GPUs", "chatbot stuff
// doesn't interest me", "GPU stuff I can already find elsewhere"): no need,
// and searching it would recommend what was turned down. "I don't need…"
// counts only as the clause's opening; "I don't want to miss…" wants.
var declined = regexp.MustCompile(`(?i)^\s*(?:(?:i'?m|i\s+am|we'?re|we\s+are)\s+)?not\s+(?:really\s+|that\s+|too\s+|very\s+|so\s+)?(?:interested|looking|after|keen)\b` +
	`|\b(?:doesn'?t|does\s+not|don'?t|do\s+not)\s+(?:really\s+)?interest\s+(?:me|us)\b` +
	`|^\s*(?:(?:and|but|also|honestly|frankly)\s+)?(?:i|we)\s+(?:really\s+)?(?:don'?t|do\s+not)\s+(?:really\s+)?(?:need|want|have\s+to|care\s+(?:about|for))\b` +
	`|\b(?:i|we)(?:'ve|\s+have)?\s+(?:can\s+)?already\s+(?:seen|know|knew|heard|covered|find|found|got|have|had|attended|done)\b`)

// missOut wants what it names: "I don't want to miss anything on RAG".
var missOut = regexp.MustCompile(`(?i)\b(?:don'?t|do\s+not)\s+(?:want\s+to\s+)?(?:miss|overlook)\b`)

// wantsAfter goes on, in a clause that turned something down, to what is
// wanted: "I have already got a GPU cluster and need talks on job
// scheduling".
var wantsAfter = regexp.MustCompile(`(?i)\s(?:and|but)\s+(?:(?:i|we)\s+)?(?:(?:really|also|still|now|just)\s+)?(?:need|want|would(?:\s+(?:like|love))?|'d(?:\s+(?:like|love))?|am|are|(?:am\s+|are\s+)?looking\s+for|hope(?:\s+(?:to|for))?|wish(?:\s+(?:to|for))?|like|could(?:\s+use)?|can)\s+(\S)`)

// declinedPart reports whether a clause turns something down, and returns
// what it goes on to want, if anything.
func declinedPart(clause string) (bool, string) {
	if !declined.MatchString(clause) || missOut.MatchString(clause) {
		return false, ""
	}
	if loc := wantsAfter.FindStringSubmatchIndex(clause); loc != nil {
		return true, clause[loc[2]:]
	}
	return true, ""
}

// Request phrasing that says a need outright, which then counts however
// short: "our biggest fear is ransomware", "interested in FHIR", and a
// worry.
var (
	myConcernIs  = regexp.MustCompile(`(?i)^(?:my|our)\s+(?:(?:biggest|main|big|real|top|first|one|only|greatest|current|key)\s+)?(?:fear|concern|worry|problem|challenge|priority|goal|focus|interest|question|issue|headache|pain\s+point)s?\s+(?:is|are|was|were|right\s+now\s+is)\b`)
	interestedIn = regexp.MustCompile(`(?i)^(?:interested|keen|curious)(?:\s+(?:in|on|about))?\b`)
	// "We struggle to get interpreters…", "we have trouble finding…".
	struggle = regexp.MustCompile(`(?i)^(?:i|we)\s+(?:(?:really|still|always|often|constantly|keep)\s+)*(?:struggle|struggled|battle|have\s+(?:(?:real|a\s+lot\s+of|so\s+much)\s+)?(?:trouble|difficulty|difficulties|a\s+hard\s+time|problems)|find\s+it\s+(?:hard|difficult))(?:\s+(?:to|with|in))?\b`)
	outright = []*regexp.Regexp{myConcernIs, interestedIn, worry, struggle}
)

// requestPhrasing is how attendees ask rather than what they ask about; it
// is peeled off the start of a clause, repeatedly.
var requestPhrasing = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^(?:(?:hi|hello|hey|hiya|yo|namaste|good\s+(?:morning|afternoon|evening|day))(?:\s+there)?|` + courtesy + `|` + discourseMarkers + `|quick\s+question|(?:please\s+|kindly\s+)?let\s+(?:me|us)\s+know(?:\s+(?:if|whether))?)\b[\s,!]*`),
	worry,
	struggle,
	// A turn to another subject: "switching gears, …", "different topic: …"
	// (not "a new topic modelling library").
	regexp.MustCompile(`(?i)^(?:(?:ok(?:ay)?|so|right|alright|now)[\s,]+)?(?:switching\s+gears|changing\s+(?:the\s+)?(?:subject|topic|gears)|(?:on\s+)?(?:a\s+)?(?:different|new|another|separate|unrelated)\s+(?:topic|question|subject|note)|unrelated(?:\s+question)?|one\s+more\s+(?:thing|question)|another\s+(?:thing|question))(?:\s*[,:;!.–—-]+\s*|\s*$)`),
	regexp.MustCompile(`(?i)^(?:i|we)\s+(?:really\s+)?(?:don't|dont|do\s+not)\s+want\s+to\s+(?:miss|overlook)(?:\s+out)?(?:\s+on)?\b`), // "I don't want to miss the keynote on RAG"
	regexp.MustCompile(`(?i)^(?:i|we)(?:'m|'re|'d|\s+am|\s+are|\s+would)?\s+(?:really\s+)?(?:want|wanna|need|like|love|hope|plan|about\s+to|\w+ing|interested|keen|curious)(?:\s+(?:to|in|on|about|for|into|at))?\b`),
	regexp.MustCompile(`(?i)^(?:i|we)(?:'ve|'d|'m|'re)?\s+(?:keep|kept|always|still|really|just|often|also|have\s+been|had\s+been|been|was|were)(?:\s+(?:been|really|always))?\s+(?:\w+ing|wanted|wondered|meant|hoped|needed|tried|planned)(?:\s+(?:to|in|on|about|for|how\s+to|how|what|whether|if))?\b`),
	regexp.MustCompile(`(?i)^(?:trying|looking|hoping|planning|searching|wanting)(?:\s+(?:to|for|into|at))?\b`),
	interestedIn,
	regexp.MustCompile(`(?i)^(?:learn|understand|know|find\s+out|figure\s+out|hear|see|discover|explore)(?:\s+more)?(?:\s+(?:about|how\s+to|how|what|on))?\b`),
	regexp.MustCompile(`(?i)^how\s+(?:to|do\s+(?:i|we)|can\s+(?:i|we)|should\s+(?:i|we)|would\s+(?:i|we))\b`),
	// "how long is lunch?" asks about lunch.
	regexp.MustCompile(`(?i)^how\s+long\s+(?:is|are|does|do|will|did|was)(?:\s+(?:the|a|an))?\b`),
	regexp.MustCompile(`(?i)^(?:it\s+|there\s+)?exists?(?:\s+(?:some|any|a|an))?\b`), // "It exists some session on…", as a translation reads "Existe alguma sessão…"
	regexp.MustCompile(`(?i)^(?:is\s+there|are\s+there|there\s+(?:is|are)|do\s+you\s+have|have\s+you\s+got|can\s+you|could\s+you|would\s+you|will\s+there\s+be|does\s+(?:the|this)\s+(?:conference|event|programme|program)\s+have)\b`),
	regexp.MustCompile(`(?i)^(?:any|anything|something|some|a|an)(?:\s+(?:good|interesting|useful|relevant))?(?:\s+(?:talks?|sessions?|workshops?|presentations?))?(?:\s+(?:here|at\s+(?:the|this)\s+(?:conference|event|summit)))?(?:\s+(?:on|about|for|covering|regarding|related\s+to|pertaining\s+to|that\s+(?:would|could|can|will)\s+(?:help|teach|show)\s+(?:me|us)(?:\s+(?:to|with|understand))?))?\b`),
	regexp.MustCompile(`(?i)^(?:that|which)\s+(?:would|could|can|will)\s+(?:help|teach|show)\s+(?:me|us)(?:\s+(?:to|with|understand))?\b`),
	regexp.MustCompile(`(?i)^(?:recommend|suggest|tell|show|find|give|point|list)(?:\s+(?:me|us))?(?:\s+(?:to|some|any|a|an|all|every|the))?\b`),
	regexp.MustCompile(`(?i)^help\s+(?:me|us)(?:\s+(?:with|to|understand))?\b`),
	// What the attendee wants to know of something: "some background on
	// the keynote speaker", "more info about the dinner", "details of…",
	// "some background (on the Friday keynote) speaker" once its time and
	// format are read; not "background checks".
	regexp.MustCompile(`(?i)^(?:some\s+|more\s+|any\s+|a\s+(?:bit|little)\s+(?:of\s+|more\s+)?)?(?:background|info|information|details?|bio|biography)(?:\s+(?:info|information))?(?:\s+(?:on|about|of|for|regarding)(?:\s+(?:the|a|an|this|that))?|\s+(?:(?:the|a|an|this|that)\s+)?(?:speakers?|presenters?|talks?|keynotes?|sessions?)\s*$)\b`),
	regexp.MustCompile(`(?i)^(?:what's|whats|what\s+is|what\s+are)\s+(?:there|on|happening|available|running|going\s+on)(?:\s+(?:about|for|on))?\b`),
	regexp.MustCompile(`(?i)^(?:(?:is|are|does|do|will)\s+)?(?:anything|something|any\s+(?:talks?|sessions?|workshops?))\s+(?:(?:in|on|at)\s+(?:the|this)\s+(?:programme|program|agenda|schedule|conference|event)\s+)?(?:(?:cover(?:s|ing)?|address(?:es|ing)?|deal(?:s|ing)?\s+with|touch(?:es|ing)?\s+on|scheduled|being\s+(?:presented|given|held|run))(?:\s+(?:on|about))?|about|on)\b`),
	regexp.MustCompile(`(?i)^(?:(?:is|are|will|does)\s+)?(?:anyone|anybody|someone|somebody)(?:\s+here)?\s+(?:(?:presenting|talking|speaking|covering|discussing|giving\s+a\s+talk|doing\s+a\s+talk)(?:\s+(?:on|about))?(?:\s+(?:that|this|it)\s*$)?)?\b`),
	regexp.MustCompile(`(?i)^(?:who|whom)(?:'s|s)?\b(?:\s+(?:is|are|can|could|should|will|would|might|does|do|gives?|giving|talks?|talking|speaks?|speaking|presents?|presenting|runs?|running|teach(?:es)?|teaching|knows?|works?|working|help|helps|me|us|a|an|the|about|on|with|in|to|most|best|here|covers?|covering|handles?|handling|doing|makes?|sells?|manufactures?|supplies|offers?|provides?|distributes?|builds?))*\b`),
	regexp.MustCompile(`(?i)^(?:where|when|what|which)\b(?:(?:\s+|['’])(?:is|are|was|can|could|should|do|does|will|would|i|we|me|us|my|our|find|get|go|give|help|show|teach|the|a|an|time|day|rooms?|halls?|stages?|floors?|location|there|s|one|ones|sessions?|talks?|workshops?|speakers?|exhibitors?|booths?|companies|company|vendors?|best|most|more|really|actually|be|starts?|starting|begins?|beginning|kick(?:s|ing)?\s+off|(?:fit|squeeze)(?:\s+in)?|covers?|covering|treats?|treating|discuss(?:es)?|address(?:es)?|deals?\s+with|about|on))*\b`),
	myConcernIs,
	// What the attendee has been made responsible for is what they need:
	// "I've just been made responsible for our repository".
	regexp.MustCompile(`(?i)^(?:(?:i|we)(?:'ve|'m|'re|\s+have|\s+am|\s+are)?\s+)?(?:just\s+|recently\s+|now\s+)?(?:been\s+)?(?:made\s+|put\s+)?(?:responsible\s+for|in\s+charge\s+of|tasked\s+with)(?:\s+(?:our|my|the))?\b`),
	// Whether the attendee can still make something: "am I too late for
	// the closing keynote?", "is it too early for the expo?".
	regexp.MustCompile(`(?i)^(?:am|are|is)\s+(?:i|we|it)\s+(?:too\s+|already\s+)?(?:late|early)\s+(?:for|to)\b`),
	// "…, is that covered?": whether the programme has it, asked after it.
	regexp.MustCompile(`(?i)^(?:is|are)\s+(?:that|this|it|they|these|those)\s+(?:(?:being\s+)?covered|included|offered|available|(?:on|in)\s+the\s+(?:agenda|programme|program|schedule)|on\s+offer|anywhere|here)\b`),
	regexp.MustCompile(`(?i)^(?:to|about|on|for|with|more)\b`),
}

// theOne is an item named by what it is about, "one" standing for it:
// "the koha one", "that hands-on one" ask about koha, hands-on.
var theOne = regexp.MustCompile(`(?i)\b(?:the|that|this)\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+ones?\b`)

// questionOpens is how a clause that is a question of its own opens: a
// message of two such questions ("when is lunch and where is the dinner?")
// asks for each of them, however short.
var questionOpens = regexp.MustCompile(`(?i)^\W*(?:(?:` + discourseMarkers + `)[\s,]+)?(?:is\s+there|are\s+there|which|who|where|what|when|how|do\s+you\s+have|any)\b`)

// pointsBack is a word that refers to what an earlier clause named ("…
// and how much does it cost?"): the clause is not a question of its own.
var pointsBack = regexp.MustCompile(`(?i)\b(?:it|its|they|them|their|that|this|those|these)\b`)

// askedWhen opens a question about when something is, which then ends on
// what it asks the time of: "what time does registration open?" is about
// registration, not about opening.
var (
	askedWhen = regexp.MustCompile(`(?i)^\W*(?:when|what\s+time|what\s+day|which\s+day)\b`)
	whenVerb  = regexp.MustCompile(`(?i)\s+(?:start|starts|begin|begins|open|opens|finish|finishes|end|ends|close|closes|kick\s+off|kicks\s+off|wrap\s+up|wraps\s+up|get\s+going|happen|take\s+place)\s*[?.!]*\s*$`)
)

// whenWord and hoursVerb together ask when something happens, wherever
// "when" stands ("expo closes when today?").
var (
	whenWord  = regexp.MustCompile(`(?i)\b(?:when|what\s+time)\b`)
	hoursVerb = regexp.MustCompile(`(?i)\b(?:start|starts|begin|begins|open|opens|finish|finishes|end|ends|close|closes|shut|shuts)\b`)
)

// AsksWhen reports whether a question asks when something happens: a
// clause opening with "when" or "what time", or "when" beside a verb of
// opening or closing.
func AsksWhen(text string) bool {
	for _, c := range clauses(text) {
		if askedWhen.MatchString(c) || whenWord.MatchString(c) && hoursVerb.MatchString(c) {
			return true
		}
	}
	return false
}

// itemWords name the kinds of item a question asks for, not what about:
// "recommend sessions for me" after saying who one is asks for that field.
var itemWords = regexp.MustCompile(`(?i)\b(?:sessions?|talks?|workshops?|panels?|keynotes?|exhibitors?|booths?|speakers?|options|ideas|suggestions|things)\b`)

// countOf is how many items a question asks for ("recommend 3 sessions",
// "two talks on rigging"): how many, not what about.
var countOf = regexp.MustCompile(`(?i)\b(?:\d{1,2}|two|three|four|five|a\s+few|a\s+couple\s+of)\s+((?:good\s+|great\s+|relevant\s+)?(?:sessions|talks|workshops|options|ideas|suggestions|recommendations|exhibitors|booths|speakers))\b`)

// courtesy is please and thanks, as chat writes them too.
const courtesy = `please|pls|plz|kindly|thanks(?:\s+in\s+advance)?|thx|ty|tia|thank\s+you|thanking\s+you(?:\s+in\s+advance)?|cheers`

// trailing filler closes a clause without adding to it.
var trailing = regexp.MustCompile(`(?i)(?:\s+(?:` + courtesy + `|for\s+(?:me|us)|(?:which|what)\s+(?:room|hall|stage|time|day)|where|when|here|at\s+(?:the|this)\s+(?:conference|event|summit|venue)|if\s+any|or\s+something|or\s+so|etc|(?:being\s+)?held|taking\s+place|located|happening|going\s+on|exists?|available|on\s+offer|out\s+there|` + canAttend + `))+\s*$`)

// rhetorical closes a question with the answer the attendee fears ("…, or
// is it just sandwiches?", "or is it all vendor pitches?"): not a need.
var rhetorical = regexp.MustCompile(`(?i)[\s,]+or\s+(?:is|are|was|will)\s+(?:it|that|this|there|everything|they)\s+(?:just|only|all|mostly|simply)\b[^.?!]*[.?!]*\s*$`)

// canAttend is a closing clause that says the attendee could go ("… I can
// still catch", "… we could attend", "… should I head to"), not what about.
const canAttend = `(?:that\s+|which\s+)?(?:i|we)\s+(?:can|could|might|may|should|will|would)\s+(?:still\s+|actually\s+|easily\s+)?(?:catch|attend|make|see|join|visit|hear|watch|go\s+to|get\s+to|head\s+to|drop\s+in\s+on|drop\s+into|squeeze\s+in|fit\s+in)` +
	`|(?:should|can|could|shall)\s+(?:i|we)\s+(?:go|head(?:\s+over)?|get|walk|fit)(?:\s+(?:to|in))?`

// onlyAttending is a clause that only says the attendee could go ("I can
// squeeze in", "which I could still catch"): it names no topic.
var onlyAttending = regexp.MustCompile(`(?i)^(?:` + canAttend + `)\W*$`)

// Topic returns what a question is about in the attendee's own words:
// self-description clauses, what is turned down ("not interested in…") and
// request phrasing are dropped, the rest is
// kept in order as written. A question of only filler gives "".
func Topic(text string) string { return strings.Join(Needs(text), " ") }

// Needs returns the parts of a question that each say what is wanted, in
// order ("how to earn money without upsetting the community", "how to work
// as a remote team"): Topic, clause by clause.
func Needs(text string) []string {
	var out []string
	for _, n := range AskedNeeds(text) {
		out = append(out, n.Text)
	}
	return out
}

// Need is one part of a question that says what is wanted.
type Need struct {
	Text string
	// Asked is set when request phrasing said it outright ("our biggest
	// fear is ransomware", "interested in FHIR"): what it names is wanted,
	// however short, where a bare clause may be only narrative.
	Asked bool
	// Own is set when the need is one of several short questions of their
	// own in one message ("when is lunch and where is the dinner?"): an
	// answer says which of them the programme has nothing on.
	Own bool
}

// AskedNeeds is Needs, saying which needs request phrasing introduced. A
// turn reads the same question many times (planning, ranking, judging), so
// the latest readings are remembered.
func AskedNeeds(text string) []Need {
	needsMemo.Lock()
	n, ok := needsMemo.m[text]
	needsMemo.Unlock()
	if !ok {
		n = askedNeeds(text)
		needsMemo.Lock()
		if len(needsMemo.m) >= maxNeedsMemo {
			clear(needsMemo.m)
		}
		needsMemo.m[text] = n
		needsMemo.Unlock()
	}
	return slices.Clone(n)
}

// needsMemo holds the latest questions' needs, at most maxNeedsMemo.
var needsMemo = struct {
	sync.Mutex
	m map[string][]Need
}{m: map[string][]Need{}}

const maxNeedsMemo = 512

// ForgetNeeds drops the remembered readings, so that a benchmark measures
// a question read for the first time.
func ForgetNeeds() {
	needsMemo.Lock()
	clear(needsMemo.m)
	needsMemo.Unlock()
}

func askedNeeds(text string) []Need {
	text = Respelled(apostrophe.Replace(text))
	var kept []Need
	var selves []string
	var questions []int // where each clause that opens as a question starts in kept
	all := clauses(text)
	last := lastWordy(all)
	for i, clause := range all {
		if down, wanted := declinedPart(clause); down {
			if clause = wanted; clause == "" {
				continue
			}
		}
		parts := need(clause, i == last)
		if parts == nil {
			selves = append(selves, clause)
		}
		before := len(kept)
		for _, part := range parts {
			if n, ok := readPart(part); ok {
				kept = append(kept, n)
			}
		}
		if len(kept) > before && questionOpens.MatchString(clause) && !pointsBack.MatchString(clause) {
			questions = append(questions, before)
		}
	}
	if len(questions) >= 2 && slices.IndexFunc(kept, func(n Need) bool { return len(terms.Content(n.Text)) > 2 }) < 0 {
		for _, i := range questions {
			kept[i].Asked, kept[i].Own = true, true
		}
	}
	if !slices.ContainsFunc(kept, func(n Need) bool { return topical(itemWords.ReplaceAllString(n.Text, "")) }) {
		if fs := fields(selves); len(fs) > 0 {
			kept = kept[:0] // "what's most useful for me?" adds nothing to the field
			for _, f := range fs {
				kept = append(kept, Need{Text: f})
			}
		}
	}
	return kept
}

// readPart reads what one part of a clause asks for, without its request
// phrasing and trailing filler; false when nothing is left.
func readPart(part string) (Need, bool) {
	p, asked := peel(rhetorical.ReplaceAllString(countOf.ReplaceAllString(theOne.ReplaceAllString(part, "$1"), "$1"), ""))
	if askedWhen.MatchString(part) {
		p = whenVerb.ReplaceAllString(p, "")
	}
	t := strings.TrimSpace(trailing.ReplaceAllString(p, ""))
	return Need{Text: t, Asked: asked}, t != "" && !onlyAttending.MatchString(t)
}

// Request is the question without its sentences of context (see Asking)
// and the clauses in which attendees only say who they are, its request
// phrasing kept ("which sessions should I go to?"): what routes the
// question, where "I'm the only security person" asks for no person. A
// question of only self-description is returned whole.
func Request(text string) string {
	text, _ = Asking(Respelled(apostrophe.Replace(text)))
	var kept []string
	all := clauses(text)
	last := lastWordy(all)
	for i, clause := range all {
		for _, part := range need(clause, i == last) {
			if part = strings.TrimSpace(part); part != "" {
				kept = append(kept, part)
			}
		}
	}
	if len(kept) == 0 {
		return text
	}
	return strings.Join(kept, ", ")
}

// Several reports whether a question asks for more than one thing: two or
// more of its needs (Needs) have at least two content words each.
func Several(text string) bool {
	n := 0
	for _, part := range Needs(text) {
		if len(terms.Content(part)) >= 2 {
			n++
		}
	}
	return n >= 2
}

// clauses splits text at clause breaks.
func clauses(text string) []string {
	var out []string
	last := 0
	for _, m := range clauseBreak.FindAllStringIndex(text, -1) {
		if inWord(text, m) {
			continue
		}
		out = append(out, text[last:m[0]])
		last = m[1]
		if and := andThen.FindStringIndex(text[m[0]:m[1]]); and != nil {
			last = m[0] + and[1] // the subject after "and" starts the next clause
		} else if whThen.MatchString(text[m[0]:m[1]]) {
			last = m[0] + 1 // "im starving when is lunch": the question starts the next clause
		}
	}
	return append(out, text[last:])
}

// inWord reports a lone '.' or ':' with no space on either side, or a ','
// between digits: part of a number or a name ("3,000 boxes", "Ruby 1.8",
// "Node.js", "12:30"), not the end of a clause as in "RAG,MLOps".
func inWord(text string, m []int) bool {
	if m[1]-m[0] != 1 || !strings.ContainsRune(".,:", rune(text[m[0]])) || m[0] == 0 || m[1] == len(text) {
		return false
	}
	before, after := rune(text[m[0]-1]), rune(text[m[1]])
	if text[m[0]] == ',' {
		return unicode.IsDigit(before) && unicode.IsDigit(after)
	}
	return !unicode.IsSpace(before) && !unicode.IsSpace(after)
}

// lastWordy is the index of the last clause with words in it (-1 when
// none has): a role named there is asked for ("Cloud operator in Europe
// with GPUs?"), since an attendee who says who they are goes on to ask
// something.
func lastWordy(all []string) int {
	for i := len(all) - 1; i >= 0; i-- {
		if strings.TrimSpace(all[i]) != "" {
			return i
		}
	}
	return -1
}

// need returns the parts of a clause that say what is wanted: all of it,
// nothing when it only describes the attendee, or what follows the
// self-description. A role names who asks only in a clause that is not
// the message's last (see lastWordy).
func need(clause string, last bool) []string {
	c := strings.TrimSpace(peelGreeting(clause))
	if ownPlans.MatchString(c) {
		return nil
	}
	if (!selfDescription.MatchString(c) && (last || !roleIntro(c))) || notSelf(c) || askedBy.MatchString(c) || worry.MatchString(c) {
		return []string{clause}
	}
	if loc := needStartIn(c); loc != nil {
		return []string{c[loc[0]:]}
	}
	if loc := grievance.FindStringIndex(c); loc != nil {
		return []string{c[loc[1]:]}
	}
	return nil
}

// grievance in a clause where attendees say who they are introduces what
// troubles them, which is what they want help with: "I'm a shipper fed up
// with D&D charges", "a nurse tired of double charting".
var grievance = regexp.MustCompile(`(?i)\b(?:fed\s+up|tired|weary)\s+(?:with|of)\s+|\bsick\s+of\s+|\b(?:struggling|wrestling|battling|grappling)\s+with\s+|\b(?:frustrated|annoyed|fed\s+up)\s+(?:by|about)\s+|\b(?:worried|concerned|anxious|nervous)\s+(?:about|by)\s+`)

func peelGreeting(s string) string {
	return requestPhrasing[0].ReplaceAllString(strings.TrimSpace(s), "")
}

// peel strips request phrasing from the start of a clause until none is
// left, never part of a hyphenated word ("an on-site nursery" keeps
// "on-site").
func peel(s string) (rest string, asked bool) {
	s = strings.TrimSpace(s)
	for changed := true; changed; {
		changed = false
		for _, re := range requestPhrasing {
			if end := peelable(re, s); end > 0 {
				s = strings.TrimSpace(s[end:])
				changed, asked = true, asked || slices.Contains(outright, re)
			}
		}
	}
	return s, asked
}

// peelable is where re's request phrasing at the start of s ends, cut
// back to the last whole word before a hyphenated one; 0 when none.
func peelable(re *regexp.Regexp, s string) int {
	loc := re.FindStringIndex(s)
	if loc == nil {
		return 0
	}
	end := loc[1]
	if strings.HasPrefix(s[end:], "-") {
		end = max(strings.LastIndexAny(s[:end], " \t"), 0)
	}
	return end
}
