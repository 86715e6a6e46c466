package lexical

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/erleah/erleah-agent/search/terms"
)

// askingWords are the words of request phrasing, and the words that ask
// for a kind of item, long enough that one typo in them ("aything",
// "intrested", "vendrs") still reads as them.
var askingWords = strings.Fields(`anything something anyone someone anybody somebody everything everyone
	about there where which please interested looking recommend recommendation
	speaker speakers presenter presenters exhibitor exhibitors exhibiting vendor vendors supplier suppliers
	company companies product products session sessions workshop workshops keynote keynotes lecture lectures
	tutorial tutorials presentation presentations`)

var wordRun = regexp.MustCompile(`\p{L}+`)

// Respelled writes a misspelt asking word as itself, so that "aything on
// distributed training?" is read as asking about distributed training and
// "which vendrs sell…" as asking for vendors: a word of five letters or
// more, not English, one typo from exactly one asking word.
func Respelled(text string) string {
	return wordRun.ReplaceAllStringFunc(text, func(w string) string {
		lw := strings.ToLower(w)
		if len(lw) < 5 || terms.IsEnglish(lw) || terms.IsStop(lw) {
			return w
		}
		fix := ""
		for _, a := range askingWords {
			if distance(lw, a, 1) == 1 {
				if fix != "" {
					return w // two asking words fit: leave it
				}
				fix = a
			}
		}
		if fix == "" {
			return w
		}
		if unicode.IsUpper([]rune(w)[0]) {
			fix = strings.ToUpper(fix[:1]) + fix[1:]
		}
		return fix
	})
}
