package terms

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Unaccented is s without the marks on its letters ("Tōtara" → "Totara",
// "Belvédère" → "Belvedere"): how attendees type names on a keyboard that
// has none.
func Unaccented(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}
