package lexical

import (
	"strings"
	"testing"
)

// FuzzAsking checks that Asking never panics, leaves out only whole
// sentences (what it keeps is the message's sentences, in order), and
// leaves something out only when it also keeps something.
func FuzzAsking(f *testing.F) {
	for _, seed := range []string{
		"Our repo is now 40 GB because artists commit textures. Anything on big binary files in git?",
		"any talks on git?", "Git talks. Any workshops?  Which rooms?", "", "...", "?!", "a.b.c. d e f g h. who?",
		"\xff\xfe is there anything. We run five depots in town.", "Dr. Smith said so. Is there a talk on it?",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		got, context := Asking(msg)
		if !context {
			if got != msg {
				t.Fatalf("Asking(%q) = %q without leaving anything out", msg, got)
			}
			return
		}
		all, ctx := contextSentences(msg)
		var kept []string
		rest := msg
		for i, s := range all {
			at := strings.Index(rest, s)
			if at < 0 {
				t.Fatalf("sentence %q of %q is not the message's, in order", s, msg)
			}
			rest = rest[at+len(s):]
			if !ctx[i] {
				kept = append(kept, s)
			}
		}
		if len(kept) == 0 || got != strings.Join(kept, " ") {
			t.Fatalf("Asking(%q) = %q, want the sentences that ask, %q", msg, got, kept)
		}
		_ = Request(msg) // never panics
	})
}
