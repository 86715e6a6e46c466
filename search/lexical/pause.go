package lexical

// pauseWords name the breaks and meals of a programme.
var pauseWords = wordSet("break breaks lunch lunches breakfast coffee tea refreshments snacks")

// PauseWord reports whether a word of a session's title names a break or a
// meal ("Afternoon break", "Farewell boxed lunch").
func PauseWord(w string) bool { return pauseWords[w] }
