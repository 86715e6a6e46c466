package registry_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	require.NoError(t, err)
	require.Empty(t, warn)
	e, _ := s.Get("plan")
	assert.Equal(t, 1, e.Version, "fresh entry = %+v", e)
	assert.True(t, e.Default, "fresh entry = %+v", e)
	s.Set("plan", "v2")
	e, err = s.Set("plan", "v3")
	require.NoError(t, err, "Set = %+v", e)
	assert.Equal(t, 3, e.Version, "Set = %+v", e)
	assert.False(t, e.Default, "Set = %+v", e)
	assert.False(t, e.UpdatedAt.IsZero(), "Set = %+v", e)

	again, warn, err := registry.Open(path, defaults, noEmpty)
	require.NoError(t, err)
	require.Empty(t, warn)
	e, _ = again.Get("plan")
	assert.Equal(t, "v3", e.Value, "after reopening: %+v", e)
	assert.Equal(t, 3, e.Version, "after reopening: %+v", e)
	h := again.History("plan")
	require.Len(t, h, 2, "history = %+v", h)
	assert.Equal(t, "default plan", h[0].Value, "history = %+v", h)
	assert.Equal(t, "v2", h[1].Value, "history = %+v", h)
	e, _ = again.Reset("plan")
	assert.Equal(t, "default plan", e.Value, "Reset = %+v", e)
	assert.Equal(t, 4, e.Version, "Reset = %+v", e)
	assert.True(t, e.Default, "Reset = %+v", e)
}

func TestRejectedChangesChangeNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	s, _, _ := registry.Open(path, defaults, noEmpty)
	_, err := s.Set("plan", "  ")
	assert.Error(t, err, "an invalid value was accepted")
	_, err = s.Set("nope", "x")
	assert.ErrorIs(t, err, registry.ErrUnknownKey, "unknown key")
	_, err = os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist, "a rejected change was written")
	e, _ := s.Get("plan")
	assert.Equal(t, 1, e.Version, "version moved: %+v", e)
}

func TestBadStoredValuesFallBackToDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(path, []byte(`{"current":{"plan":{"value":"","version":7},"gone":{"value":"x","version":2}}}`), 0o600)
	s, warn, err := registry.Open(path, defaults, noEmpty)
	require.NoError(t, err, "warnings %v", warn)
	require.Len(t, warn, 2, "warnings %v", warn)
	e, _ := s.Get("plan")
	assert.Equal(t, "default plan", e.Value, "rejected stored value: %+v", e)
	assert.Equal(t, 8, e.Version, "rejected stored value: %+v", e)
	os.WriteFile(path, []byte(`not json`), 0o600)
	_, _, err = registry.Open(path, defaults, noEmpty)
	assert.Error(t, err, "a corrupt file was accepted")
}

func TestHistoryIsBounded(t *testing.T) {
	s, _, _ := registry.Open("", defaults, noEmpty)
	for i := range registry.MaxHistory + 5 {
		s.Set("answer", strings.Repeat("x", i+1))
	}
	assert.Len(t, s.History("answer"), registry.MaxHistory, "versions kept")
}

func TestStoredDefaultsFollowNewDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	s, _, _ := registry.Open(path, defaults, noEmpty)
	s.Set("plan", "operator's plan") // persists both keys; "answer" as its default
	changed := map[string]string{"plan": "new default plan", "answer": "new default answer"}
	again, _, _ := registry.Open(path, changed, noEmpty)
	e, _ := again.Get("answer")
	assert.Equal(t, "new default answer", e.Value, "a stored default did not follow the new default: %+v", e)
	assert.True(t, e.Default, "a stored default did not follow the new default: %+v", e)
	e, _ = again.Get("plan")
	assert.Equal(t, "operator's plan", e.Value, "an operator's change was lost: %+v", e)
	assert.False(t, e.Default, "an operator's change was lost: %+v", e)
}
