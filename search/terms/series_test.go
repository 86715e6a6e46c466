package terms

import "testing"

func TestSeries(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  string
	}{
		{nil, ""},
		{[]string{"talks"}, "talks"},
		{[]string{"talks", "speakers"}, "talks or speakers"},
		{[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := Series(c.words, "or"); got != c.want {
			t.Errorf("Series(%q, or) = %q, want %q", c.words, got, c.want)
		}
	}
}
