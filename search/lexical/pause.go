package lexical

import "regexp"

// pauseWords name the breaks and meals of a programme.
var pauseWords = wordSet("break breaks lunch lunches breakfast coffee tea refreshments snacks")

// PauseWord reports whether a word of a session's title names a break or a
// meal ("Afternoon break", "Farewell boxed lunch").
func PauseWord(w string) bool { return pauseWords[w] }

var (
	// aroundPause places a time by a break or meal ("after lunch", "before
	// the coffee break"): it asks what is on then, not for the break.
	aroundPause = regexp.MustCompile(`(?i)\b(?:after|before|during|until|till|following|once|over|at|around|by)\s+(?:the\s+|this\s+|today'?s\s+)?(?:\w+\s+)?(?:break|lunch|lunchtime|breakfast)\b`)
	// pauseAsked names breaks, meals or food.
	pauseAsked = regexp.MustCompile(`(?i)\b(?:break|breaks|lunch|breakfast|coffee|tea|eat|food|hungry|snacks?|refreshments|meals?)\b`)
)

// AsksForPause reports whether a question asks about the programme's breaks
// or meals themselves ("when is the coffee break?", "where's lunch?",
// "anything to eat?"), not only about what is on around them ("what's on
// after lunch?").
func AsksForPause(text string) bool {
	return pauseAsked.MatchString(aroundPause.ReplaceAllString(text, " "))
}
