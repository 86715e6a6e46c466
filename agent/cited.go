package agent

import (
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/terms"
)

// What a follow-up about cited items is answered with.

// aboutCited answers a question about cited items ("who gives the second
// one?", "which company is its speaker with?") with those items and the
// ones linked to them, whatever else the question's words bring up: of
// each table's results only those, each as a full match.
func (t *turn) aboutCited(byTable map[search.Table][]search.Result) {
	f := t.st.FollowUp
	if f == nil || f.Kind != FollowRefer {
		return
	}
	cited := t.items(f.Refs)
	linked := append(cited, t.items(neighbours(cited))...)
	keep := map[search.Ref]bool{}
	for _, r := range linked {
		keep[r.Ref] = true
	}
	for tb, rs := range byTable {
		out := slices.DeleteFunc(rs, func(r search.Result) bool { return !keep[r.Ref] })
		for _, r := range linked {
			if r.Table == tb {
				out = append(out, r) // matching fully: the best of the two stays
			}
		}
		byTable[tb] = out
	}
}

// neighbours are the speakers of the sessions among items and the talks of
// the speakers.
func neighbours(items []search.Result) []search.Ref {
	var out []search.Ref
	for _, r := range items {
		out = append(out, r.Speakers...)
		out = append(out, r.Talks...)
	}
	return out
}

// likeCited is what "more like that" looks for besides the earlier
// question: the words the cited items' titles share, or, when they share
// none, the title of the one talk or exhibitor cited (a speaker's name is
// no topic).
func likeCited(cited []search.Result) string {
	if words := shared(titlesOf(cited)); words != "" {
		return words
	}
	var topical []string
	for _, r := range cited {
		if r.Table != search.Speakers {
			topical = append(topical, r.Title)
		}
	}
	if len(topical) == 1 {
		return topical[0]
	}
	return ""
}

// shared are the content words that at least two of titles have, once
// each, in the order first written: what the items cited before have in
// common, to look for more of.
func shared(titles []string) string {
	seen := map[string]int{}
	var order []terms.Token
	for _, title := range titles {
		once := map[string]bool{}
		for _, tok := range terms.Content(title) {
			if once[tok.Stem] {
				continue
			}
			once[tok.Stem] = true
			if seen[tok.Stem] == 0 {
				order = append(order, tok)
			}
			seen[tok.Stem]++
		}
	}
	var out []string
	for _, tok := range order {
		if seen[tok.Stem] >= 2 {
			out = append(out, tok.Raw)
		}
	}
	return strings.Join(out, " ")
}
