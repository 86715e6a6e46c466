package lexical

import (
	"regexp"
	"strings"
)

// What a message says when it asks nothing of the programme: a greeting,
// thanks, an acknowledgement, a goodbye, a question about the assistant
// itself or a call for help.
const (
	TalkGreeting = "greeting"
	TalkThanks   = "thanks"
	TalkAck      = "ack"
	TalkBye      = "bye"
	TalkIdentity = "identity"
	TalkHelp     = "help"
)

// Small talk is told by its words: a message made only of these, and the
// first kind whose marking words it holds, in the order of smallKinds.
var (
	smallWords = wordSet(`hi hello hey hiya heya yo namaste howdy greetings good there all team folks everyone
		thanks thank you thx ty cheers appreciate appreciated it much so very a lot many that's thats that was is really helpful
		great perfect awesome cool nice brilliant lovely super excellent amazing useful wonderful
		ok okay k kk got sure alright fine noted understood right yes yeah yep no nope nah sounds will do
		bye goodbye see ya later cya take care`)
	smallKinds = []struct {
		kind  string
		marks map[string]bool
	}{
		{TalkThanks, wordSet("thanks thank thx ty cheers appreciate appreciated helpful")},
		{TalkBye, wordSet("bye goodbye cya later care")},
		{TalkGreeting, wordSet("hi hello hey hiya heya yo namaste howdy greetings")},
	}
	reIdentity   = regexp.MustCompile(`^(?:(?:are|r)\s+(?:you|u)\s+(?:a\s+|an\s+)?(?:real\s+)?(?:bot|robot|human|person|ai|machine|chatbot|computer|program|programme)|who\s+(?:are|r)\s+(?:you|u)|what\s+(?:are|r)\s+(?:you|u)|(?:is\s+this|am\s+i\s+(?:talking|chatting|speaking)\s+(?:to|with))\s+(?:a\s+|an\s+)?(?:real\s+)?(?:bot|robot|human|person|ai|machine))$`)
	reHelp       = regexp.MustCompile(`^(?:help(?:\s+me)?(?:\s+please)?|please\s+help|what\s+can\s+(?:you|u)\s+do|what\s+do\s+(?:you|u)\s+do|how\s+does\s+this\s+work|how\s+do\s+i\s+use\s+(?:this|you|u)|what\s+(?:can|should)\s+i\s+ask(?:\s+(?:you|u))?|how\s+can\s+(?:you|u)\s+help(?:\s+me)?|menu|options|commands)$`)
	reSmallPunct = regexp.MustCompile(`[^\p{L}\p{N}'’\s]+`)
	// reGoodDay is a greeting by the time of day: "morning" alone may ask
	// what is on then.
	reGoodDay = regexp.MustCompile(`\bgood\s+(?:morning|afternoon|evening|day)\b`)
)

// SmallTalk says which kind of small talk a message is (TalkGreeting…), ""
// when it asks or names anything else: "hi!" is a greeting, "hi, any
// rigging talks?" is a question.
func SmallTalk(message string) string {
	text := strings.Join(strings.Fields(strings.ToLower(reSmallPunct.ReplaceAllString(Unshortened(message), " "))), " ")
	switch {
	case text == "":
		return ""
	case reIdentity.MatchString(text):
		return TalkIdentity
	case reHelp.MatchString(text):
		return TalkHelp
	}
	words := strings.Fields(reGoodDay.ReplaceAllString(strings.ReplaceAll(text, "’", "'"), "hello"))
	for _, w := range words {
		if !smallWords[w] {
			return ""
		}
	}
	for _, k := range smallKinds {
		for _, w := range words {
			if k.marks[w] {
				return k.kind
			}
		}
	}
	return TalkAck
}

// reBook asks the assistant to act on the attendee's behalf: book, reserve
// or register them, or buy them a ticket.
var reBook = regexp.MustCompile(`(?i)\b(?:book|reserve|register|enrol|enroll|sign)\s+(?:me|us)\b|\b(?:book|reserve|save|hold)\s+(?:me\s+|us\s+)?(?:a|my|our|two|\d+)\s+(?:seats?|places?|spots?)\b|\bbuy\s+(?:me\s+|us\s+)?(?:a\s+)?tickets?\b`)

// AsksToBook reports whether a message asks the assistant to book,
// reserve or register a place for the attendee, which it cannot do.
func AsksToBook(message string) bool { return reBook.MatchString(message) }
