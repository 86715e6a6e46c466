package translate

import (
	"strings"

	"github.com/erleah/erleah-agent/search/terms"
)

// reader reads words of one language with its dictionary, each in the
// sense the conference uses (known) when it has one.
type reader struct {
	d     *dict
	lang  string
	known func(string) bool
}

// word reads one word (as written): its best sense, the senses of its
// parts when it is a compound the dictionary lacks (written with hyphens
// or as one word), or the word itself.
func (r reader) word(w string) (string, error) {
	sense, err := r.lookup(w)
	if err != nil || sense != "" {
		return sense, err
	}
	if parts := strings.FieldsFunc(w, func(c rune) bool { return c == '-' }); len(parts) > 1 {
		return r.parts(parts)
	}
	head, tail, err := r.compound(strings.ToLower(w), 1)
	if err != nil || head != "" {
		return strings.TrimSpace(head + " " + tail), err
	}
	return w, nil
}

// parts reads the parts of a hyphenated word each on its own
// ("KI-Modelle" → AI models).
func (r reader) parts(parts []string) (string, error) {
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		s, err := r.word(p)
		if err != nil {
			return "", err
		}
		out = append(out, s)
	}
	return strings.Join(out, " "), nil
}

// lookup returns the best sense of word (as written) or of a form of it
// without an inflection ending, "" when the dictionary has none.
func (r reader) lookup(word string) (string, error) {
	for i, form := range forms(r.lang, strings.ToLower(word)) {
		entries, err := r.d.entries(form)
		if err != nil {
			return "", err
		}
		if i == 0 {
			entries = asWritten(entries, word)
		}
		if s := bestSense(entries, r.known); s != "" {
			return s, nil
		}
	}
	return "", nil
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
// without them ("Vorträgen" → "Vorträge"). The Scandinavian languages
// add their definite endings ("patienterna" → "patient").
var endings = map[string][]string{
	"":   {"ern", "nen", "en", "er", "es", "em", "et", "e", "n", "s", "t"},
	"sv": {"erna", "arna", "orna", "erne", "ern", "nen", "en", "er", "es", "em", "et", "ar", "or", "na", "e", "n", "s", "t", "a"},
	"da": {"erne", "ene", "ern", "nen", "en", "er", "es", "em", "et", "ne", "e", "n", "s", "t"},
}

// plurals are Dutch plural endings whose singular changes a letter
// ("ziekenhuizen" → "ziekenhuis", "brieven" → "brief").
var plurals = [][2]string{{"zen", "s"}, {"ven", "f"}}

// forms are word and its forms without one inflection ending, keeping at
// least four letters, and without the doubled consonant an ending doubles
// ("netten" → "net").
func forms(lang, word string) []string {
	out := []string{word}
	for _, p := range plurals {
		if stem, ok := strings.CutSuffix(word, p[0]); ok && len([]rune(stem)) >= 3 {
			out = append(out, stem+p[1])
		}
	}
	ends, ok := endings[lang]
	if !ok {
		ends = endings[""]
	}
	for _, e := range ends {
		if stem, ok := strings.CutSuffix(word, e); ok && len([]rune(stem)) >= 4 {
			out = append(out, stem)
			if r := []rune(stem); r[len(r)-1] == r[len(r)-2] && !strings.ContainsRune("aeiouyäöüåæø", r[len(r)-1]) {
				out = append(out, string(r[:len(r)-1]))
			}
		}
	}
	return out
}

// compound reads a word the dictionary lacks as two it has, the longest
// head first, with a linking s allowed ("Netzwerksicherheit" → network
// security): each part at least four letters. A head may itself be a
// compound, depth levels down ("vårdenhetschef" → care unit chief).
func (r reader) compound(word string, depth int) (string, string, error) {
	rs := []rune(word)
	for i := len(rs) - 4; i >= 4; i-- {
		tail, err := r.lookup(string(rs[i:]))
		if err != nil {
			return "", "", err
		}
		if tail == "" {
			continue
		}
		for _, head := range []string{string(rs[:i]), strings.TrimSuffix(string(rs[:i]), "s")} {
			if len([]rune(head)) < 4 {
				continue
			}
			h, err := r.lookup(head)
			if err != nil {
				return "", "", err
			}
			if h == "" && depth > 0 {
				hh, ht, err := r.compound(head, depth-1)
				if err != nil {
					return "", "", err
				}
				h = strings.TrimSpace(hh + " " + ht)
			}
			if h != "" {
				return h, tail, nil
			}
		}
	}
	return "", "", nil
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
		"hier nicht kein keine auch noch schon bitte hallo hi danke dazu darüber davon damit dafür sich man dass ob so"),
	"nl": set("de het een en of maar er is zijn was ik jij je hij zij wij we mijn ons onze wat wie waar wanneer hoe welke waarom " +
		"in op aan bij met naar van voor over onder door om te tot uit " +
		"kan kunnen wil willen zou graag iets hier niet geen ook nog al alsjeblieft hallo dank zoals gaan gaat"),
	"da": set("den det en et og eller men der er var jeg du han hun vi min mit vores hvad hvem hvor hvornår hvordan hvilke hvorfor " +
		"i på ad ved med til fra for om under gennem af kan vil gerne noget her ikke ingen også hej tak nogen nogle"),
	"sv": set("den det en ett och eller men finns är var jag du han hon vi min mitt vår vad vem var när hur vilka varför " +
		"i på vid med till från för om under genom av kan vill gärna något här inte ingen också hej tack några"),
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
