package search

import (
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
)

// Lexicon is the vocabulary of one conference: in how many entities of each
// table a term occurs, the common written form of each stem, and the entity
// names a message may mention. It is what reflection uses as evidence that a
// question's words are unknown here. A Lexicon is immutable and safe for
// concurrent use.
type Lexicon struct {
	docs    map[Table]int
	df      map[string]map[Table]int
	surface map[string]string
	names   []name
	corpus  *lexical.Corpus
}

type name struct {
	ref   Ref
	title string
	words string // " w1 w2 " for whole-word matching
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

// lexiconOf builds the vocabulary of documents.
func lexiconOf(docs []Document, off Ablation) *Lexicon {
	l := &Lexicon{docs: map[Table]int{}, df: map[string]map[Table]int{}, surface: map[string]string{}}
	counts := map[string]map[string]int{}
	for _, d := range docs {
		l.docs[d.Table]++
		l.addDocument(d, counts)
		l.names = append(l.names, name{ref: d.Ref, title: d.Title, words: " " + strings.Join(terms.Words(d.Title), " ") + " "})
	}
	for stem, forms := range counts {
		l.surface[stem] = mostCommon(forms)
	}
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

func (l *Lexicon) addDocument(d Document, counts map[string]map[string]int) {
	seen := map[string]bool{}
	for _, t := range terms.Content(d.MasterText) {
		if counts[t.Stem] == nil {
			counts[t.Stem] = map[string]int{}
		}
		counts[t.Stem][t.Raw]++
		if seen[t.Stem] {
			continue
		}
		seen[t.Stem] = true
		if l.df[t.Stem] == nil {
			l.df[t.Stem] = map[Table]int{}
		}
		l.df[t.Stem][d.Table]++
	}
}

func mostCommon(forms map[string]int) string {
	best, n := "", -1
	for f, c := range forms {
		if c > n || (c == n && f < best) {
			best, n = f, c
		}
	}
	return best
}

// Docs is the number of entities of table t.
func (l *Lexicon) Docs(t Table) int { return l.docs[t] }

// Coverage returns the statistics of each distinct content word of text.
func (l *Lexicon) Coverage(text string) []TermStat {
	var out []TermStat
	seen := map[string]bool{}
	for _, t := range terms.Content(text) {
		if seen[t.Stem] {
			continue
		}
		seen[t.Stem] = true
		df := map[Table]int{}
		for tb, n := range l.df[t.Stem] {
			df[tb] = n
		}
		out = append(out, TermStat{Term: t.Raw, Stem: t.Stem, DF: df})
	}
	return out
}

// Knows reports whether the stem of word occurs in at least one entity.
func (l *Lexicon) Knows(word string) bool {
	return len(l.df[terms.Stem(strings.ToLower(word))]) > 0
}

// Nearest returns the conference word closest in spelling to word, by the
// overlap of their character trigrams, with that similarity (0–1). It finds
// "kubernetes" for "kubernets" but not synonyms.
func (l *Lexicon) Nearest(word string) (string, float64) {
	want := trigrams(strings.ToLower(word))
	best, bestSim := "", 0.0
	for stem := range l.df {
		form := l.surface[stem]
		sim := jaccard(want, trigrams(form))
		if sim > bestSim || (sim == bestSim && form < best) {
			best, bestSim = form, sim
		}
	}
	return best, bestSim
}

func trigrams(w string) map[string]bool {
	w = "^" + w + "$"
	out := map[string]bool{}
	for i := 0; i+3 <= len(w); i++ {
		out[w[i:i+3]] = true
	}
	return out
}

func jaccard(a, b map[string]bool) float64 {
	inter := 0
	for g := range a {
		if b[g] {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// Mention is an entity whose name appears in a text.
type Mention struct {
	Ref   Ref    `json:"ref"`
	Title string `json:"title"`
}

// Mentions returns the entities named in text: a whole exhibitor or speaker
// name or session title, or a distinctive first word of an exhibitor or
// speaker name (one no other entity uses, at least five letters long).
func (l *Lexicon) Mentions(text string) []Mention {
	words := " " + strings.Join(terms.Words(text), " ") + " "
	var out []Mention
	for _, n := range l.names {
		if strings.TrimSpace(n.words) == "" {
			continue
		}
		if strings.Contains(words, n.words) || l.distinctive(n, words) {
			out = append(out, Mention{Ref: n.ref, Title: n.title})
		}
	}
	slices.SortFunc(out, func(a, b Mention) int { return strings.Compare(a.Ref.Key(), b.Ref.Key()) })
	return out
}

func (l *Lexicon) distinctive(n name, words string) bool {
	if n.ref.Table == Sessions {
		return false
	}
	first := strings.Fields(n.words)[0]
	if len(first) < 5 || terms.IsStop(first) || !strings.Contains(words, " "+first+" ") {
		return false
	}
	owners := 0
	for _, other := range l.names {
		if strings.Contains(other.words, " "+first+" ") {
			owners++
		}
	}
	return owners == 1 && l.rare(first)
}

// rare reports whether word occurs in at most two entities, so that a common
// word that happens to start a name ("Data Foundry") is not a mention.
func (l *Lexicon) rare(word string) bool {
	n := 0
	for _, c := range l.df[terms.Stem(word)] {
		n += c
	}
	return n <= 2
}
