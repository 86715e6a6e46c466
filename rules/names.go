package rules

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
)

// properName reports whether words[i] is part of a name written with
// capitals, one capitalised word beside another ("Elon Musk"): a name, not
// an abbreviation of the programme's words ("Elon" is no "exoskeletons").
func properName(words []string, i int) bool {
	return titled(words[i]) && (i > 0 && titled(words[i-1]) || i+1 < len(words) && titled(words[i+1]))
}

// unknownName finds a name of two or more capitalised words in text that
// the conference never uses ("Elon Musk"), or "": not a sentence's
// opening word, nor a function word ("By Thursday", "Honestly I've").
func unknownName(lex *search.Lexicon, text string) string {
	var run []string
	opening := true
	for _, w := range strings.Fields(text) {
		word := unpunctuated(w)
		lower := strings.ToLower(word)
		name := !opening && titled(word) && !strings.ContainsAny(word, "'’-") && !terms.IsStop(lower) && !lex.Corpus().Knows(lower)
		if name {
			run = append(run, word)
		}
		last := w[len(w)-1:]
		opening = strings.ContainsAny(last, ".!?")
		if !name || word != w && strings.ContainsAny(last, ".,;:!?") { // "Paris, France": a comma ends a name
			if len(run) >= 2 {
				return strings.Join(run, " ")
			}
			run = run[:0]
		}
	}
	if len(run) >= 2 {
		return strings.Join(run, " ")
	}
	return ""
}

// personAsked reports whether a question asks whether or where a person
// named in it is: "is Elon Musk coming?", "will Aisha Patel be speaking",
// "where can I meet Aisha Patel?".
func personAsked(text, name string) bool {
	n := regexp.QuoteMeta(name)
	const title, doing = `(?:(?:dr|prof|mr|mrs|ms)\.?\s+)?`, `(?:coming|speaking|attending|presenting|here|there|at|giving|talking|on|in|around|going)\b`
	re := regexp.MustCompile(`(?i)\b(?:is|will|does|did|are)\s+` + title + n + `\s+(?:be\s+)?` + doing +
		`|\b` + n + `\s+(?:is|will\s+be|'s|’s)\s+` + doing +
		`|\b(?:meet|see|find|catch|hear|who\s+is|where\s+is)\s+` + title + n + `\b`)
	return re.MatchString(text)
}

// titled reports whether a written word is capitalised and goes on in
// lower case ("Musk", "McKinsey"; not "AWS" or "ml").
func titled(written string) bool {
	w := unpunctuated(written)
	first, n := utf8.DecodeRuneInString(w)
	return n > 0 && unicode.IsUpper(first) && strings.ContainsFunc(w[n:], unicode.IsLower)
}

// nameNowhere is a person the question asks about by a name the programme
// never mentions (see unknownName), when the question is in English.
func nameNowhere(in *agent.RespondInput) string {
	if in.Lexicon == nil || lexical.Foreign(in.Language) {
		return ""
	}
	if n := unknownName(in.Lexicon, in.Message); n != "" && personAsked(in.Message, n) {
		return n
	}
	return ""
}
