package translate

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Glossary reads a question word by word with FreeDict's dictionaries to
// English (Debian's dict-freedict-*-eng packages, in dictd format): each
// word becomes the sense of it the conference uses most, or the
// dictionary's first. Dictionaries are opened on first use. It is safe
// for concurrent use.
type Glossary struct {
	files map[string]string // ISO 639-1 code → path without extension

	mu     sync.Mutex
	open   map[string]*dict
	broken map[string]error // dictionaries that failed to open, not tried again
}

// DefaultDictDir is where Debian installs dictd dictionaries.
const DefaultDictDir = "/usr/share/dictd"

// NewGlossary finds the FreeDict dictionaries to English in dir; none is
// not an error (Languages is then empty).
func NewGlossary(dir string) *Glossary {
	g := &Glossary{files: map[string]string{}, open: map[string]*dict{}, broken: map[string]error{}}
	matches, _ := filepath.Glob(filepath.Join(dir, "freedict-*-eng.index"))
	for _, m := range matches {
		code := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(m), "freedict-"), "-eng.index")
		if lang, ok := codes[code]; ok && lang != "en" {
			if _, err := os.Stat(strings.TrimSuffix(m, ".index") + ".dict.dz"); err == nil {
				g.files[lang] = strings.TrimSuffix(m, ".index")
			}
		}
	}
	return g
}

// Languages lists the ISO 639-1 codes the glossary reads, sorted.
func (g *Glossary) Languages() []string { return slices.Sorted(maps.Keys(g.files)) }

// Reads reports whether a dictionary reads lang.
func (g *Glossary) Reads(lang string) bool {
	_, ok := g.files[lang]
	return ok
}

// Translate reads text word by word. known, when not nil, says whether the
// conference uses an English word; a word is read in the sense whose words
// the conference uses most. Words no entry explains (names,
// products, English words) and acronyms the conference uses ("RAG") are
// kept as written; function words, which have no topic, are left out;
// negations read "not", except in a clause asking whether there are any;
// the words for the programme's parts read as the programme's; each
// clause keeps the mark that ends it, so the reading keeps its sentences.
func (g *Glossary) Translate(ctx context.Context, lang, text string, known func(string) bool) (string, error) {
	d, err := g.dict(lang)
	if err != nil {
		return "", err
	}
	if err := checkLength(text); err != nil {
		return "", err
	}
	var out []string
	for _, w := range tokens(lang, text) {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("translate: %w", err)
		}
		if isMark(w) {
			out = endClause(out, w)
			continue
		}
		sense, err := readToken(d, lang, w, known)
		if err != nil {
			return "", err
		}
		if sense != "" {
			out = append(out, sense)
		}
	}
	return strings.Join(out, " "), nil
}

// readToken reads one word of a question in lang: a negation as "not", a
// function word as nothing, a word for a part of the programme as the
// programme's, any other with the dictionary.
func readToken(d *dict, lang, w string, known func(string) bool) (string, error) {
	lower := strings.ToLower(w)
	switch {
	case negations[lang][lower]:
		return "not", nil
	case functionWord(lang, w):
		return "", nil
	case programmeWords[lang][lower] != "":
		return programmeWords[lang][lower], nil
	}
	return readWord(d, w, known)
}

// endClause ends the reading's last clause with mark, once.
func endClause(out []string, mark string) []string {
	if n := len(out); n > 0 && !isMark(out[n-1][len(out[n-1])-1:]) {
		out[n-1] += mark
	}
	return out
}

// dict opens lang's dictionary once; one that fails to open fails every
// later call the same way, without reading it again.
func (g *Glossary) dict(lang string) (*dict, error) {
	base, ok := g.files[lang]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnsupported, lang)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if d := g.open[lang]; d != nil {
		return d, nil
	}
	if err := g.broken[lang]; err != nil {
		return nil, err
	}
	d, err := openDict(base)
	if err != nil {
		g.broken[lang] = fmt.Errorf("translate: open %s: %w", base, err)
		return nil, g.broken[lang]
	}
	g.open[lang] = d
	return d, nil
}

// words splits text into words as written (letters, digits, inner hyphens).
func words(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
}
