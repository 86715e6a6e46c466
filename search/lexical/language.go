package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"

	"github.com/erleah/erleah-agent/search/terms"
)

// English is the language code of English.
const English = "en"

// Foreign reports whether a detected language (an ISO 639-1 code, "" when
// unknown) is another than English.
func Foreign(language string) bool { return language != "" && language != English }

// Vocabulary is what a conference's text says about a word: whether it
// uses the word, and whether it uses the word or one a typo away.
type Vocabulary interface {
	Knows(word string) bool
	Recognises(word string) bool
}

// Language returns the ISO 639-1 code of the language a question is
// written in, English unless it clearly is another. A question counts as
// English when at least half of its words are English words, English
// function words or words of the conference (names, products, jargon), and
// another language's function words are fewer than the English ones (or
// one); otherwise otherLanguage says which it is. With no function word of
// another language, a typo of a conference word counts as one of its words
// ("ransomeware tabletop exercize"), where a cognate beside "la" or "di"
// does not ("terapie digitali per la salute mentale"). Numbers and
// acronyms count for no language; a word or two with no function word is
// read by short. v may be nil.
func Language(text string, v Vocabulary) string {
	words := languageWords(text)
	if len(words) == 0 {
		return English
	}
	t := tallied(words, v)
	// Mostly familiar words make an English question, unless another
	// language's function words are as many as English ones ("Y a-t-il des
	// ateliers demain matin ?": atelier and matin are English words too;
	// "Is er een workshop over …": is and over are Dutch too).
	if 2*t.familiar >= len(words) && (t.foreign < 2 || t.foreign < t.english) {
		return English
	}
	if t.foreign == 0 && 2*(t.familiar+typos(t.unfamiliar, v)) >= len(words) {
		return English
	}
	if strings.ContainsAny(text, "¿¡") {
		t.votes[whatlanggo.Spa]++ // only Spanish opens a question or a cry
	}
	// With no function word of any language and no "¿", a word or two is
	// read by its letters.
	if t.foreign == 0 && len(words) < 3 && len(t.votes) == 0 && whatlanggo.DetectScript(text) == unicode.Latin {
		return short(text)
	}
	return otherLanguage(text, t.votes)
}

// languageWords are the words of text that may tell its language: not
// elisions and particles ("l'", "a-t-il", "à"), numbers ("from 14:00 to
// 16:00") or acronyms ("TPU vs NPU?").
func languageWords(text string) []string {
	acronyms := capitals(text)
	var words []string
	for _, w := range terms.Words(text) {
		if utf8.RuneCountInString(w) > 1 && strings.Trim(w, "0123456789") != "" && !acronyms[w] {
			words = append(words, w)
		}
	}
	return words
}

// tally counts what a question's words say about its language.
type tally struct {
	familiar, foreign, english int
	unfamiliar                 []string
	votes                      map[whatlanggo.Lang]int
}

// tallied counts a question's English function words, its familiar words
// (English, or the conference's) and other languages' function words, with
// a vote for each of their languages, and keeps the words that are none.
func tallied(words []string, v Vocabulary) tally {
	t := tally{votes: map[whatlanggo.Lang]int{}}
	for _, w := range words {
		if langs := functionWords[w]; len(langs) > 0 {
			for _, l := range langs {
				t.votes[l]++
			}
			t.foreign++
			continue // "hay", "la", "des": another language's, even where English has the word
		}
		switch {
		case terms.IsStop(w):
			t.english++
			t.familiar++
		case terms.IsEnglish(w) || (v != nil && v.Knows(w)):
			t.familiar++
		default:
			t.unfamiliar = append(t.unfamiliar, w)
		}
	}
	return t
}

// typos counts the words that misspell one the conference uses; only a
// question with no other language's function word asks, so a question in
// another language costs no spelling lookups.
func typos(words []string, v Vocabulary) int {
	if v == nil {
		return 0
	}
	n := 0
	for _, w := range words {
		if v.Recognises(w) {
			n++
		}
	}
	return n
}

// short names the language of a word or two in Latin script with no
// function word: English, unless a letter outside English's alphabet says
// otherwise ("Vorträge Datenschutz?") and the trigram detector, choosing
// among the languages read here alone, is not merely guessing. Product
// names ("opentelemetry", "kicad"), people's names and English jargon are
// what such messages mostly are, and a detector free to choose names Uzbek
// or Javanese for them.
func short(text string) string {
	if !strings.ContainsFunc(text, func(r rune) bool { return r > unicode.MaxASCII && unicode.IsLetter(r) }) {
		return English
	}
	info := whatlanggo.DetectWithOptions(text, whatlanggo.Options{Whitelist: readable})
	if info.Confidence < minShortConfidence || info.Lang.Iso6391() == "" {
		return English
	}
	return info.Lang.Iso6391()
}

// minShortConfidence is the detector's confidence below which a word or
// two is not told apart from a guess: unknown English names score under
// it, a plain German or Spanish noun phrase over it.
const minShortConfidence = 0.2

// readable are the languages functionWords knows.
var readable = func() map[whatlanggo.Lang]bool {
	m := map[whatlanggo.Lang]bool{}
	for _, langs := range functionWords {
		for _, l := range langs {
			m[l] = true
		}
	}
	return m
}()

// capitals are the short words text writes in capitals, lower-cased:
// acronyms, which belong to no language ("GPU", "ISO"); a long word in
// capitals is shouted, not abbreviated. In a message all in capitals
// ("WO IST DER KAFFEE?") another language's function words are shouted
// too.
func capitals(text string) map[string]bool {
	out := map[string]bool{}
	shouted := true
	for _, tok := range terms.Written(text) {
		n, upper := utf8.RuneCountInString(tok), strings.ToUpper(tok) == tok
		shouted = shouted && (n < 2 || upper)
		if n > 1 && n <= 5 && upper && strings.ToLower(tok) != tok {
			out[strings.ToLower(tok)] = true
		}
	}
	if shouted {
		for w := range out {
			if len(functionWords[w]) > 0 {
				delete(out, w)
			}
		}
	}
	return out
}

// otherLanguage names the language of a question that is not English: the
// one most of its function words belong to ("há alguma palestra sobre…"
// has one word Spanish shares, three only Portuguese has). On a tie, or
// with none, a trigram detector (whatlanggo) chooses among the tied
// languages: alone it is unreliable on a short question ("¿Hay charlas
// sobre FHIR?" reads as Uzbek).
func otherLanguage(text string, votes map[whatlanggo.Lang]int) string {
	most := 0
	for _, n := range votes {
		most = max(most, n)
	}
	tied := map[whatlanggo.Lang]bool{}
	for l, n := range votes {
		if n == most {
			tied[l] = true
		}
	}
	if len(tied) == 1 {
		for l := range tied {
			return l.Iso6391()
		}
	}
	opts := whatlanggo.Options{Blacklist: map[whatlanggo.Lang]bool{whatlanggo.Eng: true}}
	if len(tied) > 0 {
		opts = whatlanggo.Options{Whitelist: tied}
	}
	if code := whatlanggo.DetectWithOptions(text, opts).Lang.Iso6391(); code != "" {
		return code
	}
	return "und" // not English, and no language the detector knows
}

// functionWords are frequent function words of the languages attendees
// most often write in besides English, none of them an English word, each
// with the languages it belongs to: a language's most frequent words count
// for it even where other languages share them ("la", "de", "que").
var functionWords = func() map[string][]whatlanggo.Lang {
	m := map[string][]whatlanggo.Lang{}
	for l, words := range map[whatlanggo.Lang]string{
		whatlanggo.Spa: "hay sobre qué que dónde donde cuándo cuando quién quien para una unos unas los las del el la de en con por se al lo es su algún alguna alguien también hoy mañana tarde noche",
		whatlanggo.Fra: "il ils des sur les une pour avec où quand qui quoi que du de en et dans pas au ce se aux est sont quel quelle quels quelles le la aujourd demain matin soir",
		whatlanggo.Deu: "gibt es über für mit wo wann der das ist und ein eine einen zum zur welche welcher wer ich wir von zu auf nicht auch wie sich bei oder vom beim noch nur dazu kann heute morgen übermorgen nachmittag vormittag abend",
		whatlanggo.Ita: "sono sulla sul della degli delle una dove quando chi che con del nel nella si il gli qualche anche la oggi domani pomeriggio mattina sera",
		whatlanggo.Por: "existe alguma algum sobre onde quando quem uma para com não há de que em se mais palestra palestras hoje amanhã manhã tarde noite",
		whatlanggo.Nld: "zijn er waar wanneer wie het een voor welke ik wij van op te dat niet ook bij aan naar zoals wat hoe deze kan gaan mijn onze vandaag morgen overmorgen middag ochtend avond",
		whatlanggo.Dan: "er der nogen noget hvor hvornår hvem hvad hvilke jeg vi det om til med og",
		whatlanggo.Swe: "finns det några något var när vem vad vilka jag vi om till med och är",
		whatlanggo.Nob: "er det noen noe hvor når hvem hva hvilke jeg vi om til med og",
	} {
		for _, w := range strings.Fields(words) {
			m[w] = append(m[w], l)
		}
	}
	return m
}()

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

// OtherLanguageWord reports whether a word, as written, is a function word
// of another language ("es", "la", "über") and not written in capitals,
// so not an acronym.
func OtherLanguageWord(written string) bool {
	return len(functionWords[strings.ToLower(written)]) > 0 && strings.ToLower(written) == written
}
