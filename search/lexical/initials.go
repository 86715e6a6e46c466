package lexical

import (
	"slices"
	"strings"
	"unicode"
)

// How an acronym's letters are written and which words give them: the
// spelling rules acronym mining matches long forms with.

// sameLetters reports whether a and b are written with the same letters.
func sameLetters(a, b string) bool {
	x, y := []byte(a), []byte(b)
	slices.Sort(x)
	slices.Sort(y)
	return string(x) == string(y)
}

// unpunctuated is a written word without the punctuation around it.
func unpunctuated(w string) string { return strings.Trim(w, `.,;:!?"'()[]{}`) }

// IsCapitals reports whether w is written like an acronym: two to ten
// letters or digits, the letters all capitals ("SBOM", "K8S", "B2B").
func IsCapitals(w string) bool {
	if n := len(w); n < 2 || n > 10 {
		return false
	}
	letters := 0
	for _, r := range w {
		switch {
		case unicode.IsUpper(r):
			letters++
		case unicode.IsDigit(r), r == '&', r == '/', r == '-':
		default:
			return false
		}
	}
	return letters >= 2
}

// camelInitials returns the initials of a word written in joined
// capitalised parts ("OpenStreetMap" → "osm"), "" for other words.
func camelInitials(w string) string {
	var b strings.Builder
	rs := []rune(w)
	for i, r := range rs {
		if !unicode.IsLetter(r) {
			return ""
		}
		if unicode.IsUpper(r) && (i == 0 || unicode.IsLower(rs[i-1])) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	if b.Len() < 2 || !unicode.IsUpper(rs[0]) || IsCapitals(w) {
		return ""
	}
	return b.String()
}

// spelling is what an acronym's words must spell: its lower-case letters,
// and a 2 or 4 between letters, which stand for "to" and "for" ("E2EE" is
// end-to-end encryption, "B2B" business to business). Other numerals stand
// for letters left out ("k8s", "a11y"), so such an acronym spells nothing.
func spelling(acr string) (string, bool) {
	var b strings.Builder
	low := strings.ToLower(acr)
	for i := range len(low) {
		c := low[i]
		switch {
		case isLetter(c):
			b.WriteByte(c)
		case numeral(c) && i > 0 && i+1 < len(low) && isLetter(low[i-1]) && isLetter(low[i+1]):
			b.WriteByte(c)
		case c >= '0' && c <= '9':
			return "", false
		}
	}
	return b.String(), true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }

// numeral reports whether an acronym's letter is a numeral that stands
// for a word (see spelling).
func numeral(c byte) bool { return c == '2' || c == '4' }

// gives reports whether a word gives an acronym's letter c: its initial;
// "to" and "for" the 2 and 4 of "E2EE" and "B2B"; and, for an X, a word
// beginning with cross or trans ("XSS" is cross-site scripting), or, past
// the acronym's first letter, with ex ("UX" is user experience, where an
// "Expert Roundtable" is no XR), as acronyms are written.
func gives(w string, c byte, first bool) bool {
	switch {
	case w == "":
		return false
	case c == '2':
		return w == "to"
	case c == '4':
		return w == "for"
	case c == 'x':
		return w[0] == 'x' || strings.HasPrefix(w, "cross") || strings.HasPrefix(w, "trans") || !first && strings.HasPrefix(w, "ex")
	}
	return w[0] == c
}

// initialsOf are the initials under which the words that give letter c are
// indexed.
func initialsOf(c byte) []byte {
	if c == 'x' {
		return []byte{'x', 'c', 't', 'e'}
	}
	return []byte{c}
}

// longFormBefore finds, ending at the last word, the words whose initials
// spell want.
func longFormBefore(words []string, want string) string {
	for start := len(words) - 1; start >= 0 && len(words)-start <= len(want)+3; start-- {
		if connectors[words[start]] {
			continue
		}
		if spells(words[start:], want) {
			return strings.Join(words[start:], " ")
		}
	}
	return ""
}

// spells reports whether the initials of words spell want: every word
// gives its first letter, except connectors, which may give theirs or
// none ("software bill of materials" spells both SBOM and SBM).
func spells(words []string, want string) bool { return spellsFrom(words, want, true) }

// spellsFrom is spells, first saying whether want starts the acronym.
func spellsFrom(words []string, want string, first bool) bool {
	if len(words) == 0 {
		return want == ""
	}
	w := words[0]
	if w == "" {
		return false
	}
	if want != "" && gives(w, want[0], first) && spellsFrom(words[1:], want[1:], false) {
		return true
	}
	return connectors[w] && spellsFrom(words[1:], want, first)
}
