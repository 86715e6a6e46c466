package lexical

import (
	"slices"
	"strings"
	"unicode"

	"github.com/erleah/erleah-agent/search/terms"
)

// generic are words of questions that name the occasion or the asking
// rather than a topic: at any conference "the venue", "attendees", "I'd
// actually like to bring…" or "give me something useful" say nothing about
// what to look for. General English, not any conference's words.
var generic = wordSet(`conference conferences event events summit venue programme program agenda attendee attendees everything
	recommend recommended recommendation recommendations suggest suggestion suggestions interested
	interesting interest useful good great best better cool nice relevant learn learning give gives giving
	bring brings bringing make makes making take takes taking keep keeps put use uses using used try tries
	trying tried start starting come coming see seeing think thinking feel able sure actually basically
	maybe perhaps probably finally definitely especially particularly mostly mainly primarily largely chiefly pretty bit lot lots kind sort type
	stuff way ways day days today tomorrow yesterday morning afternoon evening tonight week weekend time slot slots
	times currently still already soon later next first last new latest wonder wondering curious keen hear
	hearing attend attending visit visiting went meet meeting somewhere everyone people person folks guys
	ideas idea tips advice question questions related relating regarding miss worth catch catching`)

// wordSet is the set of the words of a space-separated list.
func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// Generic reports whether a word of a question names the occasion or the
// asking rather than a topic ("maybe", "wondering", "venue"): it is never
// searched for.
func Generic(word string) bool { return generic[strings.ToLower(word)] }

// Concept is one content word of a question, as the conference sees it.
type Concept struct {
	// Word is the word as written, lower-cased.
	Word string `json:"word"`
	// Stem is what is searched: the word's stem, or its correction's.
	Stem string `json:"-"`
	// Fix is the conference word a misspelling was corrected to.
	Fix string `json:"fix,omitempty"`
	// DF is the number of documents that have Stem.
	DF int `json:"df"`
	// Weight is Stem's inverse document frequency in the conference: rare
	// words weigh most, unknown words most of all.
	Weight float64 `json:"weight"`
	// Alts are phrases that stand for the concept (an acronym's long form):
	// a document with every stem of one of them has the concept too.
	Alts [][]string `json:"-"`
}

// Explain adds a phrase that stands for concept i of the analysis ("SBOM"
// ↔ "software bill of materials"); it weighs no more than the concept.
func (a Analysis) Explain(i int, phrase string) {
	var stems []string
	for _, t := range terms.Content(phrase) {
		stems = append(stems, t.Stem)
	}
	if len(stems) > 0 {
		a.Concepts[i].Alts = append(a.Concepts[i].Alts, stems)
	}
}

// Known reports whether some document has the concept (after correction).
func (c Concept) Known() bool { return c.DF > 0 }

// Analysis is a question as the conference's text sees it.
type Analysis struct {
	// Topic is what the question is about, in the attendee's words.
	Topic string `json:"topic"`
	// Concepts are the distinct content words of Topic.
	Concepts []Concept `json:"concepts"`
	// joins are the written word pairs read as one conference word, with
	// the conference's spelling of it ("elastic serch" → Elasticsearch).
	joins map[[2]string]string
}

// Analyze reads a question: its topic, each content word's weight in the
// conference and the corrections of its misspellings.
func (c *Corpus) Analyze(text string) Analysis {
	a := Analysis{Topic: Topic(text)}
	if c.off.Filler {
		a.Topic = text
	}
	seen := map[string]bool{}
	words := terms.Words(a.Topic)
	caps, named := written(a.Topic)
	fixed := c.corrected(words, caps)
	for i := 0; i < len(words); i++ {
		if k, ok := c.joined(fixed, i); ok && !c.off.Compounds {
			if !seen[k.Stem] {
				seen[k.Stem] = true
				a.Concepts = append(a.Concepts, k)
			}
			if a.joins == nil {
				a.joins = map[[2]string]string{}
			}
			a.joins[[2]string{words[i], words[i+1]}] = c.Surface(k.Stem)
			i++
			continue
		}
		w := words[i]
		t := terms.Token{Raw: w, Stem: terms.Stem(w)}
		if terms.IsStop(w) || generic[w] || seen[t.Stem] {
			continue
		}
		k := c.concept(t, fixed[i])
		if !k.Known() && terms.IsStopMisspelled(w) { // "wher is the…": a typo of no topic
			continue
		}
		seen[t.Stem] = true
		if k.Known() && !c.vocab.topical[k.Stem] && !named[w] {
			k = Concept{Word: k.Word, Stem: nameOnly + k.Stem, Weight: c.vocab.idf(0)} // "parking" is not Jason Park
		}
		a.Concepts = append(a.Concepts, k)
	}
	if !c.off.Acronyms {
		c.abbreviated(a, words)
	}
	return a
}

// abbreviated lets a document that writes the conference's acronym for a
// phrase of the question have each word of the phrase: one with "BMS" has
// "building management systems", where "building safety managers" has
// only two of its words.
func (c *Corpus) abbreviated(a Analysis, words []string) {
	for n := min(5, len(words)); n >= 3; n-- { // fewer words spell no acronym (abbreviation)
		for i := 0; i+n <= len(words); i++ {
			acr := c.acronyms.abbreviation(words[i : i+n])
			if acr == "" {
				continue
			}
			for j, k := range a.Concepts {
				if slices.Contains(words[i:i+n], k.Word) {
					a.Explain(j, acr)
				}
			}
		}
	}
}

// nameOnly prefixes the stem of a question's word that the conference has
// only in people's names: it matches no document.
const nameOnly = "\x00"

// corrected spells each word as the conference would: its correction when
// it is a misspelling of a conference word, else as written. A word the
// question writes in capitals (caps) is an acronym, not a misspelt word:
// "HAPIs" is not "APIs"; only its letters may be in another order.
func (c *Corpus) corrected(words []string, caps map[string]bool) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = w
		if c.off.Spelling {
			continue
		}
		if fix := c.vocab.doubled(w); fix != "" && !caps[w] {
			out[i] = fix
			continue
		}
		if terms.IsStop(w) || c.vocab.df[terms.Stem(w)] > 0 {
			continue
		}
		var fix string
		var ok bool
		if one, plural := singular(w); caps[w] && plural && c.vocab.df[terms.Stem(one)] > 0 {
			fix, ok = one, true // "VPPs" where the conference writes VPP
		} else if caps[w] && !terms.IsEnglish(w) {
			fix, ok = c.acronyms.transposed(w)
		} else {
			fix, ok = c.correction(w)
		}
		if ok {
			out[i] = fix
		}
	}
	return out
}

// written reads how text writes its words: caps are those written as
// acronyms ("HAPI", "HAPIs"), lower-cased whole; named the words of those
// written with a capital, as a name is ("Is Park speaking?").
func written(text string) (caps, named map[string]bool) {
	caps, named = map[string]bool{}, map[string]bool{}
	for _, w := range strings.Fields(text) {
		w = unpunctuated(w)
		if w == "" {
			continue
		}
		if IsCapitals(w) || (strings.HasSuffix(w, "s") && IsCapitals(w[:len(w)-1])) {
			caps[strings.ToLower(w)] = true
		}
		if unicode.IsUpper([]rune(w)[0]) {
			for _, x := range terms.Words(w) {
				named[x] = true
			}
		}
	}
	return caps, named
}

// correction is the conference word a misspelt word means (see
// vocabulary.correction), or the acronym it writes in capitals that the
// word spells with its letters in another order ("wgac" for WCAG): too
// short for a spelling correction, a jumbled acronym is still unmistakable
// when only one acronym of the conference has those letters.
func (c *Corpus) correction(w string) (string, bool) {
	if fix, ok := c.vocab.correction(w); ok {
		return fix, true
	}
	if terms.IsEnglish(w) {
		return "", false
	}
	return c.acronyms.transposed(w)
}

// joined reads words[i] and words[i+1] as one concept when the conference
// writes them as one word ("my sql" → MySQL, "elastic search" →
// Elasticsearch); a document with the two words apart has it too.
func (c *Corpus) joined(words []string, i int) (Concept, bool) {
	if i+1 >= len(words) || len(words[i])+len(words[i+1]) < 5 || generic[words[i+1]] {
		return Concept{}, false
	}
	one := words[i] + words[i+1]
	stem := terms.Stem(one)
	df := c.vocab.df[stem]
	if df == 0 {
		return Concept{}, false
	}
	k := Concept{Word: words[i] + " " + words[i+1], Stem: stem, DF: df, Weight: c.vocab.idf(df)}
	if !terms.IsStop(words[i]) && !terms.IsStop(words[i+1]) {
		k.Alts = [][]string{{terms.Stem(words[i]), terms.Stem(words[i+1])}}
	}
	return k, true
}

// concept weighs one word of a question; fixed is its spelling as the
// conference writes it (see corrected).
func (c *Corpus) concept(t terms.Token, fixed string) Concept {
	k := Concept{Word: t.Raw, Stem: t.Stem, DF: c.vocab.df[t.Stem]}
	if fixed != t.Raw {
		k.Fix, k.Stem = fixed, terms.Stem(fixed)
		k.DF = c.vocab.df[k.Stem]
	}
	if !c.off.Compounds { // also when the programme writes it both ways ("deeplearning" once, "deep learning" often)
		if parts := c.split(t.Raw); parts != nil {
			k.Alts = [][]string{parts}
		} else if form, ok := c.vocab.hyphens[t.Raw]; ok && k.DF == 0 {
			k.Alts = [][]string{terms.Stems(form)} // "wifi" where the programme writes "Wi-Fi"
		}
	}
	k.Weight = c.vocab.idf(k.DF)
	return k
}

// split reads an unknown word the conference writes as two ("opensource"
// → "open source"): both halves words of the conference, at least three
// letters each, and the word no English one.
func (c *Corpus) split(w string) []string {
	if len(w) < 7 || terms.IsEnglish(w) {
		return nil
	}
	for i := 3; i <= len(w)-3; i++ {
		a, b := terms.Stem(w[:i]), terms.Stem(w[i:])
		if c.vocab.df[a] > 0 && c.vocab.df[b] > 0 && terms.IsEnglish(w[:i]) && terms.IsEnglish(w[i:]) {
			return []string{a, b}
		}
	}
	return nil
}

// Text is the question's topic with corrections applied, for embedding.
func (a Analysis) Text() string {
	if len(a.Concepts) == 0 {
		return a.Topic
	}
	fixes := map[string]string{}
	for _, k := range a.Concepts {
		if k.Fix != "" {
			fixes[k.Word] = k.Fix
		}
	}
	if len(fixes) == 0 && len(a.joins) == 0 {
		return a.Topic
	}
	words := strings.Fields(a.Topic)
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		lw := bare(words[i])
		if i+1 < len(words) {
			if one, ok := a.joins[[2]string{lw, bare(words[i+1])}]; ok && one != "" {
				out = append(out, one)
				i++
				continue
			}
		}
		if fix, ok := fixes[lw]; ok {
			out = append(out, fix)
			continue
		}
		out = append(out, words[i])
	}
	return strings.Join(out, " ")
}

// bare is a written word lower-cased, without the punctuation around it.
func bare(w string) string { return strings.ToLower(strings.Trim(w, `.,;:!?"'()`)) }

// Unknown lists the concepts no document has, even after correction.
func (a Analysis) Unknown() []Concept {
	var out []Concept
	for _, k := range a.Concepts {
		if !k.Known() {
			out = append(out, k)
		}
	}
	return out
}

// Fixed lists the corrected concepts.
func (a Analysis) Fixed() []Concept {
	var out []Concept
	for _, k := range a.Concepts {
		if k.Fix != "" {
			out = append(out, k)
		}
	}
	return out
}

// Weight is the sum of the concepts' weights.
func (a Analysis) Weight() float64 {
	var w float64
	for _, k := range a.Concepts {
		w += k.Weight
	}
	return w
}
