package terms_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/terms"
)

func TestWords(t *testing.T) {
	got := terms.Words("On-prem CI/CD for K8s — déploiement!")
	want := []string{"on", "prem", "ci", "cd", "for", "k8s", "déploiement"}
	assert.Equal(t, want, got, "Words")
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
		assert.Equal(t, want, terms.Stem(in), "Stem(%q)", in)
	}
}

func TestContentDropsStopWords(t *testing.T) {
	var got []string
	for _, tok := range terms.Content("Who can help me find the Kubernetes workshops?") {
		got = append(got, tok.Stem)
	}
	assert.Equal(t, []string{"kubernet", "workshop"}, got, "Content stems")
	assert.Equal(t, []string{"model"}, terms.Stems("models model Models"), "Stems should deduplicate")
	got = nil
	for _, tok := range terms.Content("We've got an audit; they're sure it's due and I'd say we'll pass") {
		got = append(got, tok.Raw)
	}
	assert.Equal(t, []string{"audit", "sure", "due", "say", "pass"}, got, "what contractions leave is no content")
	got = nil
	for _, tok := range terms.Content("varroa options that arent synthetic, dont know whats best") {
		got = append(got, tok.Raw)
	}
	assert.Equal(t, []string{"varroa", "options", "synthetic", "best"}, got, "contractions typed without an apostrophe")
}

func TestIsEnglish(t *testing.T) {
	for w, want := range map[string]bool{
		"sauna": true, "knitting": true, "german": true, "database": true, "monday": true,
		"databses": false, "kubernets": false, "sbom": false, "": false,
	} {
		assert.Equal(t, want, terms.IsEnglish(w), "IsEnglish(%q)", w)
	}
}

func TestUnaccented(t *testing.T) {
	for in, want := range map[string]string{"Tōtara Room": "Totara Room", "Salon Belvédère": "Salon Belvedere", "Kōwhai": "Kowhai", "Hall 1": "Hall 1", "Straße": "Straße"} {
		assert.Equal(t, want, terms.Unaccented(in), in)
	}
}
