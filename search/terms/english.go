package terms

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"slices"
	"strings"
	"sync"
)

// english.txt.gz lists about 75,000 English words, American and British
// spellings, proper nouns included, one lower-case word a line, sorted
// (SCOWL size 50 through Debian's wamerican and wbritish; SCOWL-COPYRIGHT).
//
//go:embed english.txt.gz
var englishGz []byte

var dictionary = sync.OnceValue(func() []string { return lines("english.txt.gz", englishGz) })

// lines are the lines of an embedded gzipped word list; a list that does
// not unzip is a build error, which the package's tests catch.
func lines(name string, gz []byte) []string {
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		panic("terms: " + name + ": " + err.Error())
	}
	data, err := io.ReadAll(r)
	if err != nil {
		panic("terms: " + name + ": " + err.Error())
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// IsEnglish reports whether w (lower-cased) is a word of general English,
// so a word a conference never uses is told apart from a misspelling: a
// "sauna" is a real thing the programme lacks, "databses" is a typo.
func IsEnglish(w string) bool {
	_, ok := slices.BinarySearch(dictionary(), w)
	return ok
}
