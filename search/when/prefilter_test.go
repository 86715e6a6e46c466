package when

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPrefilterNeverSkipsAMatch runs every parsing pattern over every
// evaluation question and a few written here: a pattern the prefilter
// skips must find nothing, and the prefilter must skip most of them.
func TestPrefilterNeverSkipsAMatch(t *testing.T) {
	msgs := []string{"what's on tomorrow morning in room B?", "any workshops on day 2?", "what's next?",
		"talks after 4pm", "between 2 and 4 pm", "from 14:00 to 16:00", "21/10 or 2026-10-21", "over the weekend",
		"at lunchtime", "on the third day", "this coming Friday", "early in the day", "Thursday’s keynote"}
	files, err := filepath.Glob("../../eval/*/*.jsonl")
	require.NoError(t, err)
	for _, f := range append(files, "../../eval/demo_cases.jsonl") {
		fh, err := os.Open(f)
		require.NoError(t, err)
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var c struct{ Message string }
			if json.Unmarshal(sc.Bytes(), &c) == nil && c.Message != "" {
				msgs = append(msgs, c.Message)
			}
		}
		fh.Close()
	}
	require.Greater(t, len(msgs), 300, "questions read")
	runs, skipped := 0, 0
	for _, m := range msgs {
		text := fold(m)
		for i, st := range steps {
			runs++
			if mayMatch(st.re, text) {
				continue
			}
			skipped++
			assert.Nil(t, st.re.FindIndex(text), "step %d skipped on %q, which it matches", i, m)
		}
	}
	assert.Greater(t, skipped, runs*3/4, "the prefilter skips %d of %d pattern runs", skipped, runs)
}

func TestRequiredStrings(t *testing.T) {
	for _, c := range []struct {
		re   string
		want []string
	}{
		{`(?i)(?:\bthe\s+)?\bweekends?\b`, []string{"weekend"}},
		{`(?:on|for)\s+(?:monday|friday)`, []string{"monday", "friday"}},
		{`\d{1,2}\s*pm`, []string{"pm"}},
		{`(?:\d+)?h`, []string{"h"}},
		{`a*`, nil},
		{`x|y*`, nil},
	} {
		assert.Equal(t, c.want, requiredStrings(regexpMust(c.re)), c.re)
	}
}

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// FuzzPrefilter checks on any text that a pattern the prefilter skips
// finds nothing.
func FuzzPrefilter(f *testing.F) {
	for _, seed := range []string{"what's on tomorrow morning?", "day 2 at 4pm", "İstanbul ŞAHİN K", "\xff\xfe on friday", "Thursday’s"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		text := fold(msg)
		for i, st := range steps {
			if !mayMatch(st.re, text) && st.re.FindIndex(text) != nil {
				t.Fatalf("step %d skipped on %q, which it matches", i, msg)
			}
		}
	})
}
