package lexical

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	require.NotEmpty(t, got, "rank is empty, want s5 covering everything (deploying models)")
	assert.Equal(t, "sessions/s5", got[0].Key, "rank = %+v, want s5 (deploying models) first", got)
	assert.Equal(t, 1.0, got[0].Coverage, "rank = %+v, want s5 covering everything", got)
}

func TestMisspellingsAreCorrectedAgainstTheConference(t *testing.T) {
	c := corpus()
	a := c.Analyze("vector databses")
	f := a.Fixed()
	require.Len(t, f, 1, "fixed = %+v, want databses → databases", f)
	assert.Equal(t, "databses", f[0].Word, "fixed = %+v, want databses → databases", f)
	assert.Equal(t, "databases", f[0].Fix, "fixed = %+v, want databses → databases", f)
	assert.Equal(t, "vector databases", a.Text())
	got := c.Rank("sessions", a, nil)
	require.NotEmpty(t, got)
	assert.Equal(t, "sessions/s2", got[0].Key, "rank = %+v", got)
	assert.Equal(t, 1.0, got[0].Coverage, "rank = %+v", got)
	for _, real := range []string{"sauna", "knitting", "german"} { // English words the conference lacks
		a := c.Analyze(real)
		assert.Empty(t, a.Fixed(), "%q was corrected: %+v", real, a.Concepts)
		assert.Len(t, a.Unknown(), 1, "%q was corrected: %+v", real, a.Concepts)
	}
	assert.Len(t, c.Analyze("postgress replicaton").Fixed(), 2, "two typos")
	assert.Empty(t, c.Analyze("xqzt").Fixed(), "a word far from any conference word was corrected")
}

func TestSelfDescriptionDoesNotReachTheSearch(t *testing.T) {
	c := corpus()
	a := c.Analyze("I am a warehouse manager at a big retailer and I want to learn how to deploy models")
	var words []string
	for _, k := range a.Concepts {
		words = append(words, k.Word)
	}
	assert.Equal(t, []string{"deploy", "models"}, words, "concepts")
}

func TestAcronymsAreMinedFromTheConferenceText(t *testing.T) {
	c := corpus()
	assert.Equal(t, []string{"software bill of materials"}, c.Expansions("SBOM"), "SBOM")
	wms := c.Expansions("wms")
	assert.True(t, slices.Contains(wms, "warehouse management systems") || slices.Contains(wms, "warehouse management system"), "wms → %v", wms)
	ml := c.Expansions("ml")
	require.NotEmpty(t, ml, "ml → nothing (machine learning appears twice)")
	assert.Equal(t, "machine learning", ml[0], "ml → %v (machine learning appears twice)", ml)
	assert.Equal(t, []string{"software bill of materials"}, c.Expansions("SBOMs"), "SBOMs: a plural acronym")
	assert.Equal(t, []string{"software bill of materials"}, c.Expansions("sboms"), "sboms: a plural acronym")
	assert.Empty(t, c.Expansions("xyzs"), "xyzs")
	assert.Empty(t, c.Expansions("xyz"), "xyz")
	assert.Empty(t, c.Expansions("wasm"), "wasm") // "wearable air sensors made" once is a coincidence
	assert.Equal(t, "sbom", c.Abbreviation("software bill of materials"), "abbreviation")
	assert.Equal(t, "", c.Abbreviation("vector databases"), "vector databases abbreviated although the text never writes VD")
}

// "With" inside a phrase gives its acronym no letter, as "of" does not.
func TestAcronymsSkipWith(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{"Mechanical ventilation with heat recovery in airtight homes", 2}, {"The faults we find in mechanical ventilation with heat recovery.", 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{"Lift modernisation", 2}, {"Replacing controllers in ageing lifts.", 1}}},
	})
	assert.Equal(t, []string{"mechanical ventilation with heat recovery"}, c.Expansions("MVHR"))
}

// "From" gives an acronym no letter either, and an acronym typed with two
// neighbouring letters swapped still reads as the one the programme spells
// out.
func TestAcronymsSkipFromAndSurviveASwap(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{"Reinforcement learning from human feedback in practice", 2}, {"Reward models for reinforcement learning from human feedback.", 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{"Lift modernisation", 2}, {"Replacing controllers in ageing lifts.", 1}}},
	})
	want := []string{"reinforcement learning from human feedback"}
	assert.Equal(t, want, c.Expansions("RLHF"))
	assert.Equal(t, want, c.Expansions("RHLF"))
	assert.Empty(t, c.Expansions("HRLF"), "two swaps away")
}

// A question's phrase is read as an acronym the conference writes only
// when it is a run of content words: "I can use" is not ICU.
func TestAbbreviationsAreOfContentWords(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{"Sepsis alerts in the ICU", 2}, {"How our ICU nurses triage alerts.", 1}}},
	})
	assert.Equal(t, "icu", c.Abbreviation("intensive care unit"))
	for _, phrase := range []string{"i can use", "it can update"} {
		assert.Equal(t, "", c.Abbreviation(phrase), phrase)
	}
}

func TestRankWeighsRareWordsAndCoverage(t *testing.T) {
	c := corpus()
	a := c.Analyze("postgres databases")
	got := c.Rank("sessions", a, nil)
	require.GreaterOrEqual(t, len(got), 2, "rank = %+v", got)
	assert.Equal(t, "sessions/s3", got[0].Key, "rank = %+v, want s3 (both words) first", got)
	assert.Equal(t, 1.0, got[0].Coverage, "rank = %+v, want s3 (both words) first", got)
	assert.Less(t, got[1].Coverage, 0.5, "a document with only the common word covers too much (postgres is rarer)")
	only := c.Rank("sessions", a, func(k string) bool { return k == "sessions/s2" })
	require.Len(t, only, 1, "allow ignored: %+v", only)
	assert.Equal(t, "sessions/s2", only[0].Key, "allow ignored: %+v", only)
	assert.Empty(t, c.Rank("speakers", c.Analyze("postgres"), nil), "groups are not kept apart")
}

func TestRelatedWordsComeFromTheBestDocuments(t *testing.T) {
	c := corpus()
	got := c.Related("sessions", c.Analyze("vector"), 3)
	assert.True(t, slices.Contains(got, "similarity") || slices.Contains(got, "benchmarks"), "related = %v, want words of the vector databases session", got)
	assert.NotContains(t, got, "vector", "related repeats the question")
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
		// Short questions, where a trigram detector alone guesses wrong.
		"¿Hay charlas sobre vector databases?":        "es",
		"Gibt es Vorträge über Kubernetes?":           "de",
		"Y a-t-il des ateliers sur la cybersécurité?": "fr",
		"Zijn er sessies over robots?":                "nl",
		"Er der nogen foredrag om robotter?":          "da",
		"Finns det några föredrag om robotar?":        "sv",
		"Y a-t-il des ateliers demain matin ?":        "fr", // atelier and matin are English words too
		"Was läuft heute Nachmittag?":                 "de",
		// Elided articles are no English words; a function word two languages
		// share does not outvote three only one has.
		"Y a-t-il une session sur la prévention des chutes à l'hôpital ?": "fr",
		"Há alguma palestra sobre inteligência artificial em mamografia?": "pt",
		"Is er een workshop over telegeneeskunde?":                        "nl",
		"Is there a talk on Los Angeles and La Jolla?":                    English,
		"Is there a talk on La Liga analytics?":                           English,
		"":                                                                English,
	} {
		assert.Equal(t, want, Language(text, c.Knows), "Language(%q)", text)
	}
	assert.Equal(t, "German", LanguageName("de"), "LanguageName(de)")
	assert.True(t, OtherLanguageWord("es"), "es")
	assert.False(t, OtherLanguageWord("ES"), "ES, in capitals, may be an acronym")
	assert.False(t, OtherLanguageWord("sbom"), "sbom")
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
		require.NotEmpty(t, got, "%q ranks nothing, want %s covering everything", q, want)
		assert.Equal(t, want, got[0].Key, "%q ranks %+v, want %s first", q, got, want)
		assert.Equal(t, 1.0, got[0].Coverage, "%q ranks %+v, want %s covering everything", q, got, want)
	}
	// A programme that writes a word both ways has it both ways: the one
	// "deeplearning" and every "deep learning".
	both := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{"Source code analysis", 2}, {"We use deeplearning on code.", 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{"Deep learning workshop", 2}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{"Learning to cook", 2}}},
	})
	var found []string
	for _, m := range both.Rank("sessions", both.Analyze("deeplearning"), nil) {
		if m.Coverage == 1 {
			found = append(found, m.Key)
		}
	}
	assert.ElementsMatch(t, []string{"sessions/a", "sessions/b"}, found, "deeplearning")
	// What is embedded is the question as the conference writes it, the
	// joined word included, however the pair was spelt.
	assert.Equal(t, "elasticsearch logs", c.Analyze("elastic serch logs").Text())
	assert.Equal(t, "mysql tuning", c.Analyze("my sql tuning").Text())
}

func TestAcronymsAreNotFragmentsAndCamelCaseCounts(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{"Open source machine learning", 2}, {"Open source machine learning for all.", 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{"State of OpenStreetMap data", 2}, {"OpenStreetMap in Asia.", 1}}},
	})
	assert.Equal(t, []string{"openstreetmap"}, c.Expansions("osm"), "osm, want openstreetmap (open source machine is always followed by learning)")
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

// Two content words and a connector's letter spell three letters by
// chance; with three content letters the connector may give the fourth.
func TestALentLetterNeedsThreeOthers(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{"Security and privacy for apps", 2}, {"Security and privacy, by design.", 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{"Software bill of materials", 2}, {"Why a software bill of materials matters.", 1}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{"Supply and demand planning", 2}, {"Supply and demand planning at scale.", 1}}},
	})
	assert.Empty(t, c.Expansions("sap"), "sap: security and privacy is a coincidence")
	assert.Equal(t, []string{"software bill of materials"}, c.Expansions("sbom"), "sbom")
	assert.Equal(t, []string{"supply and demand planning"}, c.Expansions("sdp"), "sdp: the connector lends nothing")
}

func TestBritishAndAmericanSpellingsMatch(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{"Open hardware licenses", 2}, {"Choosing a license for your board designs.", 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{"Colour in data visualisation", 2}, {"Palettes for the colour blind.", 1}}},
		{Key: "sessions/s3", Group: "sessions", Fields: []Field{{"Community centre software", 2}, {"Running the organisation of a makerspace.", 1}}},
		{Key: "sessions/s4", Group: "sessions", Fields: []Field{{"A parts catalogue", 2}, {"Modelling the defence of a network.", 1}}},
		{Key: "sessions/s5", Group: "sessions", Fields: []Field{{"Paediatric anaesthesia", 2}, {"Fibre optic monitors.", 1}}},
		{Key: "sessions/s6", Group: "sessions", Fields: []Field{{"Horse behavior", 2}, {"Foal care.", 1}}},
	})
	for asked, want := range map[string]string{
		"licences": "sessions/s1", "color": "sessions/s2", "visualization": "sessions/s2",
		"organization": "sessions/s3", "center": "sessions/s3", "catalog": "sessions/s4",
		"modeling": "sessions/s4", "defense": "sessions/s4", "fiber": "sessions/s5", "pediatric anesthesia": "sessions/s5",
		"behaviour": "sessions/s6",
	} {
		got := c.Rank("sessions", c.Analyze(asked), nil)
		if assert.NotEmpty(t, got, "%q found nothing, want %s", asked, want) {
			assert.Equal(t, want, got[0].Key, "%q", asked)
			assert.Equal(t, 1.0, got[0].Coverage, "%q", asked)
		}
	}
	for _, real := range []string{"sauna", "doctor", "motor"} {
		assert.Empty(t, c.Analyze(real).Fixed(), "%q was respelt", real)
	}

}

// A word another language spells its own way, left untranslated, is read
// as the conference's word with the same cognate key; an English word the
// conference lacks, or a foreign word with no cognate here, is not.
func TestCognatesAreReadAsTheConferencesWord(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{"Imaging AI in mammography", 2}, {"A second reader for screening.", 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{"Clinical documentation", 2}, {"Writing notes faster.", 1}}},
		{Key: "sessions/s3", Group: "sessions", Fields: []Field{{"Hospital architecture", 2}, {"Designing wards for technology.", 1}}},
	})
	for asked, want := range map[string]string{
		"mamografia": "sessions/s1", "documentação": "sessions/s2", "documentación": "sessions/s2",
		"arquitectura": "sessions/s3", "tecnología": "sessions/s3", "documentatie": "sessions/s2",
	} {
		got := c.Rank("sessions", c.Analyze(asked), nil)
		if assert.NotEmpty(t, got, "%q found nothing, want %s", asked, want) {
			assert.Equal(t, want, got[0].Key, "%q", asked)
		}
	}
	for _, other := range []string{"sauna", "funghi", "hospitalidad"} {
		assert.Empty(t, c.Analyze(other).Fixed(), "%q was read as a conference word", other)
	}
}

// A word shortened by dropping letters is read as the conference's word it
// clips, when one word is clearly the likeliest.
func TestClippedWordsAreReadAsTheirWord(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{"WebAssembly in the browser", 2}, {"Compiling Rust to WebAssembly.", 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{"Configuration management", 2}, {"Management of fleets.", 1}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{"Performance tuning", 2}, {"Profile your pipelines.", 1}}},
	})
	assert.Equal(t, []string{"webassembly"}, c.Expansions("wasm"), "wasm")
	assert.Equal(t, []string{"management"}, c.Expansions("mgmt"), "mgmt")
	assert.Empty(t, c.Expansions("prf"), "prf: performance and profile fit alike")
	assert.Empty(t, c.Expansions("sauna"), "an English word is not a clipping")
	assert.Empty(t, c.Expansions("cfg"), "three letters clip too many words")
	assert.Empty(t, c.Expansions("cmpl"), "compiling, used once, is a coincidence")
	assert.Empty(t, c.Expansions("rust"), "a word the conference uses is not a clipping")
}

// A phrase found once is what an acronym stands for when it is the only
// one and a phrase with those initials is unlikely to occur by chance in
// the corpus; not when another phrase spells the same letters, nor when
// the corpus's words start with those letters so often that one would.
func TestAPhraseFoundOnceExpandsARareAcronym(t *testing.T) {
	programme := []Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{"Medication safety", 2}, {"How computerized provider order entry, the pharmacy and the pumps work together.", 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{"Nurse staffing", 2}, {"Rosters, overtime and retention on busy wards.", 1}}},
	}
	assert.Equal(t, []string{"computerized provider order entry"}, Build(programme).Expansions("CPOE"), "cpoe")

	other := append(slices.Clone(programme), Doc{Key: "sessions/c", Group: "sessions", Fields: []Field{{"Care pathways", 2}, {"Clinical pathways oversee everything.", 1}}})
	assert.Empty(t, Build(other).Expansions("CPOE"), "two phrases spell cpoe once each")

	// Words starting with d, a and c everywhere, in another order: a
	// phrase spelling DAC is expected here by chance.
	crowded := []Doc{{Key: "sessions/d", Group: "sessions", Fields: []Field{{"Carbon removal", 2}, {"We compare direct air capture with soil carbon.", 1}}}}
	for i := range 20 {
		text := fmt.Sprintf("Cats%d dogs%d ants%d.", i, i, i)
		crowded = append(crowded, Doc{Key: fmt.Sprintf("sessions/x%d", i), Group: "sessions", Fields: []Field{{text, 1}}})
	}
	c := Build(crowded)
	assert.Greater(t, c.acronyms.chance("dac"), maxChance, "chance of dac here")
	assert.Empty(t, c.Expansions("DAC"), "dac where d, a and c start most words")
	assert.Less(t, Build(programme).acronyms.chance("cpoe"), maxChance, "chance of cpoe in the programme")
}

// An acronym typed with its letters in another order is the conference's
// acronym with those letters, when only one has them, the typed word is not
// English and it has four letters or more.
func TestJumbledAcronymsAreReadAsTheConferencesAcronym(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{"Patient portals that meet WCAG 2.2", 2}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{"ICU staffing and CUI markings", 2}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{"Running a TAC for audits", 2}}},
	})
	fixed := c.Analyze("WGAC for patient portals").Fixed()
	require.Len(t, fixed, 1, "WGAC")
	assert.Equal(t, "wcag", fixed[0].Fix, "WGAC")
	assert.Empty(t, c.Analyze("UIC").Fixed(), "UIC: both ICU and CUI have its letters")
	assert.Empty(t, c.Analyze("act").Fixed(), "act is an English word, not TAC")
	assert.Empty(t, c.Analyze("ATC").Fixed(), "three letters in another order are as often another acronym")
}

// A word the question writes in capitals is an acronym: it is not
// corrected into another word by spelling ("HAPIs" is not "APIs"), though a
// lower-case misspelling still is.
func TestWordsInCapitalsAreNotSpellingCorrected(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{"Public apis for patients", 2}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{"Pressure injuries caught early", 2}}},
	})
	assert.Empty(t, c.Analyze("who catches HAPIs earlier?").Fixed(), "HAPIs")
	fixed := c.Analyze("public hapis").Fixed()
	require.Len(t, fixed, 1, "hapis in lower case")
	assert.Equal(t, "apis", fixed[0].Fix, "hapis in lower case")
}
