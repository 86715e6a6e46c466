package search

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
)

// Lexicon is what search knows of one conference's words: its lexical
// model (BM25, spelling, mined expansions: search/lexical) and the entity
// names a message may mention. Reflection uses it as evidence that a
// question's words are unknown here. A Lexicon is immutable and safe for
// concurrent use.
type Lexicon struct {
	names     []name
	boothList []booth
	corpus    *lexical.Corpus
	memo      struct {
		sync.Mutex
		m map[string][]Mention
	}
}

type name struct {
	ref   Ref
	title string
	words string   // " w1 w2 " for whole-word matching
	short string   // the same for a session's main title, when it has a subtitle, or a speaker's name without an honorific
	plain bool     // the name is no name in a question: empty, or one English word ("Breakfast")
	parts []string // a speaker's names, when there are two or more (see misspelt)
	talks int      // a speaker's sessions, whose texts may name them
}

// TermStat says how often one content word of a text occurs in a conference.
type TermStat struct {
	Term string        `json:"term"`
	Stem string        `json:"-"`
	DF   map[Table]int `json:"entities"`
}

// Total is the number of entities, across tables, that contain the term.
func (s TermStat) Total() int {
	n := 0
	for _, c := range s.DF {
		n += c
	}
	return n
}

// NewLexicon builds the vocabulary of the conferences in b.
func NewLexicon(b *conference.Bundle) *Lexicon { return lexiconOf(Documents(b), nil) }

// lexiconOf builds the vocabulary of documents, with the techniques off
// turned off.
func lexiconOf(docs []Document, off Ablation) *Lexicon {
	l := &Lexicon{}
	for _, d := range docs {
		n := name{ref: d.Ref, title: d.Title, words: namePhrase(d.Title), plain: plainName(d.Title), talks: len(d.Talks)}
		if parts := strings.Fields(n.words); d.Ref.Table == Speakers && len(parts) >= 2 {
			n.parts = parts
			if honorific[parts[0]] && len(parts) >= 3 { // "Dr Priya Natarajan" is named "Priya Natarajan"
				n.parts, n.short = parts[1:], " "+strings.Join(parts[1:], " ")+" "
			}
		}
		l.names = append(l.names, n)
		if code := codeOf(strings.TrimPrefix(d.Details, "Booth ")); d.Ref.Table == Exhibitors && code != "" {
			l.boothList = append(l.boothList, booth{ref: d.Ref, title: d.Title, code: code})
		}
	}
	l.mainTitles()
	l.corpus = lexical.BuildWithout(lexicalDocs(docs), lexical.Off{Spelling: off.Off("spelling"),
		Filler: off.Off("filler"), Acronyms: off.Off("acronyms"), Compounds: off.Off("compounds")})
	return l
}

func lexicalDocs(docs []Document) []lexical.Doc {
	out := make([]lexical.Doc, len(docs))
	for i, d := range docs {
		out[i] = lexical.Doc{Key: d.Key(), Group: string(d.Table), Fields: d.Fields}
	}
	return out
}

// Corpus is the conference's lexical model: BM25 ranking, spelling, mined
// expansions.
func (l *Lexicon) Corpus() *lexical.Corpus { return l.corpus }

// Analyze reads a question against the conference's text: its topic, the
// weight of each content word and the corrections of misspellings.
func (l *Lexicon) Analyze(text string) lexical.Analysis { return l.corpus.Analyze(text) }

// Support says how well the conference's text answers text: the largest
// share of its word weight one entity contains, in any table, 0–1. A
// part of a long question that only tells a story ("three months ago a
// sister terminal had a scare") has little; one the programme covers
// ("clicked a phishing link") much.
func (l *Lexicon) Support(text string) float64 {
	a := l.corpus.Analyze(text)
	best := 0.0
	for _, tb := range Tables {
		if m := l.corpus.Rank(string(tb), a, nil); len(m) > 0 {
			best = max(best, m[0].Coverage)
		}
	}
	return best
}

// Coverage returns, for each distinct content word of text, in how many
// entities of each table it occurs.
func (l *Lexicon) Coverage(text string) []TermStat {
	var out []TermStat
	seen := map[string]bool{}
	for _, t := range terms.Content(text) {
		if seen[t.Stem] {
			continue
		}
		seen[t.Stem] = true
		df := map[Table]int{}
		for _, tb := range Tables {
			if n := l.corpus.GroupDF(string(tb), t.Stem); n > 0 {
				df[tb] = n
			}
		}
		out = append(out, TermStat{Term: t.Raw, Stem: t.Stem, DF: df})
	}
	return out
}

// booth is an exhibitor's booth code, as questions name it: "c04" for
// "C-04".
type booth struct {
	ref   Ref
	title string
	code  string
}

// boothCode is a booth as questions write it ("booth C-04", "stand 12",
// "C04"): a few letters, then digits.
var boothCode = regexp.MustCompile(`(?i)\b(?:(booth|stand|stall)\s+(?:no\.?\s*|number\s+|#\s*)?)?([a-z]{1,3}[\s-]?\d{1,4}[a-z]?|\d{1,4}[a-z]?)\b`)

// codeOf is a booth code without case, spaces or hyphens, "" when it is no
// code (a few letters, then digits).
func codeOf(s string) string {
	c := strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(s)))
	if m := boothCode.FindStringSubmatch(c); m == nil || m[0] != c || m[1] != "" {
		return ""
	}
	return c
}

// booths are the exhibitors whose booth a text names: "booth 12", or a
// code of letters and digits alone ("who is at C-04?").
func (l *Lexicon) booths(text string) []Mention {
	var out []Mention
	for _, m := range boothCode.FindAllStringSubmatch(text, -1) {
		code := codeOf(m[2])
		lettered := strings.IndexFunc(code, unicode.IsLetter) >= 0
		for _, b := range l.boothList {
			if code != "" && b.code == code && (m[1] != "" || lettered) {
				out = append(out, Mention{Ref: b.ref, Title: b.title})
			}
		}
	}
	return out
}

// plainName reports whether a title names nothing in a question: it has no
// word, or one word of general English ("Breakfast", "Networking").
func plainName(title string) bool {
	w := terms.Words(title)
	return len(w) == 0 || len(w) == 1 && terms.IsEnglish(w[0])
}

// honorific opens a speaker's name in a programme, and attendees leave it out.
var honorific = map[string]bool{"dr": true, "prof": true, "professor": true, "mr": true, "mrs": true, "ms": true,
	"mx": true, "miss": true, "sir": true, "dame": true, "rev": true, "fr": true, "sr": true, "dra": true}

// phrase is a text's words as names are matched: " w1 w2 ".
func phrase(title string) string { return " " + strings.Join(terms.Words(title), " ") + " " }

// namePhrase is phrase without accents: attendees type "Lucia Fernandez"
// for Lucía Fernández on a keyboard that has none.
func namePhrase(s string) string { return phrase(terms.Unaccented(s)) }

// subtitle separates a session's main title from its subtitle ("FHIR in
// Production: Lessons from 40 Million API Calls"; "… - workshop 1hr").
var subtitle = regexp.MustCompile(`:\s|\s[-–—|]\s`)

// mainTitles gives each session whose title has a subtitle its main title
// as a name too, when that says more than a format ("Workshop: …") and no
// other entity's name has it: attendees name a talk by its main title.
func (l *Lexicon) mainTitles() {
	for i, n := range l.names {
		loc := subtitle.FindStringIndex(n.title)
		if n.ref.Table != Sessions || loc == nil {
			continue
		}
		main := n.title[:loc[0]]
		if len(terms.Words(main)) < 2 || len(terms.Content(main)) == 0 {
			continue
		}
		short := namePhrase(main)
		if !slices.ContainsFunc(l.names, func(o name) bool { return o.ref != n.ref && strings.Contains(o.words, short) }) {
			l.names[i].short = short
		}
	}
}

// Mention is an entity whose name appears in a text.
type Mention struct {
	Ref   Ref    `json:"ref"`
	Title string `json:"title"`
}

// Mentions returns the entities named in text: a whole exhibitor or speaker
// name or session title, or a distinctive first word of an exhibitor or
// speaker name (one no other entity uses, at least five letters long), a
// speaker's full name with one of its names misspelt (see misspelt), or an
// exhibitor's booth ("booth 12", "C-04", "c04"). A
// name of one English word ("Breakfast", "Networking") is that word in a
// question before it is a name.
func (l *Lexicon) Mentions(text string) []Mention {
	l.memo.Lock()
	m, ok := l.memo.m[text]
	l.memo.Unlock()
	if !ok {
		m = l.mentions(text)
		l.memo.Lock()
		if l.memo.m == nil || len(l.memo.m) >= maxMentionsMemo {
			l.memo.m = map[string][]Mention{}
		}
		l.memo.m[text] = m
		l.memo.Unlock()
	}
	return slices.Clone(m)
}

// MentionsAsked are the entities text names where it asks: "we moved off
// Google Drive" in a story names no exhibitor to look up, nor "a friend
// said there's a talk called …" a talk, unless what is asked says nothing
// of its own ("Where is it?").
func (l *Lexicon) MentionsAsked(text string) []Mention {
	if ask, context := lexical.Asking(text); context && len(l.Analyze(ask).Concepts) > 0 {
		text = ask
	}
	return l.Mentions(text)
}

// maxMentionsMemo bounds the questions whose mentions a lexicon remembers:
// a turn reads its question's several times (planning, judging, answering).
const maxMentionsMemo = 512

func (l *Lexicon) mentions(text string) []Mention {
	words := namePhrase(text)
	ws := strings.Fields(words)
	var out []Mention
	for _, n := range l.names {
		if n.plain {
			continue
		}
		if strings.Contains(words, n.words) || n.short != "" && strings.Contains(words, n.short) || l.distinctive(n, words) || l.surname(n, words, text) || l.misspelt(n, words, ws) {
			out = append(out, Mention{Ref: n.ref, Title: n.title})
		}
	}
	out = append(out, l.booths(text)...)
	slices.SortFunc(out, func(a, b Mention) int { return strings.Compare(a.Ref.Key(), b.Ref.Key()) })
	return slices.CompactFunc(out, func(a, b Mention) bool { return a.Ref == b.Ref }) // an exhibitor named by name and booth
}

// misspelt reports whether words (ws, one by one) name a speaker of two or
// more names with one of them misspelt ("sian pritchad"): every other name
// as written, the misspelt one a slip away and no word of the conference.
func (l *Lexicon) misspelt(n name, words string, ws []string) bool {
	if n.parts == nil || !slices.ContainsFunc(n.parts, func(p string) bool { return strings.Contains(words, " "+p+" ") }) {
		return false
	}
	for i := 0; i+len(n.parts) <= len(ws); i++ {
		if j, ok := oneOff(n.parts, ws[i:i+len(n.parts)]); ok && lexical.OneSlip(ws[i+j], n.parts[j]) && !l.corpus.Knows(ws[i+j]) {
			return true
		}
	}
	return false
}

// oneOff returns the one position where written differs from parts, when
// it differs in exactly one.
func oneOff(parts, written []string) (int, bool) {
	at := -1
	for j, p := range parts {
		if written[j] != p {
			if at >= 0 {
				return 0, false
			}
			at = j
		}
	}
	return at, at >= 0
}

func (l *Lexicon) distinctive(n name, words string) bool {
	if n.ref.Table == Sessions {
		return false
	}
	first := strings.Fields(n.words)[0]
	if len(first) < 5 || terms.IsStop(first) || !strings.Contains(words, " "+first+" ") {
		return false
	}
	return l.owners(first) == 1 && l.rare(l.written(n, first))
}

// surname reports whether words name a speaker by their last name alone
// ("what is Marchand presenting?"): one of four letters or more that no
// other entity's name has and that no text here uses but the speaker's
// own and their talks' (which may name them), written with a capital
// when general English uses it as a word ("is Park speaking?", not "where
// can I park?").
func (l *Lexicon) surname(n name, words, text string) bool {
	if n.parts == nil {
		return false
	}
	last := n.parts[len(n.parts)-1]
	if len([]rune(last)) < 4 || !strings.Contains(words, " "+last+" ") || l.owners(last) != 1 || l.corpus.DF(l.written(n, last)) > 1+n.talks {
		return false
	}
	return terms.Specificity(last) == 1 || slices.ContainsFunc(strings.Fields(text), func(w string) bool {
		ws := terms.Words(terms.Unaccented(w))
		return len(ws) == 1 && ws[0] == last && unicode.IsUpper([]rune(strings.TrimLeft(w, "\"'(“‘"))[0])
	})
}

// owners counts the entities whose name has word.
func (l *Lexicon) owners(word string) int {
	n := 0
	for _, o := range l.names {
		if strings.Contains(o.words, " "+word+" ") {
			n++
		}
	}
	return n
}

// written is a word of n's name as the programme writes it, accents and
// all (the conference's text counts its words so).
func (l *Lexicon) written(n name, word string) string {
	for _, w := range terms.Words(n.title) {
		if terms.Unaccented(w) == word {
			return w
		}
	}
	return word
}

// rare reports whether word occurs in at most two entities, so that a common
// word that happens to start a name ("Data Foundry") is not a mention.
func (l *Lexicon) rare(word string) bool { return l.corpus.DF(word) <= 2 }
