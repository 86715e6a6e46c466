package conference

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// MaxFacetKeys bounds the distinct facet keys of one kind of entity in a
// bundle: facet names are open, but a bundle with thousands of them is a
// mistake, not a schema.
const MaxFacetKeys = 256

// Facets are an entity's facet texts by key. Keys are open (contract §2):
// the project's own names get their tuned weight, any other name a default
// one. In JSON a value is a text or a list of texts (joined with "; ");
// null is skipped.
type Facets map[string]string

// UnmarshalJSON decodes facets strictly: a value that is neither a text nor
// a list of texts is an error naming its key.
func (f *Facets) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("facets: expected an object of texts")
	}
	out, problems := ParseFacets(raw)
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	*f = out
	return nil
}

// ParseFacets converts raw facet values leniently: values that are neither
// a text nor a list of texts are left out and described in problems.
func ParseFacets(raw map[string]json.RawMessage) (Facets, []string) {
	if raw == nil {
		return nil, nil
	}
	out := make(Facets, len(raw))
	var problems []string
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		text, ok := facetText(raw[k])
		if !ok {
			problems = append(problems, fmt.Sprintf("facet %q: expected a text or a list of texts", k))
			continue
		}
		if text != "" {
			out[k] = text
		}
	}
	return out, problems
}

func facetText(v json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, true
	}
	var list []string
	if json.Unmarshal(v, &list) == nil {
		return strings.Join(list, "; "), true
	}
	return "", false // null decoded as a text above
}
