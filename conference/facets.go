package conference

import (
	"bytes"
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
// one. In JSON a value is a text, a number, true or false, or a list of
// them (joined with "; "); null and false are skipped, and true reads as
// the key's words ("signup_required": true is "signup required"), so a
// programme's flags and counts are searched like its texts.
type Facets map[string]string

// UnmarshalJSON decodes facets strictly: a value that is none of those (an
// object, a nested list) is an error naming its key.
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

// ParseFacets converts raw facet values leniently: values that are none of
// a text, a number, a truth value or a list of them are left out and
// described in problems.
func ParseFacets(raw map[string]json.RawMessage) (Facets, []string) {
	if raw == nil {
		return nil, nil
	}
	out := make(Facets, len(raw))
	var problems []string
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		text, ok := facetText(k, raw[k])
		if !ok {
			problems = append(problems, fmt.Sprintf("facet %q: expected a text, a number, true or false, or a list of them", k))
			continue
		}
		if text != "" {
			out[k] = text
		}
	}
	return out, problems
}

func facetText(key string, v json.RawMessage) (string, bool) {
	if text, ok := scalarText(key, v); ok {
		return text, true
	}
	var list []json.RawMessage
	if json.Unmarshal(v, &list) != nil {
		return "", false
	}
	texts := make([]string, 0, len(list))
	for _, x := range list {
		text, ok := scalarText(key, x)
		if !ok {
			return "", false
		}
		if text != "" {
			texts = append(texts, text)
		}
	}
	return strings.Join(texts, "; "), true
}

// scalarText reads one facet value: a text as it is, a number as written,
// true as the key's words, false and null as nothing.
func scalarText(key string, v json.RawMessage) (string, bool) {
	var x any
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	if d.Decode(&x) != nil {
		return "", false
	}
	switch x := x.(type) {
	case nil:
		return "", true
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		if x {
			return strings.Join(strings.FieldsFunc(key, func(r rune) bool { return r == '_' || r == '-' || r == ' ' }), " "), true
		}
		return "", true
	}
	return "", false
}
