package lexical

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// corpus is a small conference written for these tests.
func corpus() *Corpus {
	docs := []Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{"Software bill of materials (SBOM) in practice", 2}, {"Why every release should ship an SBOM and how to generate one from your build.", 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{"Vector databases compared", 2}, {"Benchmarks of vector databases for similarity search and retrieval.", 1}}},
		{Key: "sessions/s3", Group: "sessions", Fields: []Field{{"Scaling Postgres", 2}, {"Replication, partitioning and connection pooling for Postgres databases.", 1}}},
		{Key: "sessions/s4", Group: "sessions", Fields: []Field{{"Warehouse management systems", 2}, {"Choosing a warehouse management system for a growing warehouse: slotting, picking and WMS integrations.", 1}}},
		{Key: "sessions/s7", Group: "sessions", Fields: []Field{{"Wearable air sensors made", 2}, {"One workshop about small monitors.", 1}}},
		{Key: "sessions/s5", Group: "sessions", Fields: []Field{{"Deploying models", 2}, {"From notebook to production: deploying machine learning models with continuous delivery.", 1}}},
		{Key: "sessions/s6", Group: "sessions", Fields: []Field{{"Machine learning at the edge", 2}, {"Running machine learning on small devices.", 1}}},
		{Key: "speakers/p1", Group: "speakers", Fields: []Field{{"Ada Lovelace", 2}, {"Ada builds vector databases and search engines.", 1}}},
	}
	return Build(docs)
}

func TestStemmedWordsMatchAcrossInflections(t *testing.T) {
	c := corpus()
	a := c.Analyze("deploy a model")
	got := c.Rank("sessions", a, nil)
	if len(got) == 0 || got[0].Key != "sessions/s5" || got[0].Coverage != 1 {
		t.Fatalf("rank = %+v, want s5 covering everything (deploying models)", got)
	}
}

func TestMisspellingsAreCorrectedAgainstTheConference(t *testing.T) {
	c := corpus()
	a := c.Analyze("vector databses")
	if f := a.Fixed(); len(f) != 1 || f[0].Word != "databses" || f[0].Fix != "databases" {
		t.Fatalf("fixed = %+v, want databses → databases", a.Fixed())
	}
	if a.Text() != "vector databases" {
		t.Fatalf("text = %q", a.Text())
	}
	if got := c.Rank("sessions", a, nil); got[0].Key != "sessions/s2" || got[0].Coverage != 1 {
		t.Fatalf("rank = %+v", got)
	}
	for _, real := range []string{"sauna", "knitting", "german"} { // English words the conference lacks
		if a := c.Analyze(real); len(a.Fixed()) != 0 || len(a.Unknown()) != 1 {
			t.Errorf("%q was corrected: %+v", real, a.Concepts)
		}
	}
	if a := c.Analyze("postgress replicaton"); len(a.Fixed()) != 2 {
		t.Errorf("two typos, fixes %+v", a.Fixed())
	}
	if a := c.Analyze("xqzt"); len(a.Fixed()) != 0 {
		t.Errorf("a word far from any conference word was corrected: %+v", a.Fixed())
	}
}

func TestSelfDescriptionDoesNotReachTheSearch(t *testing.T) {
	c := corpus()
	a := c.Analyze("I am a warehouse manager at a big retailer and I want to learn how to deploy models")
	var words []string
	for _, k := range a.Concepts {
		words = append(words, k.Word)
	}
	if !slices.Equal(words, []string{"deploy", "models"}) {
		t.Fatalf("concepts = %v", words)
	}
}

func TestAcronymsAreMinedFromTheConferenceText(t *testing.T) {
	c := corpus()
	if got := c.Expansions("SBOM"); !slices.Equal(got, []string{"software bill of materials"}) {
		t.Errorf("SBOM → %v", got)
	}
	if got := c.Expansions("wms"); !slices.Contains(got, "warehouse management systems") && !slices.Contains(got, "warehouse management system") {
		t.Errorf("wms → %v", got)
	}
	if got := c.Expansions("ml"); len(got) == 0 || got[0] != "machine learning" {
		t.Errorf("ml → %v (machine learning appears twice)", got)
	}
	if got := c.Expansions("xyz"); len(got) != 0 {
		t.Errorf("xyz → %v", got)
	}
	if got := c.Expansions("wasm"); len(got) != 0 { // "wearable air sensors made" once is a coincidence
		t.Errorf("wasm → %v", got)
	}
	if got := c.Abbreviation("software bill of materials"); got != "sbom" {
		t.Errorf("abbreviation = %q", got)
	}
	if got := c.Abbreviation("vector databases"); got != "" {
		t.Errorf("vector databases abbreviated to %q although the text never writes VD", got)
	}
}

func TestRankWeighsRareWordsAndCoverage(t *testing.T) {
	c := corpus()
	a := c.Analyze("postgres databases")
	got := c.Rank("sessions", a, nil)
	if got[0].Key != "sessions/s3" || got[0].Coverage != 1 {
		t.Fatalf("rank = %+v, want s3 (both words) first", got)
	}
	if got[1].Coverage >= 0.5 {
		t.Fatalf("a document with only the common word covers %.2f, want < 0.5 (postgres is rarer)", got[1].Coverage)
	}
	only := c.Rank("sessions", a, func(k string) bool { return k == "sessions/s2" })
	if len(only) != 1 || only[0].Key != "sessions/s2" {
		t.Fatalf("allow ignored: %+v", only)
	}
	if len(c.Rank("speakers", c.Analyze("postgres"), nil)) != 0 {
		t.Fatal("groups are not kept apart")
	}
}

func TestRelatedWordsComeFromTheBestDocuments(t *testing.T) {
	c := corpus()
	got := c.Related("sessions", c.Analyze("vector"), 3)
	if !slices.Contains(got, "similarity") && !slices.Contains(got, "benchmarks") {
		t.Fatalf("related = %v, want words of the vector databases session", got)
	}
	if slices.Contains(got, "vector") {
		t.Fatalf("related repeats the question: %v", got)
	}
}

func TestLanguageIsRecognised(t *testing.T) {
	c := corpus()
	for text, want := range map[string]string{
		"any talks on vector databases?": English,
		"k8s sbom wms?":                  English, // jargon the conference uses
		"Gibt es Vorträge über Datenschutz und Verschlüsselung?":          "de",
		"¿Hay algún taller sobre robots educativos de código abierto?":    "es",
		"Apakah ada sesi tentang kontainer dan Docker di konferensi ini?": "id",
		"有没有关于 PostgreSQL 数据库安全和审计的讲座？":                                   "zh",
		"": English,
	} {
		if got := Language(text, c.Knows); got != want {
			t.Errorf("Language(%q) = %q, want %q", text, got, want)
		}
	}
	if LanguageName("de") != "German" {
		t.Errorf("LanguageName(de) = %q", LanguageName("de"))
	}
}

func TestWordsWrittenTogetherOrApartMatch(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{"Centralized logs with Elasticsearch", 2}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{"MySQL tuning", 2}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{"Why open source wins", 2}}},
		{Key: "sessions/d", Group: "sessions", Fields: []Field{{"Search engines at home", 2}}},
	})
	for q, want := range map[string]string{"elastic search logs": "sessions/a", "my sql tuning": "sessions/b", "opensource": "sessions/c"} {
		got := c.Rank("sessions", c.Analyze(q), nil)
		if len(got) == 0 || got[0].Key != want || got[0].Coverage != 1 {
			t.Errorf("%q ranks %+v, want %s covering everything", q, got, want)
		}
	}
}

func TestAcronymsAreNotFragmentsAndCamelCaseCounts(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{"Open source machine learning", 2}, {"Open source machine learning for all.", 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{"State of OpenStreetMap data", 2}, {"OpenStreetMap in Asia.", 1}}},
	})
	if got := c.Expansions("osm"); !slices.Equal(got, []string{"openstreetmap"}) {
		t.Fatalf("osm → %v, want openstreetmap (open source machine is always followed by learning)", got)
	}
}

// A sentence copied into another entry (a talk's title in its speaker's
// list of talks) is one occurrence: its phrase is not an expansion on that
// alone, while a phrase two different sentences use is.
func TestCopiedSentencesCountOnceForAcronyms(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{"JSON support in MySQL", 2}}},
		{Key: "speakers/p", Group: "speakers", Fields: []Field{{"Evgeny", 2}, {"JSON support in MySQL. Query tuning", 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{"Secure messaging", 2}, {"We show secure messaging for teams.", 1}}},
	})
	assert.Empty(t, c.Expansions("sim"), "one sentence, copied, is a coincidence")
	assert.Equal(t, []string{"secure messaging"}, c.Expansions("sm"))
}
