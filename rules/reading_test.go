package rules_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// phrasebook translates the questions it knows and fails on any other; it
// reads Spanish only and remembers what it was asked.
type phrasebook struct {
	mu     sync.Mutex
	texts  map[string]string
	asked  []string
	broken bool
}

func (p *phrasebook) Reads(lang string) bool { return lang == "es" }

func (p *phrasebook) Translate(_ context.Context, lang, text string, _ func(string) bool) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, lang+": "+text)
	if en, ok := p.texts[text]; ok && !p.broken {
		return en, nil
	}
	return "", errors.New("translator unavailable")
}

func askWith(t *testing.T, tr agent.Translator, msg string, now time.Time) *agent.State {
	t.Helper()
	eng, conf := harbour(t)
	st, err := agent.New(rules.New(), eng, agent.Options{Translator: tr}).Run(context.Background(), agent.Request{Message: msg, Conference: conf, Now: now}, nil)
	require.NoError(t, err)
	return st
}

const (
	spanish = "¿Hay talleres sobre auditorías de la cadena de frío mañana?"
	reading = "There are workshops on audits of the chain of cold tomorrow?"
)

var saturday = time.Date(2026, 10, 24, 9, 0, 0, 0, time.UTC)

func TestAQuestionInAnotherLanguageIsSearchedInItsEnglishReading(t *testing.T) {
	tr := &phrasebook{texts: map[string]string{spanish: reading}}
	st := askWith(t, tr, spanish, saturday)
	require.Equal(t, "es", st.Language)
	assert.Equal(t, reading, st.Reading)
	assert.Empty(t, st.Untranslated)
	assert.Equal(t, []string{"sun-am"}, cited(st), "answer %q", st.ResponseText) // Sunday's workshop: topic, format and day from the reading
	require.NotNil(t, st.Filter, "the reading's time and format words are a filter")
	assert.True(t, strings.HasPrefix(st.ResponseText, "I work in English, so I read your question (in Spanish) as “"+reading+"”."), "answer %q", st.ResponseText)
	assert.Equal(t, spanish, st.Message, "the question as written is kept")
}

func TestAFailedTranslationStillTriesTheWordsItShares(t *testing.T) {
	tr := &phrasebook{texts: map[string]string{spanish: reading}, broken: true}
	st := askWith(t, tr, spanish, saturday)
	assert.Empty(t, st.Reading)
	assert.Equal(t, "translator unavailable", st.Untranslated, "the trace says why there is no reading")
	assert.True(t, strings.HasPrefix(st.ResponseText, "I work in English, so I read your question (in Spanish) by the words I recognised."), "answer %q", st.ResponseText)
	assert.Len(t, tr.asked, 1, "asked once, then read without it")
}

func TestOnlyQuestionsInALanguageTheTranslatorReadsAreTranslated(t *testing.T) {
	tr := &phrasebook{texts: map[string]string{}}
	askWith(t, tr, "any workshops on cold chain audits?", saturday)
	askWith(t, tr, "Gibt es Vorträge über Reefer Sensoren und Container?", saturday) // German: not read
	assert.Empty(t, tr.asked)
}

// A reading that changes no word says the question was not in that
// language after all ("Dr Müller?", a product name): it is read as written,
// without a note about languages.
func TestAReadingThatChangesNothingIsNoOtherLanguage(t *testing.T) {
	msg := "¿Hay algo sobre cold chain audits?"
	tr := &phrasebook{texts: map[string]string{msg: "hay algo sobre Cold Chain audits"}}
	st := askWith(t, tr, msg, saturday)
	require.Len(t, tr.asked, 1, "the translator was not asked")
	assert.Equal(t, "en", st.Language)
	assert.Empty(t, st.Reading)
	assert.NotContains(t, st.ResponseText, "I work in English")
}

// Keywords typed with typos are English keywords, not another language:
// the reply carries no note about languages and finds what they misspell.
func TestTyposAreNoOtherLanguage(t *testing.T) {
	tr := &phrasebook{texts: map[string]string{}}
	st := askWith(t, tr, "custmos clinc sesion", saturday)
	assert.Equal(t, "en", st.Language)
	assert.Empty(t, tr.asked, "nothing to translate")
	assert.NotContains(t, st.ResponseText, "I work in English")
	assert.Contains(t, cited(st), "sun-late", "answer %q", st.ResponseText)
}

// A word the translator gives another sense is still searched as written
// when the conference's own text uses it: "sensores" read as "feelers"
// still finds the sensor talk.
func TestAWordTheConferenceUsesIsKeptBesideItsReading(t *testing.T) {
	msg := "¿Hay charlas sobre sensores?"
	tr := &phrasebook{texts: map[string]string{msg: "Are there chats about feelers?"}}
	st := askWith(t, tr, msg, saturday)
	require.Equal(t, "es", st.Language)
	assert.Equal(t, "Are there chats about feelers? (sensores)", st.Reading)
	assert.Contains(t, cited(st), "sat-am", "answer %q", st.ResponseText)
}

// A table's name that the translation leaves as written still routes the
// question there: Apertium keeps Spanish "expositores".
func TestATableNameLeftUntranslatedStillRoutes(t *testing.T) {
	msg := "¿Hay expositores de sensores?"
	tr := &phrasebook{texts: map[string]string{msg: "Are there expositores of sensors?"}}
	st := askWith(t, tr, msg, saturday)
	require.NotEmpty(t, st.OriginalPlannedQueries)
	assert.Equal(t, "exhibitors", string(st.OriginalPlannedQueries[0].Table), "plan %+v", st.OriginalPlannedQueries)
	assert.Equal(t, []string{"e1"}, cited(st), "answer %q", st.ResponseText)
}

// plc reads every German question as one about programmable logic
// controllers, as a dictionary reads "SPS".
type plc struct{}

func (plc) Reads(lang string) bool { return lang == "de" }

func (plc) Translate(context.Context, string, string, func(string) bool) (string, error) {
	return "I want to learn programmable logic controller, for beginners?", nil
}

// An acronym the programme writes (in "SPS-Programmierung") stays beside
// the reading as the attendee wrote it, however short: the translation's
// "programmable logic controller" may not be how this programme says it.
func TestAnAcronymTheProgrammeWritesIsKeptBesideTheReading(t *testing.T) {
	b, err := conference.Parse("de.json", []byte(`{"conferences":[{"id":"s","name":"Robotik","timezone":"Europe/Berlin"}],
 "sessions":[{"id":"sps","conference_id":"s","title":"Workshop: SPS-Programmierung mit Structured Text","description":"Crash course in PLC programming.","format":"workshop"}],
 "exhibitors":[],"speakers":[]}`))
	require.NoError(t, err)
	st, err := agent.New(rules.New(), searchtest.Engine(t, b), agent.Options{Translator: plc{}}).Run(context.Background(),
		agent.Request{Message: "ich möchte SPS lernen, gibt es was für Anfänger?", Conference: agent.Conference{ID: "s", Name: "Robotik"}, Now: saturday}, nil)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(st.Reading, " (SPS)"), "reading %q", st.Reading)
	assert.NotContains(t, st.Reading, "ich", "another language's everyday word is not kept")
}
