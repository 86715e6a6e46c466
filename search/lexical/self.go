package lexical

import (
	"regexp"
	"strings"
)

// selfDescription opens a clause in which attendees say who they are; such
// clauses tell nothing about what to search for ("I am a platform engineer
// at a mid-size bank", "we're a team of three").
var selfDescription = regexp.MustCompile(`(?i)^(?:i\s+am|i'm|im|we\s+are|we're|i\s+work|we\s+work|my\s+name\s+is|my\s+(?:team|company|job|role)|our\s+(?:team|company|startup|firm|organi[sz]ation)|i\s+(?:lead|manage|head|run|own|teach|study|studied|research|do\s+research)|we\s+(?:run|own|teach|build|make|sell|maintain|operate|manage)|my\s+(?:wife|husband|partner|spouse|colleague|co-?worker|friend|son|daughter|brother|sister|dad|father|mum|mom|mother)\s+(?:is|was|works)|as\s+an?|i\s+(?:can|could|will)\s+(?:only\s+|just\s+)?(?:come|attend|be\s+there|make\s+it)|(?:i|we)(?:'ve|\s+have)?(?:\s+got)?\s+(?:a|an|my|our)\s+(?:\w+\s+)?(?:call|meeting|flight|train|appointment))\b`)

// ownPlans is a clause about the attendee's own day, not a topic: what
// they are through with ("done with talks for today"), how they are getting
// there ("running late", "I might be late", "on my way") or whether they will be there ("trying to decide if I stay for the last day", "trying to
// figure out when to set my alarm").
var ownPlans = regexp.MustCompile(`(?i)^(?:(?:i\s+am|i'm|im|we\s+are|we're)\s+)?(?:(?:all|just|now|pretty\s+much)\s+)?(?:done|finished)\s+with\b` +
	`|^(?:(?:i\s+am|i'm|im|we\s+are|we're)\s+)?(?:running\s+(?:a\s+bit\s+|very\s+|really\s+|so\s+)?(?:late|behind)|stuck\s+in\s+traffic|on\s+my\s+way|on\s+our\s+way)\b` +
	`|^(?:i|we)(?:'ll|\s+(?:might|may|will|could|would|should))\s+(?:probably\s+|likely\s+)?(?:be\s+(?:a\s+(?:bit|little)\s+|very\s+|really\s+|so\s+)?(?:late|delayed)|miss\s+the\s+(?:start|beginning))\b` +
	`|^(?:(?:i\s+am|i'm|im|we\s+are|we're)\s+)?(?:still\s+)?(?:trying|wanting|hoping)\s+to\s+(?:decide|figure\s+out|work\s+out|plan)\s+(?:(?:if|whether)\s+(?:i|we)\s+(?:should\s+|will\s+|can\s+)?|(?:when|what\s+time|how\s+early)\s+(?:(?:i|we)\s+(?:should\s+|need\s+to\s+|have\s+to\s+)?|to\s+))(?:stay|come|go|leave|attend|skip|stick\s+around|come\s+back|arrive|get\s+(?:up|in|there)|wake\s+up|sleep\s+in|lie\s+in|set\s+(?:my|an|the)\s+alarm|head\s+(?:over|in|out))\b`)

// afterIAm captures the word (and the one after it) that follows "I am"/
// "we are" and an adverb: what tells a request or an activity ("I'm
// looking for…", "we're replacing our dispensing cabinets") from who the
// attendee is ("I'm a nurse", "I'm working at a bank").
var afterIAm = regexp.MustCompile(`(?i)^(?:i\s+am|i'm|im|we\s+are|we're)\s+(?:(?:really|currently|now|still|just|also)\s+)?(\w+)(?:\s+(\w+))?`)

var (
	// requestWords after "I'm" start a request.
	requestWords = map[string]bool{"interested": true, "curious": true, "keen": true, "after": true, "into": true, "here": true}
	// identityIng are the verbs in -ing that say where someone is or comes
	// from ("I'm sitting in the Rata room"), or what they do here, not what
	// they want.
	identityIng = map[string]bool{"living": true, "coming": true, "visiting": true, "attending": true, "staying": true,
		"sitting": true, "standing": true, "waiting": true, "speaking": true, "presenting": true, "exhibiting": true}
	// workPlace words after "working" make it a place of work.
	workPlace = map[string]bool{"at": true, "for": true, "in": true, "as": true, "with": true}
)

// notSelf reports whether a clause that opens with "I am"/"we are" goes on
// with a request or an activity: any verb in -ing but those of identityIng
// and "working at/for/…".
func notSelf(c string) bool {
	m := afterIAm.FindStringSubmatch(c)
	if m == nil {
		return false
	}
	w, next := strings.ToLower(m[1]), strings.ToLower(m[2])
	switch {
	case requestWords[w], (w == "new" || w == "about") && next == "to": // "we're about to replace our EHR"
		return true
	case w == "working":
		return !workPlace[next]
	}
	return strings.HasSuffix(w, "ing") && !identityIng[w] && next != "" // "I'm starving": a state, not an activity
}

// needStart cuts a self-description where the need begins ("we're a team
// of 3 trying to get our first models into prod"); "looking after" is
// what the attendee does ("a contractor looking after 25 buildings"), not
// what they look for.
var needStart = regexp.MustCompile(`(?i)\b(?:trying|looking|hoping|wanting|planning|searching|interested|who\s+wants?|that\s+wants?|and\s+want|keen)\b`)

var lookingAfter = regexp.MustCompile(`(?i)^looking\s+after\b`)

// needStartIn is where the need begins in a self-description, or nil.
func needStartIn(c string) []int {
	for _, loc := range needStart.FindAllStringIndex(c, -1) {
		if !lookingAfter.MatchString(c[loc[0]:]) {
			return loc
		}
	}
	return nil
}

// role is a clause that opens with who the attendee is, without a verb
// ("integration analyst at a children's hospital here", "nurse manager
// from Ottawa", "director of nutrition services at a hospital"): a role,
// at most three words before it and what it is of after it, then where.
var role = regexp.MustCompile(`(?i)^(?:an?\s+|the\s+)?((?:[\w'-]+\s+){0,3})(?:(?:` + roles + `)|(?:head|chief)\s+of\s+(?:[\w'&-]+\s+){0,3}[\w'&-]+)(?:\s+of\s+(?:[\w'&-]+\s+){0,3}[\w'&-]+)?\s+(?:(?:at|from|with|in)\s+\S|for\s+(?:a|an|the)\s+\S|for\s+[\w'&.-]+(?:\s+[\w'&.-]+)?\s+here\b)`)

// roles are the nouns people name their job by, in the singular: "operators
// in small ports" is a topic, not who asks. Since many also name whom one
// seeks ("an implementation partner for SAP?", "a compliance advisor for
// GDPR?"), "for" introduces a workplace only before an article or before
// "here" ("nurse manager for a county hospital", "ML engineer for Zalando
// here", not "security engineer for our platform?").
const roles = `developer|engineer|analyst|architect|manager|director|nurse|physician|doctor|pharmacist|scientist|researcher|student|teacher|consultant|founder|officer|specialist|administrator|coordinator|designer|technician|` +
	`vp|president|partner|owner|buyer|planner|superintendent|supervisor|inspector|auditor|advis[eo]r|operator|trainee|intern|apprentice|professor|lecturer|` +
	`surgeon|dentist|veterinarian|lawyer|attorney|counsel|paralegal|accountant|actuary|underwriter|broker|economist|dba|editor|journalist|curator|librarian|farmer|forester|` +
	`therapist|clinician|dietitian|midwife|paramedic|firefighter|captain|mechanic|electrician|programmer|entrepreneur|investor|executive|postdoc|` +
	`cio|cto|ceo|ciso|cno|cmio|cfo|coo`

// notRole are words that, before the role, make the clause a question
// about people ("talks by security engineers at Google").
var notRole = wordSet("by about on for of talks talk sessions session workshops workshop any anything who which what where is are there")

// roleIntro reports whether a clause introduces the attendee by role.
func roleIntro(c string) bool {
	m := role.FindStringSubmatch(c)
	if m == nil {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(m[1])) {
		if notRole[w] {
			return false
		}
	}
	return true
}

// askedBy opens a clause in which someone else asks for the need ("my team
// wants us to…"): a need, not a self-description.
var askedBy = regexp.MustCompile(`(?i)^(?:my|our)\s+(?:boss|manager|team|lead|director|supervisor|employer|company|organi[sz]ation|ceo|cto|cio|ciso)\s+(?:really\s+)?(?:wants?|asked|asks|told|tells|needs?|expects?)\s+(?:me|us)\s+to\b`)

// worry opens a clause in which attendees say what troubles them ("I'm
// also a bit worried about security", "we're struggling with audits"): a
// need, whatever their role.
var worry = regexp.MustCompile(`(?i)^(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:(?:also|really|quite|very|so|pretty|rather|a\s+(?:bit|little)|kind\s+of|sort\s+of|somewhat|particularly|especially|mostly|mainly|still|just|increasingly)\s+)*(?:worried|concerned|anxious|nervous|struggling|stuck|confused|unsure|frustrated|overwhelmed)(?:\s+(?:about|with|by|on|over|of|how\s+to|how|what|whether|if))?\b`)
