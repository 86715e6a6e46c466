package translate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/translate"
)

func TestRoutesLeadToEnglishInOneStepOrTwo(t *testing.T) {
	got := translate.Routes([]string{
		"spa-eng", "eng-spa", "spa-eng_US", "fr-es", "es-fr", "pt-es", "ita-spa",
		"eco-fr-es", "spa-cat_valencia", "cat-spa", "br-fr", "af-nl", "nonsense",
	})
	assert.Equal(t, map[string][]string{
		"es": {"spa-eng"},
		"fr": {"fr-es", "spa-eng"},
		"pt": {"pt-es", "spa-eng"},
		"it": {"ita-spa", "spa-eng"},
		"ca": {"cat-spa", "spa-eng"},
	}, got, "English itself, variants, three-part names, unknown codes and dead ends are no routes")
	assert.Empty(t, translate.Routes([]string{"fr-es", "es-fr"}), "no pair reaches English")
}

// fake writes an apertium stand-in: "-l" lists directions, any other call
// runs body with the direction (the last argument) in $dir.
func fake(t *testing.T, directions, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "apertium")
	script := "#!/bin/sh\nif [ \"$1\" = -l ]; then printf '" + directions + "'; exit 0; fi\nfor dir; do :; done\n" + body + "\n"
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

func TestTranslateChainsItsSteps(t *testing.T) {
	bin := fake(t, `  fr-es\n  spa-eng\n`, `sed "s/^/[$dir] /"`)
	a, err := translate.NewApertium(context.Background(), bin)
	require.NoError(t, err)
	assert.Equal(t, []string{"es", "fr"}, a.Languages())
	assert.True(t, a.Reads("fr"))
	assert.False(t, a.Reads("de"))
	got, err := a.Translate(context.Background(), "fr", "un atelier\n", nil)
	require.NoError(t, err)
	assert.Equal(t, "[spa-eng] [fr-es] un atelier", got)
}

func TestTranslateRefusesWhatItCannotRead(t *testing.T) {
	a, err := translate.NewApertium(context.Background(), fake(t, `  spa-eng\n`, `cat`))
	require.NoError(t, err)
	_, err = a.Translate(context.Background(), "de", "Gibt es Vorträge?", nil)
	assert.ErrorIs(t, err, translate.ErrUnsupported)
	_, err = a.Translate(context.Background(), "es", strings.Repeat("hola ", 4000), nil)
	assert.ErrorContains(t, err, "longer than")
}

func TestTranslateSaysWhyApertiumFailed(t *testing.T) {
	a, err := translate.NewApertium(context.Background(), fake(t, `  spa-eng\n`, `echo "Error: Mode spa-eng does not exist" >&2; exit 1`))
	require.NoError(t, err)
	_, err = a.Translate(context.Background(), "es", "hola", nil)
	assert.ErrorContains(t, err, "spa-eng")
	assert.ErrorContains(t, err, "does not exist")
}

func TestTranslateGivesUpWhenApertiumHangs(t *testing.T) {
	a, err := translate.NewApertium(context.Background(), fake(t, `  spa-eng\n`, `sleep 30; cat`))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = a.Translate(ctx, "es", "hola", nil)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "err %v", err)
	assert.Less(t, time.Since(start), 10*time.Second, "waited for the hung pipeline")
}

func TestNewApertiumNeedsAPairToEnglish(t *testing.T) {
	_, err := translate.NewApertium(context.Background(), filepath.Join(t.TempDir(), "missing"))
	assert.ErrorContains(t, err, "find apertium")
	_, err = translate.NewApertium(context.Background(), fake(t, `  fr-es\n`, `cat`))
	assert.ErrorContains(t, err, "no pair that leads to English")
}

// TestApertiumReadsRomanceQuestions runs the real Apertium that
// scripts/translate/install.sh installs (scripts/test.sh sets
// ERLEAH_REQUIRE_TRANSLATION=1, so there it cannot skip).
func TestApertiumReadsRomanceQuestions(t *testing.T) {
	a, err := translate.NewApertium(context.Background(), "")
	if err != nil {
		if os.Getenv("ERLEAH_REQUIRE_TRANSLATION") != "" {
			t.Fatalf("Apertium required: %v", err)
		}
		t.Skipf("Apertium is not installed (scripts/translate/install.sh): %v", err)
	}
	for lang, q := range map[string]string{
		"es": "¿Hay talleres sobre seguridad de redes mañana?",
		"fr": "Y a-t-il un atelier sur la sécurité des réseaux ?",
		"pt": "Há alguma palestra sobre segurança de redes?",
		"it": "C'è un workshop sulla sicurezza delle reti?",
	} {
		got, err := a.Translate(context.Background(), lang, q, nil)
		require.NoError(t, err, lang)
		assert.Contains(t, strings.ToLower(got), "security", "%s: %q read as %q", lang, q, got)
	}
}
