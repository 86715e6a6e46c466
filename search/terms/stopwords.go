package terms

// stopWords are words that say nothing about a topic: function words,
// question words and filler common in chat messages, and what is left of
// a contraction once its apostrophe splits it ("we've", "they're", "I'd"),
// and contractions typed without one ("arent", "dont", "whats").
var stopWords = setOf(`
a about above after again against all also am an and any are aren as at be because been before being
below between both but by can cannot could couldn did didn do does doesn doing don down during each
either else etc ever every few for from further get gets getting go goes going got had hadn has hasn
have haven having he her here hers herself him himself his how however i if in into is isn it its
itself just let lets like may me might mine more most much must my myself need needs no nor not now
of off on once only or other our ours ourselves out over own per please quite rather really same
shall she should shouldn so some such than that the their theirs them themselves then there these
they this those through thus to too under until up upon us very via was wasn we were weren what
whatever when where whether which while who whom whose why will with within without would wouldn yet
you your yours yourself yourselves hi hello hey thanks thank bonjour bonsoir salut merci hola gracias hallo danke ciao buongiorno grazie olá obrigado obrigada hej bedankt anyone anybody someone somebody something
anything thing things want wanted wants looking look find finding show tell know help helps
everything nothing everyone everybody nobody anywhere somewhere everywhere nowhere elsewhere whoever wherever whenever
ve re ll m d s t
arent isnt dont doesnt didnt cant wont wasnt werent havent hasnt hadnt shouldnt couldnt wouldnt mustnt
im ive youre youve theyre theyve weve whats thats theres whos
`)

func setOf(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range Words(words) {
		m[w] = true
	}
	return m
}
