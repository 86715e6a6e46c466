package lexical

import (
	"regexp"
	"slices"
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
	TalkFeeling  = "feeling"
	TalkMood     = "mood"
	TalkPraise   = "praise"
)

// Small talk is told by its words: a message made only of these, and the
// first kind whose marking words it holds, in the order of smallKinds.
var (
	smallWords = wordSet(`hi hello hey hiya heya yo namaste howdy greetings good there all team folks everyone
		thanks thank you thx ty cheers appreciate appreciated it much so very a lot many that's thats that was is really helpful
		great perfect awesome cool nice brilliant lovely super excellent amazing useful wonderful neat sweet one
		lol lmao rofl haha wow woah whoa omg oh ah
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
	reIdentity = regexp.MustCompile(`^(?:(?:are|r)\s+(?:you|u)\s+(?:a\s+|an\s+)?(?:real\s+)?(?:bot|robot|human|person|ai|machine|chatbot|computer|program|programme)(?:\s+or\s+(?:a\s+|an\s+)?(?:real\s+)?(?:bot|robot|human|person|ai|machine|chatbot|computer|program|programme))?|who\s+(?:are|r)\s+(?:you|u)|what\s+(?:are|r)\s+(?:you|u)|(?:is\s+this|am\s+i\s+(?:talking|chatting|speaking)\s+(?:to|with))\s+(?:a\s+|an\s+)?(?:real\s+)?(?:bot|robot|human|person|ai|machine))$`)
	reHelp     = regexp.MustCompile(`^(?:help(?:\s+me)?(?:\s+please)?|please\s+help|what\s+can\s+(?:you|u)\s+do|what\s+do\s+(?:you|u)\s+do|how\s+does\s+this\s+work|how\s+do\s+i\s+use\s+(?:this|you|u)|what\s+(?:can|should)\s+i\s+ask(?:\s+(?:you|u))?|how\s+can\s+(?:you|u)\s+help(?:\s+me)?|menu|options|commands)$`)
	// rePraise is the assistant praised: "ur great btw", "this bot is
	// class", "you're a legend".
	rePraise     = regexp.MustCompile(`^(?:(?:you|u)(?:'re|’re|re|\s+are|\s+r)?|ur|(?:this|the)\s+(?:bot|app|assistant|chatbot|thing|tool))\s+(?:(?:is|are|so|really|very|pretty|actually|absolutely|just|a|an|the|such\s+a)\s+)*(?:great|legend|class|brilliant|amazing|awesome|helpful|useful|star|genius|lifesaver|life\s+saver|the\s+best|best|gem|fab|fabulous|excellent|fantastic|superb|deadly|wonderful|lovely|the\s+man|the\s+woman)\b`)
	reSmallPunct = regexp.MustCompile(`[^\p{L}\p{N}'’\s]+`)
	// reGoodDay is a greeting by the time of day: "morning" alone may ask
	// what is on then.
	reGoodDay = regexp.MustCompile(`\bgood\s+(?:morning|afternoon|evening|day)\b`)
	// reLaugh is laughter as typed: "hahaha", "hehe", "looool".
	reLaugh = regexp.MustCompile(`\b(?:a?(?:ha)+h?|(?:he){2,}|(?:hi){3,}|l+o+l+)\b`)
)

// SmallTalk says which kind of small talk a message is (TalkGreeting…), ""
// when it asks or names anything else: "hi!" is a greeting, "hi, any
// rigging talks?" is a question.
func SmallTalk(message string) string {
	text := strings.Join(strings.Fields(strings.ToLower(reSmallPunct.ReplaceAllString(Unshortened(message), " "))), " ")
	switch {
	case text == "":
		return ""
	case reIdentity.MatchString(strings.TrimSpace(reLaugh.ReplaceAllString(text, ""))): // "are you a bot lol"
		return TalkIdentity
	case rePraise.MatchString(text) && !asksAnything(message):
		return TalkPraise
	case reHelp.MatchString(text):
		return TalkHelp
	}
	words := strings.Fields(reLaugh.ReplaceAllString(reGoodDay.ReplaceAllString(strings.ReplaceAll(text, "’", "'"), "hello"), "haha"))
	if slices.ContainsFunc(words, func(w string) bool { return !smallWords[w] }) {
		return socialOrFeeling(message, words)
	}
	if kind := kindOf(words); kind != "" {
		return kind
	}
	return TalkAck
}

// asksAnything reports whether a message has a sentence that asks or a
// clause that opens as a question.
func asksAnything(message string) bool {
	text := Unshortened(message)
	asking, _ := Told(text)
	return len(asking) > 0 || slices.ContainsFunc(clauses(text), questionOpens.MatchString)
}

// kindOf is the first kind of small talk whose marking words are in words.
func kindOf(words []string) string {
	for _, k := range smallKinds {
		if slices.ContainsFunc(words, func(w string) bool { return k.marks[w] }) {
			return k.kind
		}
	}
	return ""
}

// socialOrFeeling reads a message that asks nothing (no question, no
// request) and names no kind of item: opened by a greeting, goodbye or
// thanks and going on about the attendee or the assistant ("Good morning
// from Aberdeen! First time in Glasgow", "bye! see you next year"), it is
// that small talk; saying how the attendee feels ("this coffee is
// dreadful", "not impressed", "the keynote was awful") it is a feeling.
// "hi, rigging safety" names a topic.
func socialOrFeeling(message string, words []string) string {
	if asksAnything(message) {
		return ""
	}
	if kind := kindOf(words[:1]); kind != "" && !itemWords.MatchString(message) && socialRest.MatchString(strings.Join(words[1:], " ")) {
		return kind
	}
	if feeling.MatchString(strings.Join(words, " ")) {
		return TalkFeeling
	}
	if mood.MatchString(strings.Join(words, " ")) && !itemWords.MatchString(message) {
		return TalkMood
	}
	return ""
}

var (
	// socialRest goes on about the attendee or the assistant.
	socialRest = regexp.MustCompile(`\b(?:i|i'm|im|we|we're|you|your|u|my|our|me|us|from|see|first\s+time|glad|excited|looking\s+forward|help|helpful|useful|bot|assistant|chatbot|info|information|tips|answers?|advice|everything)\b`)
	// mood is how the attendee is doing (tired, nervous, a great day):
	// said to the assistant, not asked of the programme.
	mood = regexp.MustCompile(`\b(?:tired|exhausted|knackered|shattered|sleepy|jet\s*lag(?:ged)?|can't\s+sleep|cannot\s+sleep|nervous|anxious|feet\s+(?:hurt|are\s+killing\s+me)|(?:great|long|good|fun|busy)\s+(?:first\s+|second\s+|last\s+)?day|what\s+a\s+day|loved\s+it|enjoyed\s+it|having\s+(?:a\s+)?(?:great|good|fun)(?:\s+time)?)\b`)
	// feeling is a complaint or a feeling about something, not a topic.
	feeling = regexp.MustCompile(`\b(?:not\s+(?:impressed|happy|pleased|helpful|useful)|disappointed|disappointing|dreadful|terrible|awful|horrible|rubbish|useless|annoyed|annoying|frustrated|frustrating|appalling|unacceptable|worst)\b`)
)

// reBook asks the assistant to act on the attendee's behalf: book, reserve
// or register them, or buy them a ticket.
var reBook = regexp.MustCompile(`(?i)\b(?:book|reserve|register|enrol|enroll|sign)\s+(?:me|us)\b|\b(?:book|reserve|save|hold)\s+(?:me\s+|us\s+)?(?:a|my|our|two|\d+)\s+(?:seats?|places?|spots?)\b|\bbuy\s+(?:me\s+|us\s+)?(?:a\s+)?tickets?\b`)

// AsksToBook reports whether a message asks the assistant to book,
// reserve or register a place for the attendee, which it cannot do.
func AsksToBook(message string) bool { return reBook.MatchString(message) }
