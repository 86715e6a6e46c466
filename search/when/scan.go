package when

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// mask replaces consumed bytes of the scanned text, so later patterns neither
// match them nor join words across them.
const mask = '\x1f'

// scan is a message being parsed: a case-folded copy with the same byte
// offsets as the original, and the bytes consumed so far.
type scan struct {
	orig string
	text []byte
	used []bool
	hit  bool
}

func newScan(msg string) *scan {
	return &scan{orig: msg, text: fold(msg), used: make([]bool, len(msg))}
}

// fold lower-cases s rune by rune, keeping every rune whose lower case has a
// different UTF-8 length (and every invalid byte) as it is, so that byte
// offsets into the result are offsets into s.
func fold(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if l := unicode.ToLower(r); r != utf8.RuneError && utf8.RuneLen(l) == n {
			out = utf8.AppendRune(out, l)
		} else {
			out = append(out, s[i:i+n]...)
		}
		i += n
	}
	return out
}

// match is one regexp match in the scanned text.
type match struct {
	s   *scan
	idx []int
	re  *regexp.Regexp
}

// group returns the text of the named submatch, or "" when it did not take part.
func (m match) group(name string) string {
	for i, n := range m.re.SubexpNames() { // a name may recur in alternatives: the one that matched
		if n == name && m.idx[2*i] >= 0 {
			return string(m.s.text[m.idx[2*i]:m.idx[2*i+1]])
		}
	}
	return ""
}

// each calls fn for every match of re in the unconsumed text and consumes the
// matches fn accepts.
func (s *scan) each(re *regexp.Regexp, fn func(m match) bool) {
	if !mayMatch(re, s.text) {
		return
	}
	for _, idx := range re.FindAllSubmatchIndex(s.text, -1) {
		if fn(match{s: s, idx: idx, re: re}) {
			s.consume(idx[0], idx[1])
		}
	}
}

// fillerOn matches the "what's on" that a following "on Friday" must leave
// in place: the caller strips such filler itself.
var fillerOn = regexp.MustCompile(`\bwhat(?:'|’)?s\s+$|\bwhat\s+is\s+$`)

// consume marks text[a:b] as recognised. A leading "on " stays when it
// belongs to "what's on", and a leading word stays when it ends a
// hyphenated one ("hands-on this afternoon": the format's "on").
func (s *scan) consume(a, b int) {
	if strings.HasPrefix(string(s.text[a:min(b, a+3)]), "on ") && fillerOn.Match(s.text[max(0, a-16):a]) {
		a += 3
	}
	if sp := bytes.IndexByte(s.text[a:b], ' '); a > 0 && s.text[a-1] == '-' && sp > 0 {
		a += sp + 1
	}
	for i := a; i < b; i++ {
		s.text[i] = mask
		s.used[i] = true
	}
	s.hit = s.hit || a < b
}

// rest returns the original message without the consumed bytes, tidied; the
// message itself when nothing was consumed. It is never longer than the message.
func (s *scan) rest() string {
	if !s.hit {
		return s.orig
	}
	s.dropJoiners()
	var b strings.Builder
	for i := 0; i < len(s.orig); i++ {
		switch {
		case !s.used[i]:
			b.WriteByte(s.orig[i])
		case i == 0 || !s.used[i-1]:
			b.WriteByte(' ')
		}
	}
	rest := tidy(b.String())
	if !strings.ContainsFunc(rest, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return "" // only punctuation is left: no topic
	}
	return rest
}

// dropJoiners consumes an "and" or "or" left between two recognised
// expressions, as in "in room b or hall 1".
func (s *scan) dropJoiners() {
	for _, w := range s.words() {
		if (w.s == "and" || w.s == "or") && s.usedBeside(w.a-1, -1) && s.usedBeside(w.b, 1) {
			s.consume(w.a, w.b)
		}
	}
}

// usedBeside reports whether, walking from byte i in direction dir over
// spaces and commas, the first other byte was consumed.
func (s *scan) usedBeside(i, dir int) bool {
	for ; i >= 0 && i < len(s.text); i += dir {
		if c := s.orig[i]; c != ' ' && c != ',' {
			return s.used[i]
		}
	}
	return false
}

// tidy collapses white space, drops spaces before closing punctuation and
// commas left dangling at either end.
func tidy(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' && i+1 < len(s) && strings.IndexByte("?!.,;:)", s[i+1]) >= 0 {
			continue
		}
		if c == ',' && i+1 < len(s) && s[i+1] == ',' {
			continue
		}
		if c == ' ' && i > 0 && s[i-1] == '(' {
			continue
		}
		b.WriteByte(c)
	}
	return strings.Trim(b.String(), " ,;:")
}

// word is a run of letters or digits in the scanned text.
type word struct {
	s    string
	a, b int
}

// words splits the unconsumed text into words.
func (s *scan) words() []word {
	var ws []word
	start := -1
	for i := 0; i <= len(s.text); {
		r, n := rune(0), 1
		if i < len(s.text) {
			r, n = utf8.DecodeRune(s.text[i:])
		}
		in := i < len(s.text) && (unicode.IsLetter(r) || unicode.IsDigit(r))
		if in && start < 0 {
			start = i
		}
		if !in && start >= 0 {
			ws = append(ws, word{s: string(s.text[start:i]), a: start, b: i})
			start = -1
		}
		i += n
	}
	return ws
}

// joined reports whether words i and i+1 are neighbours: separated by a few
// spaces or punctuation marks, nothing consumed and no sentence break.
func (s *scan) joined(ws []word, i int) bool {
	gap := s.text[ws[i].b:ws[i+1].a]
	return len(gap) <= 4 && !strings.ContainsAny(string(gap), "\x1f\n?!;")
}

// wordsOf returns the folded words of a name.
func wordsOf(name string) []string {
	var out []string
	for _, w := range (&scan{text: fold(name)}).words() {
		out = append(out, w.s)
	}
	return out
}

// seqAt reports whether the words key occur, as neighbours, at ws[i:].
func (s *scan) seqAt(ws []word, i int, key []string) bool {
	if len(key) == 0 || i+len(key) > len(ws) {
		return false
	}
	for k, w := range key {
		if ws[i+k].s != w || (k > 0 && !s.joined(ws, i+k-1)) {
			return false
		}
	}
	return true
}

// cueStart returns where the cue before ws[i] starts: up to three words
// before it that are "the" or one of cues ("in the", "at", "room"), or
// ws[i].a when there are none. It reports whether a word of cues was seen.
func (s *scan) cueStart(ws []word, i int, cues ...string) (int, bool) {
	start, cued := ws[i].a, false
	for j := i; j > 0 && i-j < 3 && s.joined(ws, j-1); j-- {
		w := ws[j-1].s
		if w != "the" && !slices.Contains(cues, w) {
			break
		}
		start, cued = ws[j-1].a, cued || w != "the"
	}
	return start, cued
}
