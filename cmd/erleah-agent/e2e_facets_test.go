package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/catalog"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
)

// ownFacetQuery is a question only own facets can answer: its word appears
// in the bundle nowhere but in the own facets named by want, which maps each
// id (without the run's prefix) the question must find to the facet key
// holding the word (the test checks the fixture).
type ownFacetQuery struct {
	table search.Table
	text  string
	want  map[string]string
}

var ownFacetQueries = []ownFacetQuery{
	{search.Sessions, "Quillowmere", map[string]string{"s1": "theme"}},
	{search.Sessions, "Brambleton", map[string]string{"s1": "talks_about", "s2": "theme"}}, // the second text of s1's list
	{search.Sessions, "Vantorrak", map[string]string{"s2": "theme"}},
	{search.Sessions, "Zephyrine", map[string]string{"s2": "audience_level"}},
	{search.Exhibitors, "Pellinore", map[string]string{"e1": "theme"}},
	{search.Exhibitors, "Marrowgate", map[string]string{"e1": "talks_about", "e2": "stand_perks"}}, // the second text of e1's list
	{search.Exhibitors, "Tumbleweave", map[string]string{"e2": "stand_perks"}},
	{search.Speakers, "Kestrelhurst", map[string]string{"p1": "talks_about", "p2": "theme"}}, // the second text of p1's list
	{search.Speakers, "Ulvenmark", map[string]string{"p1": "hometown"}},
	{search.Speakers, "Sorrelwick", map[string]string{"p2": "theme"}},
}

// The summary line's own keys for ownFacetsBundle: theme on s1, s2, e1 and
// p2; talks_about on s1, e1 and p1.
const ownKeysSummary = "; own keys indexed with the default weight: audience_level (1), hometown (1), stand_perks (1), talks_about (3), theme (4)"

// ownFacetsBundle is a conference whose entities carry facet keys the
// schema does not know, some as lists of texts, and one session without
// facets. Ids are prefixed with the run's own prefix (they are Directus
// primary keys, shared with every other test) and sort in file order, as
// the catalog reads them.
func ownFacetsBundle(conf, p string) string {
	b := map[string]any{
		"conferences": []any{map[string]any{"id": conf, "name": "Own Facets Test Days", "timezone": "Europe/Paris",
			"venue": "Old Mill, Lyon", "starts_on": "2026-09-14", "ends_on": "2026-09-15"}},
		"sessions": []any{
			map[string]any{"id": p + "s1", "conference_id": conf, "title": "Soil sensors for small vineyards",
				"description": "How cheap probes report soil moisture to growers.", "track": "Agritech", "format": "talk",
				"starts_at": "2026-09-14T09:00:00+02:00", "ends_at": "2026-09-14T09:45:00+02:00", "room": "Hall 1",
				"speaker_ids": []string{p + "p1"}, "facets": map[string]any{
					"theme":         "Quillowmere terraces and their water",
					"talks_about":   []string{"drip lines on steep slopes", "Brambleton growers pooling harvest data"},
					"session_topic": "Soil moisture sensing for vineyards"}},
			map[string]any{"id": p + "s2", "conference_id": conf, "title": "Drones over orchards",
				"description": "Flying cameras count blossoms and spot disease early.", "track": "Agritech", "format": "workshop",
				"starts_at": "2026-09-14T11:00:00+02:00", "ends_at": "2026-09-14T12:30:00+02:00", "room": "Hall 2",
				"speaker_ids": []string{p + "p2"}, "facets": map[string]any{
					"theme":          "Vantorrak meltwater farming with Brambleton growers",
					"audience_level": "Zephyrine beginners welcome, no licence needed"}},
			map[string]any{"id": p + "s3", "conference_id": conf, "title": "Closing panel on rural broadband",
				"description": "Why connectivity decides which farms adopt sensors.", "format": "panel",
				"starts_at": "2026-09-15T16:00:00+02:00", "ends_at": "2026-09-15T17:00:00+02:00", "room": "Hall 1"},
		},
		"exhibitors": []any{
			map[string]any{"id": p + "e1", "conference_id": conf, "name": "Fieldbyte", "description": "Weather stations for farms.",
				"booth": "A-01", "website": "https://fieldbyte.example", "facets": map[string]any{
					"theme":       "Orchards of the Pellinore valley",
					"talks_about": []string{"irrigation controllers", "Marrowgate frost alarms for growers"}}},
			map[string]any{"id": p + "e2", "conference_id": conf, "name": "Hivelink", "description": "Scales that weigh beehives remotely.",
				"booth": "B-07", "facets": map[string]any{"stand_perks": "Tumbleweave honey tasting with Marrowgate mead at the stand"}},
		},
		"speakers": []any{
			map[string]any{"id": p + "p1", "conference_id": conf, "name": "Ada Ferrant", "job_title": "Agronomist", "company": "Terroir Labs",
				"bio": "Ada measures soil for a living.", "session_ids": []string{p + "s1"}, "facets": map[string]any{
					"talks_about": []string{"cover crops", "Kestrelhurst seed banks and heirloom grains"},
					"hometown":    "Grew up in Ulvenmark by the fjord"}},
			map[string]any{"id": p + "p2", "conference_id": conf, "name": "Ben Osei", "job_title": "Drone pilot", "company": "SkyRows",
				"bio": "Ben flies survey drones over fruit farms.", "session_ids": []string{p + "s2"}, "facets": map[string]any{
					"theme": "Sorrelwick beekeeping circles near Kestrelhurst"}},
		},
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		panic(err) // literal maps of texts always encode
	}
	return string(data)
}

// recordingIndex is the catalog's index: it loads a real engine and keeps
// the bundle the catalog read from Directus and the report of its load.
type recordingIndex struct {
	*search.Engine
	bundles []*conference.Bundle
	reports []search.LoadReport
}

func (r *recordingIndex) Load(ctx context.Context, b *conference.Bundle) (search.LoadReport, error) {
	rep, err := r.Engine.Load(ctx, b)
	r.bundles, r.reports = append(r.bundles, b), append(r.reports, rep)
	return rep, err
}

// TestE2EOwnFacetKeysIndexTheSameFromDirectus: a bundle whose entities
// carry facet keys of their own (some as lists of texts) is indexed the
// same from the file and after `directus import` from Directus, read back
// by the catalog with the agent's token: the same documents, the same
// answers to questions only those facets can answer, and a load summary
// naming the own keys.
func TestE2EOwnFacetKeysIndexTheSameFromDirectus(t *testing.T) {
	d := needDirectus(t)
	ctx := context.Background()
	run := time.Now().UnixNano()
	conf, prefix := fmt.Sprintf("e2e-own-facets-%d", run), fmt.Sprintf("ofk%d-", run)
	body := ownFacetsBundle(conf, prefix)
	path := writeFile(t, "own-facets.json", body)
	fileBundle, err := conference.LoadFile(path)
	require.NoError(t, err, "the bundle file does not load")
	checkOwnFacetQueries(t, body, prefix, search.Documents(fileBundle))

	t.Cleanup(func() { deleteConference(d, fileBundle) })
	importOwnFacets(t, d, path)
	fromDirectus, catalogBundle, catalogRep, logged := loadThroughCatalog(t, d, conf)
	fromFile := hashEngine(t)
	fileRep, err := fromFile.Load(ctx, fileBundle)
	require.NoError(t, err)

	t.Run("documents", func(t *testing.T) {
		compareDocuments(t, search.Documents(fileBundle), search.Documents(catalogBundle))
	})
	t.Run("search", func(t *testing.T) {
		compareSearches(t, conf, prefix, fromFile, fromDirectus)
	})
	t.Run("summary", func(t *testing.T) {
		fileLine, catalogLine := summaryOf(t, fileRep, conf), summaryOf(t, catalogRep, conf)
		t.Logf("from the file:     %s", fileLine)
		t.Logf("from Directus:     %s", catalogLine)
		assert.True(t, strings.HasSuffix(fileLine, ownKeysSummary), "the file's summary does not end with %q:\n%s", ownKeysSummary, fileLine)
		assert.Equal(t, fileLine, catalogLine, "summaries differ (expected: the file's, actual: Directus's)")
		assert.Contains(t, logged, catalogLine, "the catalog did not log its summary line")
	})
}

// checkOwnFacetQueries keeps the fixture honest: each query's word is in
// the given own facet of every entity it must find, and appears in the
// bundle file only that many times, so nothing else can answer it.
func checkOwnFacetQueries(t *testing.T, body, prefix string, docs []search.Document) {
	t.Helper()
	facet := map[[2]string]search.FacetText{}
	for _, d := range docs {
		for _, f := range d.Facets {
			facet[[2]string{strings.TrimPrefix(d.ID, prefix), f.Key}] = f
		}
	}
	for _, q := range ownFacetQueries {
		n := strings.Count(strings.ToLower(body), strings.ToLower(q.text))
		require.Equal(t, len(q.want), n, "fixture: times %q appears in the bundle (once in each of %v)", q.text, q.want)
		for id, key := range q.want {
			f := facet[[2]string{id, key}]
			const own = "fixture: %s has no own facet %s given with %q: %+v"
			require.False(t, f.Derived, own, id, key, q.text, f)
			require.False(t, search.KnownFacet(q.table, key), own, id, key, q.text, f)
			require.Contains(t, f.Text, q.text, own, id, key, q.text, f)
		}
	}
	f := facet[[2]string{"s1", "talks_about"}]
	require.Equal(t, "drip lines on steep slopes; Brambleton growers pooling harvest data", f.Text, `a list of texts is not one facet of texts joined with "; ": %+v`, f)
}

// importOwnFacets writes the bundle into Directus as a user does, and
// checks that a second import changes nothing.
func importOwnFacets(t *testing.T, d *realDirectus, path string) {
	t.Helper()
	env := map[string]string{"DIRECTUS_URL": d.url, "DIRECTUS_TOKEN": d.adminToken}
	code, out, errOut := cli(t, env, "directus", "import", "--data", path)
	for _, want := range []string{"conferences  created 1,", "sessions     created 3,", "exhibitors   created 2,", "speakers     created 2,"} {
		require.Zero(t, code, "import: exit code\n%s%s", out, errOut)
		require.Contains(t, out, want, "import; stderr %s", errOut)
	}
	code, out, errOut = cli(t, env, "directus", "import", "--data", path)
	assert.Zero(t, code, "importing the same bundle again: exit code\n%s%s", out, errOut)
	assert.Contains(t, out, "nothing changed", "importing the same bundle again changed something; stderr %s", errOut)
}

// loadThroughCatalog reads the conference from Directus with the agent's
// own token into a fresh engine, as serve does, and returns the engine, the
// bundle the catalog read, the report of its load and what it logged.
func loadThroughCatalog(t *testing.T, d *realDirectus, conf string) (*search.Engine, *conference.Bundle, search.LoadReport, string) {
	t.Helper()
	eng := hashEngine(t)
	c := d.agent
	var log bytes.Buffer
	idx := &recordingIndex{Engine: eng}
	require.NoError(t, catalog.New(c, idx, slog.New(slog.NewTextHandler(&log, nil))).Sync(context.Background(), conf), "catalog sync")
	require.Len(t, idx.bundles, 1, "the catalog loaded bundles, want 1; it logged:\n%s", log.String())
	assert.NotContains(t, log.String(), "level=WARN", "the catalog warned while reading the conference")
	return eng, idx.bundles[0], idx.reports[0], log.String()
}

// hashEngine is an empty engine wired as serve wires it, with the offline
// hash embedder.
func hashEngine(t *testing.T) *search.Engine {
	t.Helper()
	cfg, err := loadConfig(map[string]string{"EMBEDDER": "hash", "STATE_DIR": t.TempDir()})
	require.NoError(t, err)
	eng, err := newIndex(context.Background(), cfg)
	require.NoError(t, err)
	return eng
}

// docView is what a document says, with times as instants: Directus
// returns timestamps in UTC, the file in the conference's offset.
type docView struct {
	Title, Details, Summary, MasterText string
	Fields                              string
	Starts, Ends                        string
	Room, Track, Format                 string
}

func viewOf(d search.Document) docView {
	v := docView{Title: d.Title, Details: d.Details, Summary: d.Summary, MasterText: d.MasterText, Fields: fmt.Sprintf("%+v", d.Fields)}
	if s := d.Session; s != nil {
		v.Starts, v.Ends = s.Starts.UTC().Format(time.RFC3339), s.Ends.UTC().Format(time.RFC3339)
		v.Room, v.Track, v.Format = s.Room, s.Track, s.Format
	}
	return v
}

// compareDocuments checks that every entity has the same facets (keys,
// texts, given or derived, in order) and the same other texts both ways.
func compareDocuments(t *testing.T, fromFile, fromDirectus []search.Document) {
	t.Helper()
	byRef := map[search.Ref]search.Document{}
	for _, doc := range fromDirectus {
		byRef[doc.Ref] = doc
	}
	assert.Equal(t, len(fromFile), len(fromDirectus), "documents from the file (expected) and from Directus (actual)")
	own := 0
	for _, f := range fromFile {
		g, ok := byRef[f.Ref]
		if !assert.True(t, ok, "%s: not read back from Directus", f.Key()) {
			continue
		}
		assert.Equal(t, f.Facets, g.Facets, "%s: facets differ (expected: the file's, actual: Directus's)", f.Key())
		assert.Equal(t, viewOf(f), viewOf(g), "%s: document differs (expected: the file's, actual: Directus's)", f.Key())
		for _, x := range f.Facets {
			if !search.KnownFacet(f.Table, x.Key) {
				own++
			}
		}
	}
	assert.Equal(t, 10, own, "fixture: own facets in the file's documents") // theme ×4, talks_about ×3, audience_level, stand_perks, hometown
}

// compareSearches asks each own-facet question of both engines in faceted
// mode: the file's engine must find exactly the entities holding the words,
// each matched on its own facet, and the Directus engine must return the
// same ids in the same order with the same scores and matched facets.
func compareSearches(t *testing.T, conf, prefix string, fromFile, fromDirectus *search.Engine) {
	t.Helper()
	ctx := context.Background()
	for _, q := range ownFacetQueries {
		query := search.Query{Table: q.table, Mode: search.Faceted, Text: q.text}
		want, err := fromFile.Search(ctx, conf, query)
		require.NoError(t, err, "%s %q from the file", q.table, q.text)
		got, err := fromDirectus.Search(ctx, conf, query)
		require.NoError(t, err, "%s %q from Directus", q.table, q.text)
		t.Logf("%-10s %-24q file %s | Directus %s", q.table, q.text, ranking(want), ranking(got))
		assert.True(t, foundOnOwnFacets(want, prefix, q.want), "%s %q from the file: %s; want exactly %v, each matched on that facet", q.table, q.text, ranking(want), q.want)
		assert.True(t, sameRanking(want, got), "%s %q: the engines disagree\nfile:     %s\nDirectus: %s", q.table, q.text, ranking(want), ranking(got))
	}
}

// foundOnOwnFacets reports whether rs are exactly the entities of want,
// each with its facet among the matched ones.
func foundOnOwnFacets(rs []search.Result, prefix string, want map[string]string) bool {
	if len(rs) != len(want) {
		return false
	}
	for _, r := range rs {
		key, ok := want[strings.TrimPrefix(r.ID, prefix)]
		if !ok || !slices.ContainsFunc(r.Matched, func(m search.FacetMatch) bool { return m.Key == key }) {
			return false
		}
	}
	return true
}

func sameRanking(a, b []search.Result) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Ref != b[i].Ref || math.Abs(float64(a[i].Score-b[i].Score)) > 1e-6 || matchedKeys(a[i]) != matchedKeys(b[i]) {
			return false
		}
	}
	return true
}

func matchedKeys(r search.Result) string {
	keys := make([]string, len(r.Matched))
	for i, m := range r.Matched {
		keys[i] = m.Key
	}
	return strings.Join(keys, ",")
}

func ranking(rs []search.Result) string {
	if len(rs) == 0 {
		return "[nothing]"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s %.6f (%s)", r.ID, r.Score, matchedKeys(r))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// summaryOf is the report line of conference conf.
func summaryOf(t *testing.T, rep search.LoadReport, conf string) string {
	t.Helper()
	for _, c := range rep.Conferences {
		if c.ID == conf {
			return c.String()
		}
	}
	require.Failf(t, "no report", "no report for %s in %+v", conf, rep)
	return ""
}

// deleteConference removes what the test imported, entities first.
func deleteConference(d *realDirectus, b *conference.Bundle) {
	ids := map[search.Table][]string{}
	for _, doc := range search.Documents(b) {
		ids[doc.Table] = append(ids[doc.Table], doc.ID)
	}
	for _, t := range search.Tables {
		d.admin.DeleteItems(context.Background(), string(t), ids[t])
	}
	d.admin.DeleteItems(context.Background(), "conferences", b.ConferenceIDs())
}
