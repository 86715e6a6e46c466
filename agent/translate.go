package agent

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

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
	st.Reading = reading + kept(reading, st.Message, t.lexicon().Corpus())
}

// minKept is the shortest source word kept beside a reading: shorter
// words are too often another language's everyday words, unless written in
// capitals as an acronym ("SPS", which the programme may write in its own
// language beside the reading's "programmable logic controller").
const minKept = 4

// kept lists, in brackets, the words of a message that the conference's
// own text uses but its reading does not: a translator may give such a
// word another sense (Italian "replica" read as "retorts" at a conference
// about database replicas), and the word as written is still what the
// attendee asked about. Another language's function words are never kept.
func kept(reading, message string, c *lexical.Corpus) string {
	have := map[string]bool{}
	for _, s := range terms.Stems(reading) { // a stop word is no conference word, so never kept
		have[s] = true
	}
	var out []string
	for _, w := range terms.Written(message) { // as written: "SPS"
		lw := strings.ToLower(w)
		short := utf8.RuneCountInString(lw) < minKept && !(lexical.IsCapitals(w) && utf8.RuneCountInString(w) >= 2) // "SPS" is an acronym, "die" a word
		if short || lexical.OtherLanguageWord(lw) || have[terms.Stem(lw)] || !c.Knows(lw) {
			continue
		}
		have[terms.Stem(lw)] = true
		out = append(out, w)
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, " ") + ")"
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
		return lexical.Retracted(lexical.Unaddressed(t.st.Reading))
	}
	return lexical.Retracted(lexical.Unaddressed(t.st.Message))
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
