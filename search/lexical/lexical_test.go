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
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Software bill of materials (SBOM) in practice", Weight: 2}, {Text: "Why every release should ship an SBOM and how to generate one from your build.", Weight: 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{Text: "Vector databases compared", Weight: 2}, {Text: "Benchmarks of vector databases for similarity search and retrieval.", Weight: 1}}},
		{Key: "sessions/s3", Group: "sessions", Fields: []Field{{Text: "Scaling Postgres", Weight: 2}, {Text: "Replication, partitioning and connection pooling for Postgres databases.", Weight: 1}}},
		{Key: "sessions/s4", Group: "sessions", Fields: []Field{{Text: "Warehouse management systems", Weight: 2}, {Text: "Choosing a warehouse management system for a growing warehouse: slotting, picking and WMS integrations.", Weight: 1}}},
		{Key: "sessions/s7", Group: "sessions", Fields: []Field{{Text: "Wearable air sensors made", Weight: 2}, {Text: "One workshop about small monitors.", Weight: 1}}},
		{Key: "sessions/s5", Group: "sessions", Fields: []Field{{Text: "Deploying models", Weight: 2}, {Text: "From notebook to production: deploying machine learning models with continuous delivery.", Weight: 1}}},
		{Key: "sessions/s6", Group: "sessions", Fields: []Field{{Text: "Machine learning at the edge", Weight: 2}, {Text: "Running machine learning on small devices.", Weight: 1}}},
		{Key: "speakers/p1", Group: "speakers", Fields: []Field{{Text: "Ada Lovelace", Weight: 2}, {Text: "Ada builds vector databases and search engines.", Weight: 1}}},
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

func TestADroppedDoubleLetterIsCorrectedInShortWords(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Keeping care staff", Weight: 2}, {Text: "Staffing rotas and staff wellbeing.", Weight: 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Electronic bills of lading", Weight: 2}, {Text: "Paperless bills.", Weight: 1}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{Text: "Prem league", Weight: 2}, {Text: "Premises.", Weight: 1}}},
	})
	for typo, want := range map[string]string{"staf": "staff", "bils": "bills"} {
		f := c.Analyze(typo).Fixed()
		if assert.Len(t, f, 1, "%q: %+v", typo, f) {
			assert.Equal(t, want, f[0].Fix, typo)
		}
	}
	assert.Empty(t, c.Analyze("staff bills").Fixed(), "words the conference writes")
	assert.Empty(t, c.Analyze("STAF").Fixed(), "an acronym")
	assert.Empty(t, c.Analyze("pre").Fixed(), "three letters")
}

func TestAPluralAcronymIsReadAsTheConferencesSingular(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "A residential battery VPP", Weight: 2}, {Text: "Bidding a VPP into the market.", Weight: 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Demand response design", Weight: 2}, {Text: "Load research.", Weight: 1}}},
	})
	a := c.Analyze("VPPs or demand response")
	assert.Empty(t, a.Unknown(), "%+v", a.Concepts)
	got := c.Rank("sessions", a, nil)
	require.Len(t, got, 2, "both answer: %+v", got)
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
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Mechanical ventilation with heat recovery in airtight homes", Weight: 2}, {Text: "The faults we find in mechanical ventilation with heat recovery.", Weight: 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{Text: "Lift modernisation", Weight: 2}, {Text: "Replacing controllers in ageing lifts.", Weight: 1}}},
	})
	assert.Equal(t, []string{"mechanical ventilation with heat recovery"}, c.Expansions("MVHR"))
}

// A document that writes the conference's acronym for a phrase of the
// question has every word of the phrase; a phrase the acronym mostly does
// not stand for there has none of it.
func TestAPhraseTheConferenceAbbreviatesIsCoveredByItsAcronym(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Fault detection on BMS data", Weight: 2}, {Text: "Trend logs from a real building.", Weight: 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{Text: "Evacuation lifts", Weight: 2}, {Text: "For building safety officers and designers of systems.", Weight: 1}}},
		{Key: "sessions/s3", Group: "sessions", Fields: []Field{{Text: "Open BMS protocols", Weight: 2}, {Text: "Why BMS head-ends lock you in.", Weight: 1}}},
	})
	a := c.Analyze("building management systems")
	assert.InDelta(t, 1, c.Coverage("sessions", "sessions/s1", a), 1e-9, "BMS and building")
	assert.Less(t, c.Coverage("sessions", "sessions/s2", a), 0.9, "no management")
	d := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Building OSS communities", Weight: 2}, {Text: "Open source software for schools. More open source software. Even more open source software.", Weight: 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{Text: "An open source spectrometer", Weight: 2}, {Text: "Build an open source spectrometer with a webcam.", Weight: 1}}},
	})
	assert.Equal(t, "", d.Abbreviation("open source spectrometer"), "OSS is open source software here")
	assert.Equal(t, "oss", d.Abbreviation("open source software"))
}

// An acronym's 2 and 4 stand for "to" and "for", and its X for a word
// beginning with cross, trans or ex, as acronyms are written; other
// numerals stand for letters left out and spell nothing.
func TestAcronymsReadNumeralsAndX(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "End-to-end encryption for email", Weight: 2}, {Text: "Tools for end-to-end encryption of messages.", Weight: 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{Text: "Web security basics", Weight: 2}, {Text: "A demo on injection and cross site scripting. Why cross site scripting survives frameworks.", Weight: 1}}},
		{Key: "sessions/s3", Group: "sessions", Fields: []Field{{Text: "Designing the user experience", Weight: 2}, {Text: "Research methods for user experience teams. We ship GDPR tools.", Weight: 1}}},
		{Key: "sessions/s4", Group: "sessions", Fields: []Field{{Text: "Kubernetes in production", Weight: 2}, {Text: "Running Kubernetes clusters at scale.", Weight: 1}}},
	})
	assert.Equal(t, []string{"end to end encryption"}, c.Expansions("E2EE"))
	assert.Equal(t, []string{"cross site scripting"}, c.Expansions("XSS"))
	assert.Equal(t, []string{"user experience"}, c.Expansions("UX"))
	assert.Empty(t, c.Expansions("E4EE"), "the 4 is \"for\", not \"to\"")
	assert.Empty(t, c.Expansions("k8s"), "k8s: the 8 is letters left out")
	d := Build([]Doc{{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "XSS in single-page apps", Weight: 2}, {Text: "How XSS still gets through.", Weight: 1}}}})
	assert.Equal(t, "xss", d.Abbreviation("cross site scripting"))
	e := Build([]Doc{{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Expert roundtable on XR", Weight: 2}, {Text: "An expert roundtable for operators.", Weight: 1}}}})
	assert.Empty(t, e.Expansions("XR"), "an acronym's first X is no ex- word")
}

// "From" gives an acronym no letter either, and an acronym typed with two
// neighbouring letters swapped still reads as the one the programme spells
// out.
func TestAcronymsSkipFromAndSurviveASwap(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Reinforcement learning from human feedback in practice", Weight: 2}, {Text: "Reward models for reinforcement learning from human feedback.", Weight: 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{Text: "Lift modernisation", Weight: 2}, {Text: "Replacing controllers in ageing lifts.", Weight: 1}}},
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
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Sepsis alerts in the ICU", Weight: 2}, {Text: "How our ICU nurses triage alerts.", Weight: 1}}},
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

// Feedback words are what the matching documents are about: not the first
// name of the speaker they share, nor the year both mention.
func TestRelatedWordsLeaveOutNamesAndNumbers(t *testing.T) {
	doc := func(key, title, body, names string) Doc {
		return Doc{Key: key, Group: "sessions", Fields: []Field{{Text: title, Weight: 2}, {Text: body, Weight: 1}, {Text: names, Weight: 1, Name: true}}}
	}
	docs := []Doc{
		doc("sessions/a", "Soil moisture in 2027", "Drip irrigation scheduled from soil moisture probes.", "Zoya Khan"),
		doc("sessions/b", "Moisture sensing for orchards", "Irrigation decisions for 2027 orchards.", "Zoya Ahmed"),
	}
	for i, topic := range []string{"Ledger audits", "Cargo cranes", "Bridge paint", "Tunnel lighting", "Rail sleepers", "Harbour tugs", "Roof tiles", "Glass kilns"} {
		docs = append(docs, doc(fmt.Sprintf("sessions/x%d", i), topic, topic+" explained.", "Sam Lee"))
	}
	c := Build(docs)
	got := c.Related("sessions", c.Analyze("soil moisture"), 2)
	assert.Contains(t, got, "irrigation")
	assert.NotContains(t, got, "zoya", "a speaker's first name is no topic")
	assert.NotContains(t, got, "2027", "a year is no topic")
}

// A short word is not read as the initials of a speaker's name.
func TestExpansionsAreNoPeoplesNames(t *testing.T) {
	docs := []Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Crisis communication for brands", Weight: 2}, {Text: "Press relations (PR) when a product is recalled.", Weight: 1}, {Text: "Priya Raghunathan", Weight: 1, Name: true}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Media training", Weight: 2}, {Text: "Facing cameras.", Weight: 1}, {Text: "Priya Raghunathan, Paul Rees", Weight: 1, Name: true}}},
		{Key: "speakers/p1", Group: "speakers", Fields: []Field{{Text: "Priya Raghunathan", Weight: 2}, {Text: "Priya Raghunathan leads Priya Raghunathan Partners.", Weight: 1}}},
	}
	c := Build(docs)
	got := c.Expansions("pr")
	assert.NotContains(t, got, "priya raghunathan")
	assert.NotContains(t, got, "Priya Raghunathan")
}

// An expansion of three words or more counts in a document that lacks only
// its least telling word ("money laundering" for anti-money laundering);
// a shorter one needs every word.
func TestALongExpansionCountsWithoutItsCommonestWord(t *testing.T) {
	docs := []Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Graph features against money laundering", Weight: 2}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Anti-fraud models for money transfers", Weight: 2}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{Text: "Data lakes and their anti-patterns", Weight: 2}}},
		{Key: "sessions/d", Group: "sessions", Fields: []Field{{Text: "Anti-spam filters", Weight: 2}}},
	}
	c := Build(docs)
	a := c.Analyze("aml")
	a.Explain(0, "anti-money laundering")
	assert.Equal(t, 1.0, c.Coverage("sessions", "sessions/a", a), "lacks only anti, the commonest of the three here")
	assert.Equal(t, 0.0, c.Coverage("sessions", "sessions/b", a), "lacks laundering, a telling word")
	d := c.Analyze("dp")
	d.Explain(0, "data protection")
	assert.Equal(t, 0.0, c.Coverage("sessions", "sessions/c", d), "a two-word expansion needs both")
}

// Indefinite words are how a question asks, not what it asks about: "is
// it covered anywhere?" names no thing the programme lacks.
func TestIndefiniteWordsAreNoTopic(t *testing.T) {
	c := corpus()
	for _, q := range []string{"vector databases covered anywhere?", "is nobody doing vector databases?", "vector databases, or everything else"} {
		for _, k := range c.Analyze(q).Unknown() {
			assert.NotContains(t, []string{"anywhere", "nobody", "everything", "else"}, k.Word, q)
		}
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
		// A language's most frequent words count even beside many words the
		// conference uses.
		"Welke workshops gaan over vector databases, Postgres of SBOM?": "nl",
		"Workshops von Postgres oder vector databases?":                 "de",
		"Is there a talk on Los Angeles and La Jolla?":                  English,
		"Is there a talk on La Liga analytics?":                         English,
		"":                                                              English,
		// A greeting or thanks is filler in any language; a word or two is
		// English (product names, people, jargon) unless a letter English
		// lacks says otherwise; another script always is another language.
		"Bonjour":                English,
		"Danke schön":            English,
		"Vorträge Datenschutz?":  "de",
		"Kubernetes autoscaling": English,
		"opentelemetry":          English,
		"kicad":                  English,
		"Yusuf Demir":            English,
		"Flink checkpointing":    English,
		// Numbers and acronyms tell no language apart.
		"TPU vs NPU?":    English,
		"GPU, TPU, NPU?": English,
		"GIBT ES VORTRÄGE ÜBER KÜNSTLICHE INTELLIGENZ?": "de", // shouted, not abbreviated
		"WO IST DER KAFFEE?":                      "de", // short shouted function words too
		"QUÉ HAY DE RAG?":                         "es",
		"from 14:00 to 16:00 tomorrow":            English,
		"Was gibt es morgen von 14:00 bis 16:00?": "de",
		// A language's most frequent words count, even where other
		// languages share them ("la", "de", "con"), and only Spanish opens
		// a question with "¿".
		"¿Qué charlas tratan la seguridad de la red?":       "es",
		"Busco expositores con soluciones para hospitales.": "es",
		"¿Robótica?": "es",
		"Je cherche des ateliers sur la sécurité et la vie privée": "fr",
	} {
		assert.Equal(t, want, Language(text, c), "Language(%q)", text)
	}
	assert.NotEqual(t, English, Language("Здравствуйте", c), "another script, however short")
	assert.NotEqual(t, English, Language("Telemedizin Intensivstation Vorträge", c), "keywords with letters English lacks")
	// Keywords a typo away from the conference's words are English, where
	// keywords it has no near word for are weighed by their letters.
	typos := Build([]Doc{{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Ransomware tabletop exercise for hospital incident teams", Weight: 2}}}})
	for _, text := range []string{"ransomeware tabletop exercize", "ransomwre tabeltop excercise"} {
		assert.NotEqual(t, English, Language(text, nil), "Language(%q) knowing no conference", text)
		assert.Equal(t, English, Language(text, typos), "Language(%q) knowing the conference", text)
	}
	assert.Equal(t, "German", LanguageName("de"), "LanguageName(de)")
	assert.True(t, OtherLanguageWord("es"), "es")
	assert.False(t, OtherLanguageWord("ES"), "ES, in capitals, may be an acronym")
	assert.False(t, OtherLanguageWord("sbom"), "sbom")
}

func TestWordsWrittenTogetherOrApartMatch(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Centralized logs with Elasticsearch", Weight: 2}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "MySQL tuning", Weight: 2}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{Text: "Why open source wins", Weight: 2}}},
		{Key: "sessions/d", Group: "sessions", Fields: []Field{{Text: "Search engines at home", Weight: 2}}},
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
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Source code analysis", Weight: 2}, {Text: "We use deeplearning on code.", Weight: 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Deep learning workshop", Weight: 2}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{Text: "Learning to cook", Weight: 2}}},
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
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Open source machine learning", Weight: 2}, {Text: "Open source machine learning for all.", Weight: 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "State of OpenStreetMap data", Weight: 2}, {Text: "OpenStreetMap in Asia.", Weight: 1}}},
	})
	assert.Equal(t, []string{"openstreetmap"}, c.Expansions("osm"), "osm, want openstreetmap (open source machine is always followed by learning)")
}

// A sentence copied into another entry (a talk's title in its speaker's
// list of talks) is one occurrence: its phrase is not an expansion on that
// alone, while a phrase two different sentences use is.
func TestCopiedSentencesCountOnceForAcronyms(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "JSON support in MySQL", Weight: 2}}},
		{Key: "speakers/p", Group: "speakers", Fields: []Field{{Text: "Evgeny", Weight: 2}, {Text: "JSON support in MySQL. Query tuning", Weight: 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Secure messaging", Weight: 2}, {Text: "We show secure messaging for teams.", Weight: 1}}},
	})
	assert.Empty(t, c.Expansions("sim"), "one sentence, copied, is a coincidence")
	assert.Equal(t, []string{"secure messaging"}, c.Expansions("sm"))
}

// Two content words and a connector's letter spell three letters by
// chance; with three content letters the connector may give the fourth.
func TestALentLetterNeedsThreeOthers(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Security and privacy for apps", Weight: 2}, {Text: "Security and privacy, by design.", Weight: 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Software bill of materials", Weight: 2}, {Text: "Why a software bill of materials matters.", Weight: 1}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{Text: "Supply and demand planning", Weight: 2}, {Text: "Supply and demand planning at scale.", Weight: 1}}},
	})
	assert.Empty(t, c.Expansions("sap"), "sap: security and privacy is a coincidence")
	assert.Equal(t, []string{"software bill of materials"}, c.Expansions("sbom"), "sbom")
	assert.Equal(t, []string{"supply and demand planning"}, c.Expansions("sdp"), "sdp: the connector lends nothing")
}

func TestBritishAndAmericanSpellingsMatch(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Open hardware licenses", Weight: 2}, {Text: "Choosing a license for your board designs.", Weight: 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{Text: "Colour in data visualisation", Weight: 2}, {Text: "Palettes for the colour blind.", Weight: 1}}},
		{Key: "sessions/s3", Group: "sessions", Fields: []Field{{Text: "Community centre software", Weight: 2}, {Text: "Running the organisation of a makerspace.", Weight: 1}}},
		{Key: "sessions/s4", Group: "sessions", Fields: []Field{{Text: "A parts catalogue", Weight: 2}, {Text: "Modelling the defence of a network.", Weight: 1}}},
		{Key: "sessions/s5", Group: "sessions", Fields: []Field{{Text: "Paediatric anaesthesia", Weight: 2}, {Text: "Fibre optic monitors.", Weight: 1}}},
		{Key: "sessions/s6", Group: "sessions", Fields: []Field{{Text: "Horse behavior", Weight: 2}, {Text: "Foal care.", Weight: 1}}},
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
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Imaging AI in mammography", Weight: 2}, {Text: "A second reader for screening.", Weight: 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{Text: "Clinical documentation", Weight: 2}, {Text: "Writing notes faster.", Weight: 1}}},
		{Key: "sessions/s3", Group: "sessions", Fields: []Field{{Text: "Hospital architecture", Weight: 2}, {Text: "Designing wards for technology.", Weight: 1}}},
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
// clips, when one word is clearly the likeliest; three letters only as the
// start of a word.
func TestClippedWordsAreReadAsTheirWord(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "WebAssembly in the browser", Weight: 2}, {Text: "Compiling Rust to WebAssembly.", Weight: 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Configuration management", Weight: 2}, {Text: "Management of fleets.", Weight: 1}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{Text: "Performance tuning", Weight: 2}, {Text: "Profile your pipelines.", Weight: 1}}},
		{Key: "sessions/d", Group: "sessions", Fields: []Field{{Text: "Lyophilisation cycles", Weight: 2}, {Text: "Scaling lyophilisation up.", Weight: 1}}},
	})
	assert.Equal(t, []string{"webassembly"}, c.Expansions("wasm"), "wasm")
	assert.Equal(t, []string{"lyophilisation"}, c.Expansions("lyo"), "lyo: three letters, from the start of one word")
	assert.Equal(t, []string{"management"}, c.Expansions("mgmt"), "mgmt")
	assert.Empty(t, c.Expansions("prf"), "prf: performance and profile fit alike")
	assert.Empty(t, c.Expansions("sauna"), "an English word is not a clipping")
	assert.Empty(t, c.Expansions("cfg"), "three letters clip a word only from its start")
	assert.Empty(t, c.Expansions("cmpl"), "compiling, used once, is a coincidence")
	assert.Empty(t, c.Expansions("rust"), "a word the conference uses is not a clipping")
}

// A phrase found once is what an acronym stands for when it is the only
// one and a phrase with those initials is unlikely to occur by chance in
// the corpus; not when another phrase spells the same letters, nor when
// the corpus's words start with those letters so often that one would.
func TestAPhraseFoundOnceExpandsARareAcronym(t *testing.T) {
	programme := []Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Medication safety", Weight: 2}, {Text: "How computerized provider order entry, the pharmacy and the pumps work together.", Weight: 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Nurse staffing", Weight: 2}, {Text: "Rosters, overtime and retention on busy wards.", Weight: 1}}},
	}
	assert.Equal(t, []string{"computerized provider order entry"}, Build(programme).Expansions("CPOE"), "cpoe")

	other := append(slices.Clone(programme), Doc{Key: "sessions/c", Group: "sessions", Fields: []Field{{Text: "Care pathways", Weight: 2}, {Text: "Clinical pathways oversee everything.", Weight: 1}}})
	assert.Empty(t, Build(other).Expansions("CPOE"), "two phrases spell cpoe once each")

	// Words starting with d, a and c everywhere, in another order: a
	// phrase spelling DAC is expected here by chance.
	crowded := []Doc{{Key: "sessions/d", Group: "sessions", Fields: []Field{{Text: "Carbon removal", Weight: 2}, {Text: "We compare direct air capture with soil carbon.", Weight: 1}}}}
	for i := range 20 {
		text := fmt.Sprintf("Cats%d dogs%d ants%d.", i, i, i)
		crowded = append(crowded, Doc{Key: fmt.Sprintf("sessions/x%d", i), Group: "sessions", Fields: []Field{{Text: text, Weight: 1}}})
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
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Patient portals that meet WCAG 2.2", Weight: 2}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "ICU staffing and CUI markings", Weight: 2}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{Text: "Running a TAC for audits", Weight: 2}}},
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
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Public apis for patients", Weight: 2}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Pressure injuries caught early", Weight: 2}}},
	})
	assert.Empty(t, c.Analyze("who catches HAPIs earlier?").Fixed(), "HAPIs")
	fixed := c.Analyze("public hapis").Fixed()
	require.Len(t, fixed, 1, "hapis in lower case")
	assert.Equal(t, "apis", fixed[0].Fix, "hapis in lower case")
}

// A word the conference has only in people's names is no topic word of a
// question ("parking" is not Jason Park), unless the question writes it as
// a name ("Is Park speaking?").
func TestAWordOnlyInNamesIsNoTopic(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Reinsurance renewals", Weight: 2}, {Text: "Jason Park", Weight: 1, Name: true}}},
		{Key: "speakers/p1", Group: "speakers", Fields: []Field{{Text: "Jason Park", Weight: 2, Name: true}, {Text: "Jason leads treaty reinsurance.", Weight: 1}}},
	})
	for _, k := range c.Analyze("where do I get my parking validated?").Concepts {
		assert.False(t, k.Known(), "%q is known", k.Word)
	}
	a := c.Analyze("Is Park speaking about reinsurance?")
	require.NotEmpty(t, a.Concepts)
	assert.True(t, a.Concepts[0].Known(), "%+v", a.Concepts)
	assert.Positive(t, c.Coverage("speakers", "speakers/p1", c.Analyze("Park")))
	assert.Zero(t, c.Coverage("speakers", "speakers/p1", c.Analyze("parking")))
}

// A word the programme writes with a hyphen matches when a question writes
// it whole: "wifi" for "Wi-Fi", "ebook" for "e-book".
func TestAHyphenatedWordWrittenWholeMatches(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/a", Group: "sessions", Fields: []Field{{Text: "Registration", Weight: 2}, {Text: "Wi-Fi: the password is on your badge.", Weight: 1}}},
		{Key: "sessions/b", Group: "sessions", Fields: []Field{{Text: "Fair e-book licensing", Weight: 2}}},
		{Key: "sessions/c", Group: "sessions", Fields: []Field{{Text: "Book clubs", Weight: 2}}},
	})
	for q, want := range map[string]string{"wifi": "sessions/a", "ebook licensing": "sessions/b"} {
		got := c.Rank("sessions", c.Analyze(q), nil)
		require.NotEmpty(t, got, "%q ranks nothing", q)
		assert.Equal(t, want, got[0].Key, "%q ranks %+v", q, got)
		assert.Equal(t, 1.0, got[0].Coverage, "%q ranks %+v", q, got)
	}
	form, ok := c.Hyphenated("WiFi")
	assert.True(t, ok)
	assert.Equal(t, "wi-fi", form, "how a rewrite writes it")
	_, ok = c.Hyphenated("book")
	assert.False(t, ok, "a word the programme writes whole")
}

// Function words spell no acronym ("or at" is no OA), and a swap of two
// letters is an acronym's typo only when it is typed as one ("cert" is no
// ECRT, though the programme spells out egg count reduction tests).
func TestNoAcronymFromFunctionWordsOrALowerCaseSwap(t *testing.T) {
	c := Build([]Doc{
		{Key: "sessions/s1", Group: "sessions", Fields: []Field{{Text: "Hands-on ultrasound", Weight: 2}, {Text: "Pre-book in the app or at the registration desk. Bring a scanner or at least a probe.", Weight: 1}}},
		{Key: "sessions/s2", Group: "sessions", Fields: []Field{{Text: "Worming horses", Weight: 2}, {Text: "Targeted worming with faecal egg counts and egg count reduction tests.", Weight: 1}}},
		{Key: "sessions/s3", Group: "sessions", Fields: []Field{{Text: "Suturing", Weight: 2}, {Text: "Book in the app or at the desk.", Weight: 1}}},
	})
	assert.Empty(t, c.Expansions("OA"), "OA")
	assert.Empty(t, c.Expansions("cert"), "cert")
	assert.Equal(t, []string{"egg count reduction tests"}, c.Expansions("ECRT"), "ECRT")
}
