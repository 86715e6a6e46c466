package translate

import (
	"regexp"
	"strings"

	"github.com/erleah/erleah-agent/search/terms"
)

// readWord reads one word (as written) with the dictionary: its best
// sense, the senses of its parts when it is a compound the dictionary
// lacks, or the word itself.
func readWord(d *dict, w string, known func(string) bool) (string, error) {
	lower := strings.ToLower(w)
	if n := len([]rune(w)); n > 2 && n <= 5 && strings.ToUpper(w) == w && lower != w && known != nil && known(w) {
		return w, nil // "RAG" at an AI conference: its acronym, not the Dutch word "rag" (a cobweb)
	}
	sense, err := lookup(d, w, known)
	if err != nil || sense != "" {
		return sense, err
	}
	if known != nil && known(lower) {
		return w, nil // "Foundation" in a German question: the conference's word as written
	}
	head, tail, err := compound(d, lower, known)
	if err != nil || head != "" {
		return strings.TrimSpace(head + " " + tail), err
	}
	return w, nil
}

// lookup returns the best sense of word (as written) or of a form of it
// without an inflection ending, "" when the dictionary has none: of the
// forms found, the one whose sense the conference knows best ("Schiffen"
// is ships, from "Schiff", at a port conference, not the verb "schiffen"),
// the word as written on a tie.
func lookup(d *dict, word string, known func(string) bool) (string, error) {
	best, bestShare := "", -1.0
	for i, form := range forms(strings.ToLower(word)) {
		entries, err := d.entries(form)
		if err != nil {
			return "", err
		}
		if i == 0 {
			entries = asWritten(entries, word)
		}
		if s := bestSense(entries, known); s != "" {
			if known == nil {
				return s, nil // no sense is better known than another: the first found
			}
			if share := familiarity(strings.Fields(s), known); share > bestShare {
				best, bestShare = s, share
			}
		}
	}
	return best, nil
}

// asWritten keeps the entries whose headword is written as word is, when
// some are: in German a noun is capitalised ("Morgen", morning), an adverb
// not ("morgen", tomorrow).
func asWritten(entries []string, word string) []string {
	var out []string
	for _, e := range entries {
		if head, _, _ := strings.Cut(e, " "); head == word {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return entries
	}
	return out
}

// endings are inflection endings of the Germanic languages the
// dictionaries cover, longest first: a word not found is looked up
// without them ("Vorträgen" → "Vorträge").
var endings = []string{"ern", "nen", "en", "er", "es", "em", "et", "e", "n", "s", "t"}

// plurals are Dutch plural endings whose singular changes a letter
// ("ziekenhuizen" → "ziekenhuis", "brieven" → "brief").
var plurals = [][2]string{{"zen", "s"}, {"ven", "f"}}

// forms are word and its forms without one inflection ending, keeping at
// least four letters.
func forms(word string) []string {
	out := []string{word}
	for _, p := range plurals {
		if stem, ok := strings.CutSuffix(word, p[0]); ok && len([]rune(stem)) >= 3 {
			out = append(out, stem+p[1])
		}
	}
	for _, e := range endings {
		if stem, ok := strings.CutSuffix(word, e); ok && len([]rune(stem)) >= 4 {
			out = append(out, stem)
		}
	}
	return out
}

// compound reads a word the dictionary lacks as two parts, with a
// linking s allowed ("Netzwerksicherheit" → network security): each part
// a word of the dictionary, or one the conference writes as it is
// ("Cybersicherheit" → cyber security), each at least four letters. Of
// the splits, the one whose reading the conference knows best wins, the
// longest head on a tie.
func compound(d *dict, word string, known func(string) bool) (string, string, error) {
	r := []rune(word)
	var best [2]string
	bestShare := -1.0
	for i := len(r) - 4; i >= 4; i-- {
		tail, err := part(d, string(r[i:]), known)
		if err != nil {
			return "", "", err
		}
		if tail == "" {
			continue
		}
		for _, head := range []string{string(r[:i]), strings.TrimSuffix(string(r[:i]), "s")} {
			if len([]rune(head)) < 4 {
				continue
			}
			h, err := part(d, head, known)
			if err != nil {
				return "", "", err
			}
			if h == "" {
				continue
			}
			if share := familiarity(strings.Fields(h+" "+tail), known); share > bestShare {
				best, bestShare = [2]string{h, tail}, share
			}
		}
	}
	return best[0], best[1], nil
}

// part reads one part of a compound: its sense, or the part itself when
// the conference uses it as written.
func part(d *dict, w string, known func(string) bool) (string, error) {
	s, err := lookup(d, w, known)
	if err != nil || s != "" {
		return s, err
	}
	if known != nil && known(w) {
		return w, nil
	}
	return "", nil
}

// maxSenseWords bounds a sense: longer ones are explanations.
const maxSenseWords = 4

// bestSense picks, among the senses of entries, the first of those with
// the largest share of words the conference uses (the dictionary lists the
// common senses first), else the first; "" when there is none. A word
// whose first entry is an adverb is read in its first sense: adverbs say
// when and how ("heute" is today), not what about.
func bestSense(entries []string, known func(string) bool) string {
	if len(entries) > 0 {
		if head, _, _ := strings.Cut(entries[0], "\n"); strings.Contains(head, "<adv") {
			known, entries = nil, entries[:1]
		}
	}
	best, bestShare := "", -1.0
	for _, e := range entries {
		for _, s := range senses(e) {
			s = plain(s)
			ws := strings.Fields(s)
			if len(ws) == 0 || len(ws) > maxSenseWords {
				continue
			}
			if share := familiarity(ws, known); share > bestShare {
				best, bestShare = s, share
			}
		}
	}
	return best
}

// familiarity is the share of ws's content words the conference uses.
func familiarity(ws []string, known func(string) bool) float64 {
	if known == nil {
		return 0
	}
	content, n := 0, 0
	for _, w := range ws {
		w = strings.ToLower(w)
		if terms.IsStop(w) {
			continue
		}
		content++
		if known(w) {
			n++
		}
	}
	if content == 0 {
		return 0
	}
	return float64(n) / float64(content)
}

// plain drops a sense's placeholders, its number in a numbered list and
// its infinitive "to" ("to give sth. to sb." → "give", "1. morning" →
// "morning").
func plain(s string) string {
	var out []string
	for _, w := range strings.Fields(s) {
		switch w {
		case "sth.", "sb.", "sb.'s", "sth.'s", "etw.", "jdn.", "jdm.", "(sich)", "sich":
			continue
		}
		if n, ok := strings.CutSuffix(w, "."); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			continue
		}
		out = append(out, w)
	}
	if len(out) > 1 && out[0] == "to" {
		out = out[1:]
	}
	return strings.Join(out, " ")
}

// functionWords carry no topic: they are left out of a reading.
var functionWords = map[string]map[string]bool{
	"de": set("der die das den dem des ein eine einen einem einer eines und oder aber es gibt ist sind war gibt's " +
		"ich du er sie wir ihr mich mir uns euch mein meine unser unsere ihr ihre was wer wo wann wie welche welcher welches warum " +
		"in im an am auf aus bei mit nach von vom zu zum zur über unter für gegen ohne um vor hinter durch " +
		"kann können könnte möchte möchten will wollen soll sollte habe hat haben bin bist gerne gern etwas irgendwas " +
		"hier auch noch schon bitte hallo hi danke thema themen"),
	"nl": set("de het een en of maar er is zijn was ik jij je hij zij wij we mijn ons onze wat wie waar wanneer hoe welke waarom " +
		"in op aan bij met naar van voor over onder door om te tot uit " +
		"kan kunnen wil willen zou graag iets hier ook nog al alsjeblieft hallo dank onderwerp onderwerpen"),
	"da": set("den det en et og eller men der er var jeg du han hun vi min mit vores hvad hvem hvor hvornår hvordan hvilke hvorfor " +
		"i på ad ved med til fra for om under gennem af kan vil gerne noget her også hej tak nogen nogle emne emner"),
	"sv": set("den det en ett och eller men finns är var jag du han hon vi min mitt vår vad vem var när hur vilka varför " +
		"i på vid med till från för om under genom av kan vill gärna något här också hej tack några ämne ämnen"),
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// functionWord reports whether w is a function word of lang.
func functionWord(lang, w string) bool { return functionWords[lang][strings.ToLower(w)] }

// negations are the words that turn down what follows ("aber nicht am
// Nachmittag", "geen panels"): read as "not", which says it in English,
// where dropping them would ask for what was turned down.
//
// In a question asking whether there are any ("Gibt es morgen keine
// Workshops?", "Zijn er geen panels?") the negation asks rather than turns
// down, so it is dropped there (see tokens).
var negations = map[string]map[string]bool{
	"de": set("nicht kein keine keinen keinem keiner keines"),
	"nl": set("niet geen"),
	"da": set("ikke ingen intet"),
	"sv": set("inte ingen inget inga"),
}

// whetherAny opens, in each language read word by word, a clause that asks
// whether there are any: "gibt es", "zijn er", "er der", "finns det".
var whetherAny = map[string]*regexp.Regexp{
	"de": regexp.MustCompile(`(?i)^(?:gibt\s+es|gibt's|gibts)\b`),
	"nl": regexp.MustCompile(`(?i)^(?:is|zijn)\s+er\b`),
	"da": regexp.MustCompile(`(?i)^(?:er|findes)\s+der\b`),
	"sv": regexp.MustCompile(`(?i)^(?:finns|är)\s+det\b`),
}

// contrast are the words that go on, in the languages read word by word,
// to what is not wanted ("aber", "maar", "men", "utan"): a negation after
// one turns down, even in a clause that asks whether there are any.
var contrast = set("aber sondern jedoch maar echter men utan")

// clauseMark ends a clause in a question read word by word.
var clauseMark = regexp.MustCompile(`[,.;:!?¿¡]+`)

// tokens returns the words of text, each clause followed by the mark that
// ends it ("?", ".", ","), so that a reading keeps its sentences; with the
// negations of the clauses that ask whether there are any ("Gibt es morgen
// keine Workshops?") left out, up to a word of contrast.
func tokens(lang, text string) []string {
	opener := whetherAny[lang]
	var out []string
	last := 0
	for _, m := range append(clauseMark.FindAllStringIndex(text, -1), []int{len(text), len(text)}) {
		clause := text[last:m[0]]
		asks := opener != nil && opener.MatchString(strings.TrimSpace(clause))
		for _, w := range words(clause) {
			lower := strings.ToLower(w)
			asks = asks && !contrast[lower] // "Gibt es Workshops zu RAG aber keine Panels?" turns panels down
			if !asks || !negations[lang][lower] {
				out = append(out, w)
			}
		}
		if mark := strings.Trim(text[m[0]:m[1]], "¿¡"); mark != "" {
			out = append(out, mark[:1])
		}
		last = m[1]
	}
	return out
}

// isMark reports whether a token of tokens is a clause's mark.
func isMark(tok string) bool { return clauseMark.MatchString(tok) }

// programmeWords are the words a question uses to say which part of a
// programme it asks about (speakers, talks, exhibitors, booths) in the
// languages read word by word, in the forms attendees write them, before
// the dictionary: the dictionaries lack many ("spreker", "utställare",
// "udstiller") or give another sense first ("Referent", a desk officer),
// and then a question is sent to the wrong table or to none. Words that
// are as often something else (Danish "taler", speaks; "foredrag", talk
// or talks) are left to the dictionary.
var programmeWords = map[string]map[string]string{
	"de": readings("Referent Referentin Sprecherin Rednerin=speaker Sprecher Redner Referenten Referentinnen Sprecherinnen Rednerinnen Vortragende Vortragenden=speakers " +
		"Vortrag Vortrags=talk Vorträge Vorträgen=talks Ausstellerin=exhibitor Aussteller Ausstellern Ausstellerinnen=exhibitors Messestand=booth"),
	"nl": readings("spreker spreekster presentator=speaker sprekers spreeksters presentatoren=speakers lezing voordracht praatje=talk lezingen voordrachten praatjes=talks " +
		"standhouder exposant=exhibitor standhouders exposanten=exhibitors sessie=session sessies=sessions"),
	"da": readings("foredragsholder oplægsholder=speaker talere talerne foredragsholdere oplægsholdere=speakers foredraget=talk foredragene=talks " +
		"udstiller=exhibitor udstillere udstillerne=exhibitors sessioner=sessions"),
	"sv": readings("talare föreläsare föredragshållare=speaker talarna föreläsarna=speakers föredraget föreläsning=talk föredragen föreläsningar=talks " +
		"utställare=exhibitor utställarna=exhibitors monter montern=booth sessioner=sessions"),
}

// readings reads "a b=x c=y" as a→x, b→x, c→y, lower-cased.
func readings(list string) map[string]string {
	m := map[string]string{}
	var pending []string
	for _, f := range strings.Fields(list) {
		w, en, ok := strings.Cut(f, "=")
		pending = append(pending, strings.ToLower(w))
		if ok {
			for _, p := range pending {
				m[p] = en
			}
			pending = nil
		}
	}
	return m
}
