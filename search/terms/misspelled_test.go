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
