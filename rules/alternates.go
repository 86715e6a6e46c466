package rules

import (
	"regexp"
	"strings"

	"github.com/erleah/erleah-agent/search/lexical"
)

// altToken is a written word (with its inner dots, dashes and apostrophes:
// "G.8275.1", "co-ops") or a slash.
var altToken = regexp.MustCompile(`[\p{L}\p{N}]+(?:[.'’-][\p{L}\p{N}]+)*|/`)

// alternates maps each acronym of a question that a slash joins to another
// ("AAP / CFM stuff", "OOS/OOT") to the acronyms it is joined to: either is
// what the attendee asks about. Words joined by "or", or a slash between
// phrases ("crop insurance or agricultural hail"), are not read so: the
// phrases are the alternatives, not the words beside the joint.
func alternates(question string) map[string][]string {
	toks := altToken.FindAllString(question, -1)
	out := map[string][]string{}
	for i := 1; i+1 < len(toks); i++ {
		l, r := toks[i-1], toks[i+1]
		if toks[i] != "/" || !lexical.IsCapitals(l) || !lexical.IsCapitals(r) {
			continue
		}
		l, r = strings.ToLower(l), strings.ToLower(r)
		out[l] = append(out[l], r)
		out[r] = append(out[r], l)
	}
	return out
}

// explainByAlternates lets a word the conference never uses be met by the
// word it is an alternative to, known or explained: an item with "AAP"
// answers "AAP / CFM stuff" as fully as one with both, and one on
// software-defined vehicles "SDV / OTA".
func explainByAlternates(a lexical.Analysis, alts map[string][]string) {
	for i, k := range a.Concepts {
		if !missing(k) {
			continue
		}
		for _, x := range alts[k.Word] {
			for _, o := range a.Concepts {
				switch {
				case o.Word != x:
				case o.Known():
					a.Explain(i, x)
				default:
					a.Concepts[i].Alts = append(a.Concepts[i].Alts, o.Alts...)
				}
			}
		}
	}
}
