package lexical

import (
	"strings"
	"unicode/utf8"
)

// Cognates: a word of another language that the translator left as it was
// ("mamografia" in a Portuguese question, "tecnología") is often the
// conference's own word spelt the way that language spells it. Folding
// the spellings that differ between European languages and English
// (accents, ph/f, th/t, ch/c, qu/c, k/c, y/i, z/s, -tion/-ción/-ção/-tie,
// doubled letters, the closing vowels) gives both the same key, so such a
// word is read as the conference's word with that key.

var (
	accents = strings.NewReplacer(
		"á", "a", "à", "a", "â", "a", "ä", "a", "ã", "a", "å", "a",
		"é", "e", "è", "e", "ê", "e", "ë", "e",
		"í", "i", "ì", "i", "î", "i", "ï", "i",
		"ó", "o", "ò", "o", "ô", "o", "ö", "o", "õ", "o",
		"ú", "u", "ù", "u", "û", "u", "ü", "u",
		"ç", "c", "ñ", "n", "ß", "ss")
	cognateFolds = strings.NewReplacer(
		"ph", "f", "th", "t", "ch", "c", "qu", "c", "k", "c", "y", "i", "z", "s",
		"tion", "cion", "cao", "cion", "tie", "cion")
)

// minCognate is the shortest word read as a cognate: shorter keys match
// too many unrelated words.
const minCognate = 6

// cognateKey folds a lower-case word to its cognate key, or "" when it is
// too short to have one.
func cognateKey(w string) string {
	if utf8.RuneCountInString(w) < minCognate {
		return ""
	}
	f := cognateFolds.Replace(accents.Replace(w))
	var b strings.Builder
	var last rune
	for _, r := range f {
		if r != last {
			b.WriteRune(r)
		}
		last = r
	}
	key := strings.TrimRight(b.String(), "aeiou")
	if utf8.RuneCountInString(key) < minCognate-1 {
		return ""
	}
	return key
}

// addCognates indexes the conference's words by cognate key, the most
// frequent word for a key shared by several.
func (v *vocabulary) addCognates() {
	v.cognates = map[string]string{}
	for w, n := range v.words {
		k := cognateKey(w)
		if k == "" {
			continue
		}
		if c, ok := v.cognates[k]; !ok || n > v.words[c] || (n == v.words[c] && w < c) {
			v.cognates[k] = w
		}
	}
}
