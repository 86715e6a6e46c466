package lexical

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/erleah/erleah-agent/search/terms"
)

// vocabulary counts one conference's words: in how many documents each
// stem occurs, how often each written word occurs, and the common written
// form of each stem.
type vocabulary struct {
	docs     int
	df       map[string]int            // stem → documents
	words    map[string]int            // written word → occurrences
	forms    map[string]map[string]int // stem → written word → occurrences
	surface  map[string]string         // stem → its most common written word
	byLen    map[int][]string          // written words by length in runes, for spelling
	cognates map[string]string         // cognate key → written word (see cognateKey)
	fixes    memo                      // spelling corrections already worked out
	clips    memo                      // clipped words already worked out
	topical  map[string]bool           // stems found outside people's names
	named    map[string]bool           // stems found in people's names
	hyphens  map[string]string         // a hyphenated word written whole ("wifi") → as written ("wi-fi")
}

func newVocabulary() *vocabulary {
	return &vocabulary{df: map[string]int{}, words: map[string]int{}, forms: map[string]map[string]int{}, topical: map[string]bool{}, named: map[string]bool{},
		hyphens: map[string]string{}}
}

func (v *vocabulary) addDoc(d Doc, stems map[string]bool) {
	v.docs++
	for s := range stems {
		v.df[s]++
	}
	for _, f := range d.Fields {
		v.addHyphened(f.Text)
		for _, t := range terms.Content(f.Text) {
			v.topical[t.Stem] = v.topical[t.Stem] || !f.Name
			v.named[t.Stem] = v.named[t.Stem] || f.Name
			v.words[t.Raw]++
			if v.forms[t.Stem] == nil {
				v.forms[t.Stem] = map[string]int{}
			}
			v.forms[t.Stem][t.Raw]++
		}
	}
}

// hyphenedWord is a word of two parts joined by a hyphen ("Wi-Fi",
// "e-book", "co-op").
var hyphenedWord = regexp.MustCompile(`\b(\pL+)-(\pL+)\b`)

// addHyphened records the hyphenated words of a text, so that a question
// writing one whole ("wifi", "ebook") is read as the programme writes it.
func (v *vocabulary) addHyphened(text string) {
	for _, m := range hyphenedWord.FindAllStringSubmatch(text, -1) {
		whole := strings.ToLower(m[1] + m[2])
		if _, ok := v.hyphens[whole]; !ok && len(terms.Content(m[0])) > 0 {
			v.hyphens[whole] = strings.ToLower(m[0])
		}
	}
}

func (v *vocabulary) finish() {
	v.surface = make(map[string]string, len(v.forms))
	for stem, forms := range v.forms {
		v.surface[stem] = mostCommon(forms)
	}
	v.forms = nil
	v.byLen = map[int][]string{}
	for w := range v.words {
		n := len([]rune(w))
		v.byLen[n] = append(v.byLen[n], w)
	}
	v.addCognates()
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

// idf weighs a stem found in df of the corpus's documents (BM25's form,
// never negative). A stem no document has weighs the most.
func (v *vocabulary) idf(df int) float64 { return terms.IDF(v.docs, df) }

// memoSize bounds a vocabulary's memo of corrections: questions are
// attendees' text, so the memo must not grow without limit.
const memoSize = 4096

// memo remembers corrections (word → fix, "" for none), up to memoSize
// words; it is safe for concurrent use.
type memo struct {
	m sync.Map
	n atomic.Int64
}

func (m *memo) get(w string) (string, bool) {
	v, ok := m.m.Load(w)
	if !ok {
		return "", false
	}
	return v.(string), true
}

func (m *memo) put(w, fix string) {
	if m.n.Load() < memoSize {
		if _, loaded := m.m.LoadOrStore(w, fix); !loaded {
			m.n.Add(1)
		}
	}
}
