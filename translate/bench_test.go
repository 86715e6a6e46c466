package translate_test

import (
	"context"
	"testing"

	"github.com/erleah/erleah-agent/translate"
)

// BenchmarkReading times reading a question in English: word by word with
// FreeDict's German dictionary (opened before the timer), and with
// Apertium (one step for Spanish, two for French).
func BenchmarkReading(b *testing.B) {
	ctx := context.Background()
	g := translate.NewGlossary(translate.DefaultDictDir)
	if g.Reads("de") {
		if _, err := g.Translate(ctx, "de", "Vortrag", nil); err != nil {
			b.Fatal(err)
		}
		b.Run("freedict-de", func(b *testing.B) {
			for b.Loop() {
				if _, err := g.Translate(ctx, "de", "Gibt es morgen Vorträge über Netzwerksicherheit und Datenschutz in Krankenhäusern?", conference); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	a, err := translate.NewApertium(ctx, "")
	if err != nil {
		b.Skip(err)
	}
	for lang, q := range map[string]string{"es": "¿Hay talleres sobre seguridad de redes mañana?", "fr": "Y a-t-il un atelier sur la sécurité des réseaux ?"} {
		b.Run("apertium-"+lang, func(b *testing.B) {
			for b.Loop() {
				if _, err := a.Translate(ctx, lang, q, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
