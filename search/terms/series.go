package terms

import "strings"

// Series joins words as English lists them: "a", "a and b", "a, b and c",
// with conj ("and", "or") before the last.
func Series(words []string, conj string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}
