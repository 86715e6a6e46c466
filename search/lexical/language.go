package lexical

import (
	"github.com/abadojack/whatlanggo"

	"github.com/erleah/erleah-agent/search/terms"
)

// English is the language code of English.
const English = "en"

// Language returns the ISO 639-1 code of the language a question is
// written in, English unless it clearly is another. A question counts as
// English when at least half of its words are English words, English
// function words or words of the conference (names, products, jargon); only
// when fewer are is a trigram detector (whatlanggo) asked which language it
// is. knows reports whether the conference uses a word.
func Language(text string, knows func(string) bool) string {
	words := terms.Words(text)
	if len(words) == 0 {
		return English
	}
	familiar := 0
	for _, w := range words {
		if terms.IsStop(w) || terms.IsEnglish(w) || (knows != nil && knows(w)) {
			familiar++
		}
	}
	if 2*familiar >= len(words) {
		return English
	}
	// Mostly unfamiliar words: which other language is it?
	notEnglish := whatlanggo.Options{Blacklist: map[whatlanggo.Lang]bool{whatlanggo.Eng: true}}
	if code := whatlanggo.DetectWithOptions(text, notEnglish).Lang.Iso6391(); code != "" {
		return code
	}
	return "und" // not English, and no language the detector knows
}

// LanguageName names a language code in English ("de" → "German").
func LanguageName(code string) string {
	if code == "und" {
		return "another language"
	}
	for l, name := range whatlanggo.Langs {
		if l.Iso6391() == code {
			return name
		}
	}
	return code
}
