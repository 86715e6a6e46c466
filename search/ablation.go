package search

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Ablation turns techniques off, one by one, to measure what each adds
// (erleah-agent eval --ablate). The zero value turns nothing off; only
// evaluation sets one.
type Ablation map[string]bool

// Techniques lists what an Ablation may turn off, with what each is.
var Techniques = map[string]string{
	"spelling":    "spelling correction against the conference's vocabulary",
	"filler":      "dropping self-description and request phrasing",
	"acronyms":    "acronyms and expansions mined from the conference text",
	"compounds":   "words written together or apart (MySQL, Elasticsearch)",
	"lexical":     "the BM25 and coverage part of the hybrid score",
	"calibration": "per-conference placement of vector scores",
	"prf":         "co-occurring words for rewrites (pseudo-relevance feedback)",
	"needs":       "one query per need in questions asking several things",
	"ladder":      "the plain relaxation kept beside reflection's own queries",
	"filters":     "time, place and format filters",
}

// ParseAblation reads a comma-separated list of technique names.
func ParseAblation(list string) (Ablation, error) {
	out := Ablation{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if _, ok := Techniques[name]; !ok {
			return nil, fmt.Errorf("unknown technique %q (known: %s)", name, strings.Join(TechniqueNames(), ", "))
		}
		out[name] = true
	}
	return out, nil
}

// TechniqueNames lists the techniques an Ablation may turn off, sorted.
func TechniqueNames() []string { return slices.Sorted(maps.Keys(Techniques)) }

// Off reports whether a technique is turned off.
func (a Ablation) Off(name string) bool { return a[name] }
