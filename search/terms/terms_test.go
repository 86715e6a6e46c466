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
		"companies": "company", "running": "run", "processes": "process", "business": "business",
		"analysis": "analysis", "status": "status", "k8s": "k8s", "gpus": "gpus", "data": "data",
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
	if !slices.Equal(got, []string{"kubernete", "workshop"}) {
		t.Fatalf("Content stems = %v", got)
	}
	if !slices.Equal(terms.Stems("models model Models"), []string{"model"}) {
		t.Fatalf("Stems should deduplicate: %v", terms.Stems("models model Models"))
	}
}
