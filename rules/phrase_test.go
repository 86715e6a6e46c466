package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// A note quotes the attendee's own words only where they run unbroken:
// never a text with words taken out of its middle, words the message
// lacks, or a whole long sentence.
func TestAttendeePhraseQuotesOnlyUnbrokenWords(t *testing.T) {
	for _, c := range []struct{ message, text, want string }{
		{"where can i refill my water bottle?", "refill my water", "refill my water"},
		{"Any sessions on finding a literary agent for a nonfiction book proposal?", "book proposal", "book proposal"},
		{"Which talk covers Weather Routing?", "weather routing", "Weather Routing"},
		{"Is there a speaker talking about cutting aviation emissions?", "talking about cutting emissions", ""},
		{"That Olympic sport with brooms and heavy sliding rocks - is anyone analysing it with video?", "sport with and sliding it video", ""},
		{"Gibt es Vorträge über Batterien?", "talks about batteries", ""},
		{"how game content can offend people or get banned in other countries", "game content offend people banned other countries", ""},
		{"anything?", "", ""},
	} {
		assert.Equal(t, c.want, attendeePhrase(c.message, c.text), "%q in %q", c.text, c.message)
	}
}

// The rewrite's note names each word the programme lacks once, quoted on
// its own, and says what is searched instead without quoting a fragment.
func TestRewriteNoteNamesTheMissingWordsAndQuotesNoFragment(t *testing.T) {
	_, eng := searchtest.Demo(t)
	lex := eng.Lexicon("aidata26")
	msg := "kubernetes zzqxv autoscaling and more zzqxv"
	r := rewrite(lex, search.Sessions, msg, nil)
	assert.Equal(t, "This programme never mentions “zzqxv”, so I'm searching for the rest of your question instead.", r.note(msg))
	msg = "zzqxv or qqwwz for kubernetes autoscaling"
	r = rewrite(lex, search.Sessions, msg, nil)
	assert.Equal(t, "This programme never mentions “zzqxv” or “qqwwz”, so I'm searching for “kubernetes autoscaling” instead.", r.note(msg))
}

// A list of the words the programme lacks quotes each, and says when it
// leaves some out.
func TestWordListSaysWhenThereAreMore(t *testing.T) {
	assert.Equal(t, "“a”", wordList([]string{"a"}))
	assert.Equal(t, "“a”, “b” or “c”", wordList([]string{"a", "b", "c"}))
	assert.Equal(t, "“a”, “b”, “c”, “d” and other words you used", wordList([]string{"a", "b", "c", "d", "e"}))
}

// Feedback words stay in the trace: the note says what is done without
// showing words the attendee never used.
func TestFeedbackNoteShowsNoFeedbackWords(t *testing.T) {
	_, eng := searchtest.Demo(t)
	r := rewrite(eng.Lexicon("aidata26"), search.Sessions, "kubernetes autoscaling", nil)
	if assert.NotEmpty(t, r.related) {
		for _, w := range r.related {
			assert.NotContains(t, r.note("kubernetes autoscaling"), w)
		}
		assert.Contains(t, r.reason(), r.related[0], "the trace names them")
	}
}
