package translate_test

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/translate"
)

// entries of a small German–English dictionary in FreeDict's layout.
var entries = []struct{ head, text string }{
	{"morgen", "Morgen /mˈɔɾɡən/ <masc, n, sg>\nmorning <n>\n"},
	{"morgen", "morgen /mˈɔɾɡən/ <adv>\ntomorrow <adv>\n      \"morgen früh\"  - tomorrow morning\n"},
	{"ochtend", "ochtend /ɔxtənt/\n1. morning\n2. forenoon\n"},
	{"netzwerk", "Netzwerk /nˈɛtsvɛɾk/ <neut, n, sg>\nnet <n>, network <n>\n   Synonym: {Netz}\n"},
	{"sicherheit", "Sicherheit /zˈɪçɜhˌaɪt/ <fem, n, sg>\ncertitude <n>\n   Synonym: {Gewissheit}\n"},
	{"sicherheit", "Sicherheit /zˈɪçɜhˌaɪt/ <fem, n, sg>\n [fin.] security <n>, surety <n>\n         Note: civil law\n"},
	{"vorträge", "Vorträge /fˈoːɾtɾɛːɡə/ <pl>\nlectures <n>, talks <n>\n see: {Vortrag}\n"},
	{"zugang", "Zugang /tsˈuːɡaŋ/ <masc, n, sg>\naccess <n>, entrance <n>\n"},
	{"schiffen", "schiffen /ʃˈɪfən/ <vi>\nto navigate <v>\n"},
	{"schiff", "Schiff /ʃˈɪf/ <neut, n, sg>\nship <n>, vessel <n>\n"},
	{"rag", "rag /rɑx/\ncobweb\n"},
	{"thema", "Thema /tˈeːma/ <neut, n, sg>\ntopic of conversation <n>, subject <n>, theme <n>\n"},
}

// writeDict writes entries as dictd files (index and dictzip text, in
// chunks of chunk bytes so that entries span chunks) and returns the dir.
func writeDict(t *testing.T, lang string, chunk int) string {
	t.Helper()
	var text bytes.Buffer
	var index []string
	for _, e := range entries {
		index = append(index, e.head+"\t"+b64(text.Len())+"\t"+b64(len(e.text)))
		text.WriteString(e.text)
	}
	slices.Sort(index)
	dir := t.TempDir()
	base := filepath.Join(dir, "freedict-"+lang+"-eng")
	require.NoError(t, os.WriteFile(base+".index", []byte(strings.Join(index, "\n")+"\n"), 0o644))
	require.NoError(t, os.WriteFile(base+".dict.dz", dictzip(t, text.Bytes(), chunk), 0o644))
	return dir
}

// dictzip compresses text in independently inflatable chunks behind a
// gzip header whose RA field lists them.
func dictzip(t *testing.T, text []byte, chunk int) []byte {
	var chunks [][]byte
	for at := 0; at < len(text); at += chunk {
		var c bytes.Buffer
		w, err := flate.NewWriter(&c, flate.BestCompression)
		require.NoError(t, err)
		_, err = w.Write(text[at:min(at+chunk, len(text))])
		require.NoError(t, err)
		require.NoError(t, w.Close())
		chunks = append(chunks, c.Bytes())
	}
	ra := binary.LittleEndian.AppendUint16(nil, 1)
	ra = binary.LittleEndian.AppendUint16(ra, uint16(chunk))
	ra = binary.LittleEndian.AppendUint16(ra, uint16(len(chunks)))
	for _, c := range chunks {
		ra = binary.LittleEndian.AppendUint16(ra, uint16(len(c)))
	}
	extra := append([]byte("RA"), binary.LittleEndian.AppendUint16(nil, uint16(len(ra)))...)
	extra = append(extra, ra...)
	out := []byte{0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 2, 3}
	out = binary.LittleEndian.AppendUint16(out, uint16(len(extra)))
	out = append(out, extra...)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}

func b64(n int) string {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	s := string(digits[n%64])
	for n /= 64; n > 0; n /= 64 {
		s = string(digits[n%64]) + s
	}
	return s
}

// conference knows the words of a conference on network security.
func conference(w string) bool {
	return map[string]bool{"network": true, "security": true, "talks": true, "access": true, "artificial": true}[w]
}

// port knows the words of a conference on shipping.
func port(w string) bool {
	return map[string]bool{"cyber": true, "security": true, "ship": true, "ships": true, "foundation": true}[w]
}

// A compound's part the conference writes as it is reads as itself
// ("Cybersicherheit"), a word it writes as it is is not split at all
// ("Foundation"), and of a word's forms the one whose sense the conference
// knows is read ("Schiffen" as ships, not the verb).
func TestGlossaryReadsPartsAndFormsTheConferenceKnows(t *testing.T) {
	g := translate.NewGlossary(writeDict(t, "deu", 64))
	got := read(t, g, "de", "Cybersicherheit auf Schiffen der Foundation", port)
	assert.Equal(t, "cyber security ship Foundation", got)
	got = read(t, g, "de", "Schiffen", nil)
	assert.Equal(t, "navigate", got, "without the conference, the word as written first")
}

func TestGlossaryReadsWordsInTheSenseTheConferenceUses(t *testing.T) {
	g := translate.NewGlossary(writeDict(t, "deu", 64))
	assert.Equal(t, []string{"de"}, g.Languages())
	got := read(t, g, "de", "Gibt es Vorträge zur Netzwerksicherheit morgen?", conference)
	assert.Equal(t, "talks network security tomorrow?", got, "function words left out, a compound read in parts, an adverb in its first sense")
	got = read(t, g, "de", "Vorträge zur Netzwerksicherheit, Zugangs-Kontrolle und Kubernetes", nil)
	assert.Equal(t, "talks net certitude, Zugangs-Kontrolle Kubernetes", got, "without the conference, first senses (a talk is a talk); words no entry explains kept as written")
	got = read(t, g, "de", "Zugangs", conference)
	assert.Equal(t, "access", got, "an inflection ending is dropped to find the entry")
	got = read(t, g, "de", "ochtend", nil)
	assert.Equal(t, "morning", got, "a numbered sense without its number")
	got = read(t, g, "de", "Gibt es Vorträge zum Thema Netzwerksicherheit?", conference)
	assert.Equal(t, "talks network security?", got, "\"zum Thema\" introduces the topic; it is none")
}

// "Nicht" and "kein" say "not", where dropping them would ask for what
// was turned down; an acronym the conference spells out is kept, not
// read as the word it spells.
func TestGlossaryKeepsNegationsAndAcronyms(t *testing.T) {
	g := translate.NewGlossary(writeDict(t, "deu", 64))
	knowsRAG := func(w string) bool { return w == "RAG" || conference(w) }
	got := read(t, g, "de", "Vorträge über RAG, aber nicht morgen und keine Netzwerksicherheit", knowsRAG)
	assert.Equal(t, "talks RAG, not tomorrow not network security", got)
	got = read(t, g, "de", "Gibt es morgen keine Vorträge über RAG? Bitte nicht morgen.", knowsRAG)
	assert.Equal(t, "tomorrow talks RAG? not tomorrow.", got, "asking whether there are none asks for them")
	got = read(t, g, "de", "Gibt es Vorträge über RAG aber nicht morgen?", knowsRAG)
	assert.Equal(t, "talks RAG not tomorrow?", got, "after aber, a negation turns down")
	got = read(t, g, "de", "RAG", conference)
	assert.Equal(t, "cobweb", got, "an acronym the conference does not use is looked up")
}

func TestGlossaryFailsClearlyOnABrokenDictionary(t *testing.T) {
	dir := writeDict(t, "nld", 64)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "freedict-nld-eng.dict.dz"), []byte("not gzip"), 0o644))
	g := translate.NewGlossary(dir)
	_, err := g.Translate(context.Background(), "nl", "sessies over veiligheid", nil)
	assert.ErrorContains(t, err, "not a dictzip file")
	_, again := g.Translate(context.Background(), "nl", "sessies", nil)
	assert.Equal(t, err, again, "a broken dictionary fails the same way, without being read again")
	_, err = g.Translate(context.Background(), "sv", "hej", nil)
	assert.ErrorIs(t, err, translate.ErrUnsupported)

	require.NoError(t, os.Remove(filepath.Join(dir, "freedict-nld-eng.dict.dz")))
	assert.Empty(t, translate.NewGlossary(dir).Languages(), "an index without its text is no dictionary")
	assert.Empty(t, translate.NewGlossary(filepath.Join(dir, "missing")).Languages())
}

func TestFirstTranslatesWithTheFirstThatReads(t *testing.T) {
	a, err := translate.NewApertium(context.Background(), fake(t, `  spa-eng\n`, `sed "s/^/[apertium] /"`))
	require.NoError(t, err)
	tr := translate.First{a, translate.NewGlossary(writeDict(t, "deu", 4096))}
	assert.True(t, tr.Reads("es"))
	assert.True(t, tr.Reads("de"))
	assert.False(t, tr.Reads("fi"))
	es, err := tr.Translate(context.Background(), "es", "hola", nil)
	require.NoError(t, err)
	assert.Equal(t, "[apertium] hola", es)
	de, err := tr.Translate(context.Background(), "de", "Sicherheit", conference)
	require.NoError(t, err)
	assert.Equal(t, "security", de)
	_, err = tr.Translate(context.Background(), "fi", "hei", nil)
	assert.ErrorIs(t, err, translate.ErrUnsupported)
}

// TestFreeDictReadsGermanQuestions runs Debian's German–English FreeDict
// dictionary, which scripts/translate/install.sh installs.
func TestFreeDictReadsGermanQuestions(t *testing.T) {
	g := translate.NewGlossary(translate.DefaultDictDir)
	if !g.Reads("de") {
		if os.Getenv("ERLEAH_REQUIRE_TRANSLATION") != "" {
			t.Fatal("FreeDict's German–English dictionary required (scripts/translate/install.sh)")
		}
		t.Skip("FreeDict's German–English dictionary is not installed (scripts/translate/install.sh)")
	}
	got := read(t, g, "de", "Gibt es Vorträge über Datenschutz und künstliche Intelligenz?", conference)
	assert.Contains(t, got, "data protection", got)
	assert.Contains(t, got, "artificial intelligence", got)
}

// The words that say which part of a programme is asked about are read as
// the programme's, where a dictionary lacks them or gives another sense
// first; a reading keeps its sentences.
func TestGlossaryReadsTheProgrammesParts(t *testing.T) {
	g := translate.NewGlossary(writeDict(t, "deu", 64))
	got := read(t, g, "de", "Mit welchen Referentinnen lohnt sich ein Gespräch? Ich suche Aussteller.", nil)
	assert.Contains(t, got, "speakers", got)
	assert.Contains(t, got, "exhibitors.", got)
	assert.Contains(t, got, "?", "the question's mark: %s", got)
}

// read translates text with g and fails the test on an error.
func read(t *testing.T, g *translate.Glossary, lang, text string, known func(string) bool) string {
	t.Helper()
	got, err := g.Translate(context.Background(), lang, text, known)
	require.NoError(t, err)
	return got
}
