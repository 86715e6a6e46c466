package agent

import (
	"context"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
)

// Translator reads text written in lang (ISO 639-1) in English; Reads
// says whether it reads lang at all. known says whether the conference
// uses an English word: a word-by-word translator reads a word in the
// sense the conference uses.
type Translator interface {
	Reads(lang string) bool
	Translate(ctx context.Context, lang, text string, known func(string) bool) (string, error)
}

// translate reads a question in another language in English, when a
// translator is configured and reads that language. Without a reading the
// question is searched by the words the conference shares with it, as
// before: a failed translation loses nothing.
func (t *turn) translate(ctx context.Context) {
	st, tr := t.st, t.agent.opts.Translator
	if tr == nil || st.Language == "" || st.Language == lexical.English || !tr.Reads(st.Language) {
		return
	}
	reading, err := tr.Translate(ctx, st.Language, lexical.Unaddressed(st.Message), t.knows)
	if err != nil {
		t.agent.log.Warn("question read without translation", "trace_id", st.TraceID, "language", st.Language, "err", err)
		st.Untranslated = err.Error()
		return
	}
	if sameWords(reading, st.Message) {
		st.Language = lexical.English // "Dr Müller?", "Postgres replikation": nothing to read, so no other language
		return
	}
	st.Reading = reading
}

// sameWords reports whether a reading holds the words of the message and
// no other, in any case.
func sameWords(reading, message string) bool {
	return slices.Equal(terms.Words(strings.ToLower(reading)), terms.Words(strings.ToLower(message)))
}

// asked is the question as the agent reads it: its English reading when
// it was translated, else as written; without web and e-mail addresses.
func (t *turn) asked() string {
	if t.st.Reading != "" {
		return lexical.Unaddressed(t.st.Reading)
	}
	return lexical.Unaddressed(t.st.Message)
}

// knows says whether the conference uses a word, or, asked with a word in
// capitals, whether it uses or spells out that acronym ("RAG" stands for
// retrieval-augmented generation here, not for a Dutch cobweb).
func (t *turn) knows(w string) bool {
	c := t.lexicon().Corpus()
	if c.Knows(w) {
		return true
	}
	return strings.ToUpper(w) == w && strings.ToLower(w) != w && len(c.Expansions(w)) > 0
}
