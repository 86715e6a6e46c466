package terms

import "testing"

func TestIsStopMisspelled(t *testing.T) {
	for w, want := range map[string]bool{
		"wher": true, "ther": true, "abot": true, "whih": true,
		"where": false, "wasm": false, "mgmt": false, "resi": false, "sauna": false, "the": false, "k8s": false,
	} {
		if got := IsStopMisspelled(w); got != want {
			t.Errorf("IsStopMisspelled(%q) = %v, want %v", w, got, want)
		}
	}
}

// Written keeps a word's case where Words lower-cases it, and splits alike.
func TestWrittenSplitsAsWordsDoes(t *testing.T) {
	text := "SPS-Programmierung, 7th axis / GPU's"
	w := Written(text)
	if len(w) != len(Words(text)) || w[0] != "SPS" || w[len(w)-2] != "GPU" {
		t.Errorf("Written(%q) = %q, Words = %q", text, w, Words(text))
	}
}
