// Package lexical is a conference's own text as a search signal. A Corpus,
// built from one conference's documents, ranks each table's documents for a
// query with BM25 and says how much of the query each document covers,
// weighing words by how rare they are in that conference. It also does what
// real questions need before searching: stems (Snowball), corrects
// misspellings against the conference's own vocabulary, and drops the
// self-description and filler of chatty questions; and it mines expansions
// from the conference text for rewrites: acronyms matched to the phrases
// they abbreviate there, and the words that co-occur with a query's words.
//
// Nothing here is fitted to one conference: every statistic is the
// conference's own. A Corpus is immutable after Build and safe for
// concurrent use.
package lexical

import (
	"strings"

	"github.com/erleah/erleah-agent/search/terms"
)

// Field is one text of a document and how much a word in it counts: a
// title says more about an entity than a sentence of its description.
type Field struct {
	Text   string
	Weight float64
	// Name marks people's names: a word the conference has only in names
	// ("Park" of Jason Park) is no topic word of a question ("parking").
	Name bool
}

// Doc is one entity of a conference: its key ("sessions/s1"), its group
// (the table) and its fields.
type Doc struct {
	Key    string
	Group  string
	Fields []Field
}

// Corpus is the lexical model of one conference.
type Corpus struct {
	vocab    *vocabulary
	groups   map[string]*index
	acronyms acronyms
	off      Off
}

// Off turns normalisations off, to measure what each adds; the zero value
// keeps them all.
type Off struct {
	Spelling, Filler, Acronyms, Compounds bool
}

// Build indexes docs. Documents of one group form one ranking; the
// vocabulary spans all of them.
func Build(docs []Doc) *Corpus { return BuildWithout(docs, Off{}) }

// BuildWithout is Build with some normalisations turned off.
func BuildWithout(docs []Doc, off Off) *Corpus {
	c := &Corpus{vocab: newVocabulary(), groups: map[string]*index{}, off: off}
	for _, d := range docs {
		g := c.groups[d.Group]
		if g == nil {
			g = newIndex()
			c.groups[d.Group] = g
		}
		stems := g.add(d)
		c.vocab.addDoc(d, stems)
	}
	for _, g := range c.groups {
		g.finish()
	}
	c.vocab.finish()
	c.acronyms = mineAcronyms(docs, c.vocab)
	return c
}

// Hyphenated is how the programme writes a word that a question writes
// whole ("wifi" → "wi-fi"), when it writes it with a hyphen only.
func (c *Corpus) Hyphenated(word string) (string, bool) {
	w := strings.ToLower(word)
	form, ok := c.vocab.hyphens[w]
	return form, ok && c.vocab.df[terms.Stem(w)] == 0
}

// DF is the number of documents, across groups, that contain word's stem.
func (c *Corpus) DF(word string) int { return c.vocab.df[terms.Stem(word)] }

// GroupDF is the number of documents of one group that contain a stem.
func (c *Corpus) GroupDF(group, stem string) int {
	if x := c.groups[group]; x != nil {
		return len(x.post[stem])
	}
	return 0
}

// Explains reports whether a written token of a question ("on-prem",
// "ML") is accounted for, read as Analyze reads it on its own: it says
// nothing (request phrasing, stop or generic words), or a document has its
// first content word or the word that misspells.
func (c *Corpus) Explains(token string) bool {
	topic := Topic(token)
	if c.off.Filler {
		topic = token
	}
	for _, w := range terms.Words(topic) {
		if terms.IsStop(w) || generic[w] {
			continue
		}
		return c.Recognises(w)
	}
	return true
}

// Knows reports whether any document contains word's stem.
func (c *Corpus) Knows(word string) bool { return c.DF(word) > 0 }

// Recognises reports whether any document contains word's stem, or the word
// is a typo of one a document contains ("ransomeware").
func (c *Corpus) Recognises(word string) bool {
	if c.Knows(word) {
		return true
	}
	_, ok := c.correction(word)
	return ok && !c.off.Spelling
}

// Surface is the most common written form of a stem in the corpus, or the
// stem itself.
func (c *Corpus) Surface(stem string) string {
	if s, ok := c.vocab.surface[stem]; ok {
		return s
	}
	return stem
}
