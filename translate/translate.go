// Package translate reads a question written in another language in
// English, so that the conference's English text can be searched for it.
// Apertium, Debian's rule-based machine translation, reads the languages
// it has a way to English for: directly (Spanish) or through Spanish
// (French, Portuguese, Italian, Catalan). FreeDict's dictionaries to
// English (German, Dutch, Danish, Swedish) read the others word by word,
// each word in the sense the conference's own text uses.
package translate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// Translator reads text written in lang (ISO 639-1) in English; known, when
// not nil, says whether the conference uses an English word, for
// translators that choose among senses (and, asked with a word in
// capitals, whether the conference uses or spells out that acronym).
type Translator interface {
	Reads(lang string) bool
	Translate(ctx context.Context, lang, text string, known func(string) bool) (string, error)
}

// First reads a language with the first of its translators that reads it:
// a machine translation before a word-by-word glossary.
type First []Translator

// Reads reports whether one of the translators reads lang.
func (f First) Reads(lang string) bool { return f.pick(lang) != nil }

// Translate translates with the first translator that reads lang.
func (f First) Translate(ctx context.Context, lang, text string, known func(string) bool) (string, error) {
	t := f.pick(lang)
	if t == nil {
		return "", fmt.Errorf("%w: %q", ErrUnsupported, lang)
	}
	return t.Translate(ctx, lang, text, known)
}

func (f First) pick(lang string) Translator {
	for _, t := range f {
		if t.Reads(lang) {
			return t
		}
	}
	return nil
}

// ErrUnsupported is returned for a language no installed pair leads from
// to English.
var ErrUnsupported = errors.New("translate: no translation to English for this language")

// StepTimeout bounds one translation step: Apertium reads a question in
// about 0.2 s.
const StepTimeout = 3 * time.Second

// waitDelay is how long a killed translation's processes may keep its
// output open.
const waitDelay = 500 * time.Millisecond

// maxInput bounds the text translated, in bytes: a chat message (at most
// 4,000 characters), not a document.
const maxInput = 16 << 10

// checkLength refuses a text longer than maxInput.
func checkLength(text string) error {
	if len(text) > maxInput {
		return fmt.Errorf("translate: text of %d bytes is longer than %d", len(text), maxInput)
	}
	return nil
}

// Apertium translates with the apertium command. It is safe for concurrent
// use; at most parallel translations run at once.
type Apertium struct {
	bin    string
	routes map[string][]string // ISO 639-1 code → directions, in order
	slots  chan struct{}
}

// parallel bounds the translation processes running at once.
const parallel = 4

// NewApertium finds the apertium command (bin, or "apertium" on PATH when
// empty) and the directions its installed pairs offer. It fails when the
// command is missing or no installed pair leads to English.
func NewApertium(ctx context.Context, bin string) (*Apertium, error) {
	if bin == "" {
		bin = "apertium"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("translate: find apertium: %w", err)
	}
	out, err := run(ctx, path, nil, "-l")
	if err != nil {
		return nil, fmt.Errorf("translate: list apertium directions: %w", err)
	}
	routes := Routes(strings.Fields(string(out)))
	if len(routes) == 0 {
		return nil, fmt.Errorf("translate: apertium has no pair that leads to English (install apertium-eng-spa)")
	}
	return &Apertium{bin: path, routes: routes, slots: make(chan struct{}, parallel)}, nil
}

// Languages lists the ISO 639-1 codes the translator reads, sorted.
func (a *Apertium) Languages() []string { return slices.Sorted(maps.Keys(a.routes)) }

// Reads reports whether lang (ISO 639-1) is a language the translator
// reads.
func (a *Apertium) Reads(lang string) bool {
	_, ok := a.routes[lang]
	return ok
}

// Translate returns text, written in lang (ISO 639-1), in English. Words
// Apertium does not know are kept as written (names, products, and words
// the conference's spelling correction may still read); known is not used.
func (a *Apertium) Translate(ctx context.Context, lang, text string, _ func(string) bool) (string, error) {
	route, ok := a.routes[lang]
	if !ok {
		return "", fmt.Errorf("%w: %q", ErrUnsupported, lang)
	}
	if err := checkLength(text); err != nil {
		return "", err
	}
	select {
	case a.slots <- struct{}{}:
		defer func() { <-a.slots }()
	case <-ctx.Done():
		return "", fmt.Errorf("translate: %w", ctx.Err())
	}
	for _, dir := range route {
		out, err := a.step(ctx, dir, text)
		if err != nil {
			return "", err
		}
		text = out
	}
	return strings.Join(strings.Fields(text), " "), nil
}

// step runs one direction of Apertium over text.
func (a *Apertium) step(ctx context.Context, dir, text string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	out, err := run(ctx, a.bin, strings.NewReader(text), "-u", dir)
	if err != nil {
		return "", fmt.Errorf("translate %s: %w", dir, err)
	}
	return string(out), nil
}

// run runs the command with stdin and returns its output; a failure says
// what the command wrote to its error stream.
func run(ctx context.Context, bin string, stdin *strings.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	// apertium is a shell pipeline: when the context ends, its first
	// process is killed and the others may hold the output open; stop
	// waiting for them soon after.
	cmd.WaitDelay = waitDelay
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%w: %s", err, firstLine(msg))
		}
		return nil, err
	}
	return out, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
