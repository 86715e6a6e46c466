package terms_test

import (
	"slices"
	"testing"

	"github.com/erleah/erleah-agent/search/terms"
)

func TestWords(t *testing.T) {
	got := terms.Words("On-prem CI/CD for K8s — déploiement!")
	want := []string{"on", "prem", "ci", "cd", "for", "k8s", "déploiement"}
	if !slices.Equal(got, want) {
		t.Fatalf("Words = %v, want %v", got, want)
	}
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"deployments": "deploy", "deploying": "deploy", "deployed": "deploy", "models": "model",
		"companies": "compani", "company": "compani", "running": "run", "processes": "process",
		"status": "status", "k8s": "k8s", "gpus": "gpus", "data": "data",
		// British and American spellings share a stem.
		"organisation": "organ", "organization": "organ", "virtualisation": "virtual", "virtualization": "virtual",
		"centre": "center", "analyse": "analyz", "analyze": "analyz", "colour": "color",
		// words that only look British stay themselves
		"expertise": "expertis", "enterprise": "enterpris", "hour": "hour",
	} {
		if got := terms.Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestContentDropsStopWords(t *testing.T) {
	var got []string
	for _, tok := range terms.Content("Who can help me find the Kubernetes workshops?") {
		got = append(got, tok.Stem)
	}
	if !slices.Equal(got, []string{"kubernet", "workshop"}) {
		t.Fatalf("Content stems = %v", got)
	}
	if !slices.Equal(terms.Stems("models model Models"), []string{"model"}) {
		t.Fatalf("Stems should deduplicate: %v", terms.Stems("models model Models"))
	}
}

func TestIsEnglish(t *testing.T) {
	for w, want := range map[string]bool{
		"sauna": true, "knitting": true, "german": true, "database": true, "monday": true,
		"databses": false, "kubernets": false, "sbom": false, "": false,
	} {
		if got := terms.IsEnglish(w); got != want {
			t.Errorf("IsEnglish(%q) = %v, want %v", w, got, want)
		}
	}
}
