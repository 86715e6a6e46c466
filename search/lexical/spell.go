package lexical

import (
	"strings"
	"unicode/utf8"

	"github.com/erleah/erleah-agent/search/terms"
)

// correction finds the conference word a misspelt word most likely means:
// the nearest by Damerau–Levenshtein distance (at most 1 for words of five
// to seven letters, 2 for longer ones), the more frequent one on a tie.
// Only words that are neither the conference's nor general English are
// corrected: "sauna" is a real thing the programme lacks, not a typo; and
// words of four letters or fewer are more often abbreviations ("prem")
// than typos.
func (v *vocabulary) correction(w string) (string, bool) {
	if fix, ok := v.fixes.get(w); ok {
		return fix, fix != ""
	}
	fix, ok := v.nearest(w)
	v.fixes.put(w, fix)
	return fix, ok
}

func (v *vocabulary) nearest(w string) (string, bool) {
	n := utf8.RuneCountInString(w)
	if n < 5 || v.df[terms.Stem(w)] > 0 {
		return "", false
	}
	for _, x := range spellings(w) { // "paediatric" where the programme writes "pediatric"
		if v.df[terms.Stem(x)] > 0 {
			return x, true
		}
	}
	if terms.IsEnglish(w) {
		return "", false
	}
	if c, ok := v.cognates[cognateKey(w)]; ok {
		return c, true
	}
	limit := 1
	if n > 7 {
		limit = 2
	}
	best, bestD, bestF := "", limit+1, 0
	for l := n - limit; l <= n+limit; l++ {
		for _, c := range v.byLen[l] {
			d := distance(w, c, limit)
			if f := v.words[c]; d < bestD || (d == bestD && (f > bestF || (f == bestF && c < best))) {
				best, bestD, bestF = c, d, f
			}
		}
	}
	if bestD > limit {
		return "", false
	}
	return best, true
}

// doubled returns the conference word that w writes with one of its
// doubled letters single ("staf" → staff, "bils" → bills): the commonest
// slip of all, and one that words too short for a spelling correction make
// too. Only a word the conference never writes, neither general English
// nor a stop word, is read so, even when its stem happens to be the
// conference's ("staf" is the stem of "staffing").
func (v *vocabulary) doubled(w string) string {
	if utf8.RuneCountInString(w) < 4 || v.words[w] > 0 || terms.IsEnglish(w) || terms.IsStop(w) {
		return ""
	}
	best := ""
	for i := range len(w) {
		c := w[:i+1] + w[i:]
		if c[i] < 'a' || c[i] > 'z' {
			continue
		}
		if f := v.words[c]; f > v.words[best] || (f > 0 && f == v.words[best] && c < best) {
			best = c
		}
	}
	return best
}

// OneSlip reports whether a word of at least five letters is written
// with one slip (a letter added, left out, changed or two swapped):
// "pritchad" for Pritchard.
func OneSlip(written, word string) bool {
	return written != word && utf8.RuneCountInString(word) >= 5 && distance(written, word, 1) == 1
}

// distance is the optimal-string-alignment Damerau–Levenshtein distance of
// a and b (an adjacent transposition costs one), or limit+1 once it is
// sure to exceed limit.
func distance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if abs(len(ra)-len(rb)) > limit {
		return limit + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// spellings returns w as American English writes its British "ae" or "oe"
// ("paediatric", "anaesthesia", "oestrogen"). Unlike the endings that
// stemming already joins (terms.Stem: "licence", "centre", "behaviour"),
// these are only tried against the conference's own words: "poet" is not
// "pet".
func spellings(w string) []string {
	var out []string
	for _, d := range []string{"ae", "oe"} {
		if i := strings.Index(w, d); i >= 0 {
			out = append(out, w[:i]+"e"+w[i+2:])
		} else if i := strings.IndexByte(w, 'e'); i >= 0 {
			out = append(out, w[:i]+d+w[i+1:])
		}
	}
	return out
}

// clipped returns the conference word that w shortens by dropping letters
// ("wasm" → "webassembly", "mgmt" → "management"; three letters only from
// a word's start, since anywhere they clip too many words: "cfg", "lyo" →
// "lyophilisation"): a word at least three letters longer, with w's first
// letter, holding w's letters in order. Only
// a word that is neither the conference's nor general English is read so,
// and only when one word of the conference is clearly the likeliest: used
// at least twice, and twice as often as any other that fits.
func (v *vocabulary) clipped(w string) string {
	if long, ok := v.clips.get(w); ok {
		return long
	}
	long := v.unclip(w)
	v.clips.put(w, long)
	return long
}

func (v *vocabulary) unclip(w string) string {
	n := utf8.RuneCountInString(w)
	if n < 3 || v.df[terms.Stem(w)] > 0 || terms.IsEnglish(w) || terms.IsStop(w) || strings.ContainsAny(w, "0123456789") {
		return ""
	}
	byStem := map[string]int{}
	best := map[string]string{}
	for c, f := range v.words {
		if len(c) >= len(w)+3 && c[0] == w[0] && clips(w, c, n) {
			s := terms.Stem(c)
			byStem[s] += f
			if f > v.words[best[s]] {
				best[s] = c
			}
		}
	}
	first, second, pick := 0, 0, ""
	for s, f := range byStem {
		switch {
		case f > first || (f == first && s < pick):
			first, second, pick = f, first, s
		case f > second:
			second = f
		}
	}
	if pick == "" || first < 2 || first < 2*second { // once is a coincidence ("cpoe" in "championed")
		return ""
	}
	return best[pick]
}

// clips reports whether w of n letters may shorten word c: from its start
// when it has three letters ("lyo" → lyophilisation), else by dropping
// letters anywhere ("mgmt" → management).
func clips(w, c string, n int) bool {
	if n == 3 {
		return strings.HasPrefix(c, w)
	}
	return subsequence(w, c)
}

// subsequence reports whether short's letters appear in long in order.
func subsequence(short, long string) bool {
	i := 0
	for j := 0; j < len(long) && i < len(short); j++ {
		if long[j] == short[i] {
			i++
		}
	}
	return i == len(short)
}
