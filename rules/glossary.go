package rules

import (
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/erleah/erleah-agent/search/terms"
)

// glossary.json is general knowledge, written without looking at any
// conference: how attendees abbreviate and what catalogues call it instead.
//
//go:embed glossary.json
var glossaryJSON []byte

type glossaryEntry struct {
	Term       string   `json:"term"`
	Expansions []string `json:"expansions"`
}

// glossary maps a normalised term ("ci cd", "k8s", "vector db") to its
// expansions, most specific first.
var glossary = mustGlossary(glossaryJSON)

// longestTerm is the most words any glossary term has.
var longestTerm = func() int {
	n := 1
	for k := range glossary {
		n = max(n, len(strings.Fields(k)))
	}
	return n
}()

func mustGlossary(data []byte) map[string][]string {
	var g struct {
		Entries []glossaryEntry `json:"entries"`
	}
	if err := json.Unmarshal(data, &g); err != nil {
		panic("rules: glossary.json: " + err.Error()) // a build-time asset; tests cover it
	}
	out := make(map[string][]string, len(g.Entries))
	for _, e := range g.Entries {
		out[normalise(e.Term)] = e.Expansions
	}
	return out
}

// normalise lower-cases text and keeps only its words, space separated.
func normalise(text string) string { return strings.Join(terms.Words(text), " ") }

// expand finds the glossary term that starts words[i:], longest first, and
// returns its expansions and how many words it spans. Two words written
// apart that the glossary writes as one ("ml ops", "dev ops") are its term
// too.
func expand(words []string, i int) ([]string, int) {
	for n := min(longestTerm, len(words)-i); n >= 1; n-- {
		if exp, ok := glossary[strings.Join(words[i:i+n], " ")]; ok {
			return exp, n
		}
		if n == 2 {
			if exp, ok := glossary[words[i]+words[i+1]]; ok {
				return exp, 2
			}
		}
	}
	return nil, 0
}
