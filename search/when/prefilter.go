package when

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
)

// Parsing runs some thirty expressions over every question, each costing
// tens of microseconds on a long one, and most find nothing. A pattern is
// only run when the text has one of the strings every match of it must
// contain ("weekend" for the weekend pattern): that made time parsing a
// fifth of an offline turn before, and almost nothing now.

// required caches each pattern's required strings; nil means "run it".
var required sync.Map // *regexp.Regexp → [][]byte

// mayMatch reports whether text has one of the strings every match of re
// must contain, so that running re can find something.
func mayMatch(re *regexp.Regexp, text []byte) bool {
	v, ok := required.Load(re)
	if !ok {
		var need [][]byte
		for _, s := range requiredStrings(re) {
			need = append(need, []byte(s))
		}
		v, _ = required.LoadOrStore(re, need)
	}
	need := v.([][]byte)
	return need == nil || slices.ContainsFunc(need, func(s []byte) bool { return bytes.Contains(text, s) })
}

// requiredStrings returns strings one of which every match of re contains,
// lower-cased (the scanned text is), or nil when it cannot tell.
func requiredStrings(re *regexp.Regexp) []string {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	return needed(t.Simplify())
}

// needed is requiredStrings for one node of a parsed expression.
func needed(t *syntax.Regexp) []string {
	switch t.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(t.Rune))}
	case syntax.OpCapture, syntax.OpPlus:
		return needed(t.Sub[0])
	case syntax.OpRepeat:
		if t.Min >= 1 {
			return needed(t.Sub[0])
		}
	case syntax.OpCharClass:
		return classStrings(t.Rune)
	case syntax.OpConcat:
		return bestOf(t.Sub)
	case syntax.OpAlternate:
		var all []string
		for _, s := range t.Sub {
			n := needed(s)
			if n == nil {
				return nil
			}
			all = append(all, n...)
		}
		return all
	}
	return nil
}

// bestOf picks, among a sequence's parts, the requirement whose shortest
// string is longest: the most telling one.
func bestOf(subs []*syntax.Regexp) []string {
	var best []string
	bestLen := 0
	for _, s := range subs {
		n := needed(s)
		if n == nil {
			continue
		}
		short := len(slices.MinFunc(n, func(a, b string) int { return len(a) - len(b) }))
		if short > bestLen {
			best, bestLen = n, short
		}
	}
	return best
}

// classStrings lists the runes of a small character class ([0-9], ['’]),
// lower-cased; nil for a large one.
func classStrings(ranges []rune) []string {
	var out []string
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i+1]-ranges[i] > 10 || len(out) > 20 {
			return nil
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			out = append(out, strings.ToLower(string(r)))
		}
	}
	return out
}
