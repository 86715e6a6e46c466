package registry_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/erleah/erleah-agent/registry"
)

func noEmpty(_ string, v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("empty")
	}
	return nil
}

var defaults = map[string]string{"plan": "default plan", "answer": "default answer"}

func TestSetPersistsVersionsAndSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "prompts.json")
	s, warn, err := registry.Open(path, defaults, noEmpty)
	if err != nil || len(warn) != 0 {
		t.Fatal(err, warn)
	}
	if e, _ := s.Get("plan"); e.Version != 1 || !e.Default {
		t.Fatalf("fresh entry = %+v", e)
	}
	s.Set("plan", "v2")
	e, err := s.Set("plan", "v3")
	if err != nil || e.Version != 3 || e.Default || e.UpdatedAt.IsZero() {
		t.Fatalf("Set = %+v, %v", e, err)
	}
	again, warn, err := registry.Open(path, defaults, noEmpty)
	if err != nil || len(warn) != 0 {
		t.Fatal(err, warn)
	}
	if e, _ := again.Get("plan"); e.Value != "v3" || e.Version != 3 {
		t.Fatalf("after reopening: %+v", e)
	}
	if h := again.History("plan"); len(h) != 2 || h[0].Value != "default plan" || h[1].Value != "v2" {
		t.Fatalf("history = %+v", h)
	}
	if e, _ := again.Reset("plan"); e.Value != "default plan" || e.Version != 4 || !e.Default {
		t.Fatalf("Reset = %+v", e)
	}
}

func TestRejectedChangesChangeNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	s, _, _ := registry.Open(path, defaults, noEmpty)
	if _, err := s.Set("plan", "  "); err == nil {
		t.Fatal("an invalid value was accepted")
	}
	if _, err := s.Set("nope", "x"); !errors.Is(err, registry.ErrUnknownKey) {
		t.Fatalf("unknown key: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a rejected change was written")
	}
	if e, _ := s.Get("plan"); e.Version != 1 {
		t.Fatalf("version moved: %+v", e)
	}
}

func TestBadStoredValuesFallBackToDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(path, []byte(`{"current":{"plan":{"value":"","version":7},"gone":{"value":"x","version":2}}}`), 0o600)
	s, warn, err := registry.Open(path, defaults, noEmpty)
	if err != nil || len(warn) != 2 {
		t.Fatalf("warnings %v, err %v", warn, err)
	}
	if e, _ := s.Get("plan"); e.Value != "default plan" || e.Version != 8 {
		t.Fatalf("rejected stored value: %+v", e)
	}
	os.WriteFile(path, []byte(`not json`), 0o600)
	if _, _, err := registry.Open(path, defaults, noEmpty); err == nil {
		t.Fatal("a corrupt file was accepted")
	}
}

func TestHistoryIsBounded(t *testing.T) {
	s, _, _ := registry.Open("", defaults, noEmpty)
	for i := range registry.MaxHistory + 5 {
		s.Set("answer", strings.Repeat("x", i+1))
	}
	if h := s.History("answer"); len(h) != registry.MaxHistory {
		t.Fatalf("%d versions kept", len(h))
	}
}

func TestStoredDefaultsFollowNewDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	s, _, _ := registry.Open(path, defaults, noEmpty)
	s.Set("plan", "operator's plan") // persists both keys; "answer" as its default
	changed := map[string]string{"plan": "new default plan", "answer": "new default answer"}
	again, _, _ := registry.Open(path, changed, noEmpty)
	if e, _ := again.Get("answer"); e.Value != "new default answer" || !e.Default {
		t.Fatalf("a stored default did not follow the new default: %+v", e)
	}
	if e, _ := again.Get("plan"); e.Value != "operator's plan" || e.Default {
		t.Fatalf("an operator's change was lost: %+v", e)
	}
}
