package terms

import (
	_ "embed"
	"math"
	"strconv"
	"strings"
	"sync"
)

// semcor.txt.gz counts how often each word is tagged in WordNet's semantic
// concordance, a quarter of a million words of general English
// (WORDNET-LICENSE says how it was made).
//
//go:embed semcor.txt.gz
var semcorGz []byte

// usage is the concordance's counts by stem, and their total.
var usage = sync.OnceValues(func() (map[string]int, int) {
	counts, total := map[string]int{}, 0
	for _, line := range lines("semcor.txt.gz", semcorGz) {
		w, c, _ := strings.Cut(line, "\t")
		n, err := strconv.Atoi(c)
		if err != nil {
			panic("terms: semcor.txt.gz: " + line)
		}
		counts[stem(w)] += n // not remembered: the memo is for the words of questions and programmes
		total += n
	}
	return counts, total
})

// Specificity is how specific w is in general English: its inverse
// frequency in WordNet's concordance against that of a word the
// concordance never uses, from near 0 for the commonest words to 1
// ("problems" 0.54, "fake" 0.77, "sauna" 1). A word a conference never
// uses weighs by it where the question is judged: a common word ("any
// problems?") says less about what is asked than a rare one ("a sauna").
func Specificity(w string) float64 {
	counts, n := usage()
	return IDF(n, counts[Stem(w)]) / IDF(n, 0)
}

// IDF weighs a term found in df of n documents (or occurrences), in BM25's
// form: never negative, and most for a term found nowhere.
func IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}
