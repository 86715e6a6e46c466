package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// A rewrite drops the unknown words and the words that only say how the
// attendee asks ("maybe", "wondering"): the note shows what is searched,
// never filler.
func TestRewriteNoteShowsNoFiller(t *testing.T) {
	_, eng := searchtest.Demo(t)
	r := rewrite(eng.Lexicon("aidata26"), search.Sessions, "maybe kubernetes zzqxv wondering", nil)
	assert.Equal(t, []string{"zzqxv"}, r.dropped)
	assert.Equal(t, "kubernetes", r.text)
	assert.NotContains(t, r.note("maybe kubernetes zzqxv wondering"), "maybe")
}

// A dropped word takes the conjunction it leaves dangling with it: the note
// quotes a phrase, not "kubernetes or".
func TestRewriteLeavesNoDanglingConjunction(t *testing.T) {
	_, eng := searchtest.Demo(t)
	lex := eng.Lexicon("aidata26")
	for _, q := range []string{"kubernetes or zzqxv", "zzqxv and kubernetes", "the kubernetes of zzqxv"} {
		r := rewrite(lex, search.Sessions, q, nil)
		assert.Equal(t, []string{"zzqxv"}, r.dropped, q)
		assert.Equal(t, "kubernetes", r.text, q)
	}
}

// Words joined by a slash are rewritten each on its own ("kubernetes/zzqxv"
// keeps kubernetes), unless the whole is the glossary's ("CI/CD").
func TestRewriteReadsSlashedWordsApart(t *testing.T) {
	_, eng := searchtest.Demo(t)
	lex := eng.Lexicon("aidata26")
	r := rewrite(lex, search.Sessions, "kubernetes/zzqxv", nil)
	assert.Equal(t, []string{"zzqxv"}, r.dropped)
	assert.Equal(t, "kubernetes", r.text)
	ci := rewrite(lex, search.Sessions, "CI/CD pipelines", nil)
	if assert.NotEmpty(t, ci.expanded, "CI/CD was not expanded") {
		assert.Equal(t, "ci/cd", ci.expanded[0][0])
	}
}

// A hyphenated word with a part the conference lacks is rewritten part by
// part, so the parts it knows are kept ("kubernetes-zzqxv-scaling" keeps
// kubernetes and scaling); one whose parts it all has stays one word.
func TestRewriteReadsHyphenatedWordsApart(t *testing.T) {
	_, eng := searchtest.Demo(t)
	lex := eng.Lexicon("aidata26")
	r := rewrite(lex, search.Sessions, "zzqxv-to-kubernetes-scaling", nil)
	assert.Equal(t, []string{"zzqxv"}, r.dropped)
	assert.Equal(t, "kubernetes scaling", r.text)
	whole := rewrite(lex, search.Sessions, "open-source zzqxv", nil)
	assert.Equal(t, "open-source", whole.text)
	// An idiom with an article inside is one word: its parts are no topic.
	idiom := rewrite(lex, search.Sessions, "zzqxv-the-model monitoring", nil)
	assert.Equal(t, "monitoring", idiom.text)
}

// A glossary term written as two words ("ML ops") is the term.
func TestGlossaryTermsWrittenApart(t *testing.T) {
	exp, n := expand([]string{"ml", "ops", "talks"}, 0)
	assert.Equal(t, 2, n, "ml ops")
	assert.Equal(t, glossary["mlops"], exp)
	_, n = expand([]string{"ml", "talks"}, 0)
	assert.Equal(t, 1, n, "ml alone")
}

// A rewrite that would drop words weighing more than the one word it
// keeps asks about something else ("ISO 17025 for our tool room" →
// "tool"): it is not made. Two known words left are a question still.
func TestARewriteLeavingOneLighterWordIsNotMade(t *testing.T) {
	_, eng := searchtest.Demo(t)
	lex := eng.Lexicon("aidata26")
	r := rewrite(lex, search.Sessions, "zzqxv qqwwz for our kubernetes", nil)
	assert.Equal(t, []string{"zzqxv", "qqwwz"}, r.dropped)
	assert.True(t, r.outweighed, "text %q", r.text)
	r = rewrite(lex, search.Sessions, "kubernetes security zzqxv", nil)
	assert.Equal(t, []string{"zzqxv"}, r.dropped)
	assert.False(t, r.outweighed, "text %q", r.text)
}

// An English word typed in lower case is not read as an abbreviation
// ("came" is no C… A… M… E…); one written as an acronym, or too short to
// tell, may be.
func TestAbbreviationNeedsTheLookOfOne(t *testing.T) {
	for w, want := range map[string]bool{"came": false, "docs": false, "farms": false, "LoRA": true, "rag": true, "ml": true, "MVHR": true, "k8s": true} {
		assert.Equal(t, want, abbreviation(w), w)
	}
}

// A word capitalised beside another capitalised word is part of a name
// ("Elon Musk"), never read as a clipped word of the programme; alone, or
// in capitals, it may be an abbreviation.
func TestANameIsNoAbbreviation(t *testing.T) {
	words := []string{"is", "Elon", "Musk", "coming", "to", "the", "AMR", "Expo", "or", "Govt", "day"}
	var names []string
	for i, w := range words {
		if properName(words, i) {
			names = append(names, w)
		}
	}
	assert.Equal(t, []string{"Elon", "Musk"}, names)
}
