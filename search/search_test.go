package search_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/hashembed"
	"github.com/erleah/erleah-agent/search/memsearch"
	"github.com/erleah/erleah-agent/search/searchtest"
	"github.com/erleah/erleah-agent/search/when"
)

func TestFacetSchemaIsOneVocabulary(t *testing.T) {
	want := map[search.Table]int{search.Sessions: 6, search.Exhibitors: 8, search.Speakers: 5}
	for tb, n := range want {
		defs := search.Facets(tb)
		assert.Len(t, defs, n, "%s facets", tb)
		var sum float32
		for _, d := range defs {
			assert.Greater(t, d.Weight, float32(0), "%s.%s: weight", tb, d.Key)
			assert.NotEmpty(t, d.Description, "%s.%s: description", tb, d.Key)
			sum += d.Weight
		}
		assert.Equal(t, sum, search.TotalWeight(tb), "TotalWeight(%s)", tb)
	}
	const extra = "a key outside the sessions schema is not weighed as an extra facet"
	assert.False(t, search.KnownFacet(search.Sessions, "selling_intent"), extra)
	assert.Equal(t, float32(search.DefaultFacetWeight), search.FacetWeight(search.Sessions, "talks_about"), extra)
}

// TestFacetScoreProperties checks what the one score scale promises: zero
// without a match, never above the best facet, equal to it when every facet
// matches as well, and never lower when one more facet matches.
func TestFacetScoreProperties(t *testing.T) {
	total := search.TotalWeight(search.Sessions)
	var weights []float32
	for _, d := range search.Facets(search.Sessions) {
		weights = append(weights, d.Weight)
	}
	assert.Equal(t, float32(0), search.FacetScore([]float32{0.05, 0.09}, weights[:2], total, 0.1), "no facet above the floor")
	even := []float32{0.6, 0.6, 0.6, 0.6, 0.6, 0.6}
	s := search.FacetScore(even, weights, total, 0.1)
	assert.GreaterOrEqual(t, s, float32(0.5999), "every facet at 0.6 scored %v, want 0.6", s)
	assert.LessOrEqual(t, s, float32(0.6001), "every facet at 0.6 scored %v, want 0.6", s)
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		n := 1 + r.IntN(6)
		sims := make([]float32, n)
		best := float32(0)
		for i := range sims {
			sims[i] = r.Float32()
			best = max(best, sims[i])
		}
		// require, not assert: one counterexample is enough, and 1000 rounds would repeat it.
		s := search.FacetScore(sims, weights[:n], total, 0.1)
		require.LessOrEqual(t, s, best+1e-6, "score %v for sims %v exceeds the best facet %v", s, sims, best)
		require.GreaterOrEqual(t, s, float32(0), "score %v for sims %v leaves 0..1", s, sims)
		require.LessOrEqual(t, s, float32(1), "score %v for sims %v leaves 0..1", s, sims)
		if n < 6 {
			more := search.FacetScore(append(slices.Clone(sims), r.Float32()), weights[:n+1], total, 0.1)
			require.GreaterOrEqual(t, more, s-1e-6, "another matching facet lowered the score: %v → %v", s, more)
		}
	}
}

const tiny = `{"conferences":[{"id":"c1","name":"One","timezone":"Europe/Paris"},{"id":"c2","name":"Two"}],
 "sessions":[
  {"id":"s1","conference_id":"c1","title":"Kubernetes for machine learning","format":"workshop","starts_at":"2026-05-12T09:00:00+02:00","ends_at":"2026-05-12T10:30:00+02:00","room":"Lab 1",
   "description":"Learn how to run training jobs on Kubernetes. Designed for platform engineers. We cover autoscaling problems and cost.","speaker_ids":["p1"],
   "facets":{"session_topic":"Running machine learning workloads on Kubernetes clusters","target_audience":"short"}},
  {"id":"s2","conference_id":"c1","title":"Lightning talks"},
  {"id":"s9","conference_id":"c2","title":"Kubernetes at a grid operator","description":"Kubernetes for energy."}],
 "exhibitors":[{"id":"e1","conference_id":"c1","name":"Harbourline Inference","description":"We offer model serving inside your data centre. Founded in Lyon.","booth":"A-01"}],
 "speakers":[{"id":"p1","conference_id":"c1","name":"Ada Lovelace","job_title":"Platform lead","company":"Acme","bio":"Ada helps teams scale clusters."}]}`

func tinyBundle(t *testing.T) *conference.Bundle {
	t.Helper()
	b, err := conference.Parse("tiny", []byte(tiny))
	require.NoError(t, err)
	return b
}

func TestDocumentsDeriveMissingFacets(t *testing.T) {
	docs := map[string]search.Document{}
	for _, d := range search.Documents(tinyBundle(t)) {
		docs[d.Key()] = d
	}
	s1 := docs["sessions/s1"]
	facets := map[string]search.FacetText{}
	for _, f := range s1.Facets {
		facets[f.Key] = f
	}
	given := facets["session_topic"]
	assert.False(t, given.Derived, "a given facet was not kept: %+v", given)
	assert.True(t, strings.HasPrefix(given.Text, "Running machine learning"), "a given facet was not kept: %+v", given)
	short := facets["target_audience"]
	assert.True(t, short.Derived, "a too-short facet was not derived from the description: %+v", short)
	assert.Contains(t, short.Text, "platform engineers", "a too-short facet was not derived from the description")
	assert.Contains(t, facets["problems_addressed"].Text, "autoscaling problems", "problems_addressed not derived")
	assert.Equal(t, "Workshop · Tue 12 May 09:00–10:30 · Lab 1 · with Ada Lovelace", s1.Details, "details")
	sparse := docs["sessions/s2"]
	assert.Len(t, sparse.Facets, 1, "a title-only session should have only its topic facet")
	assert.Less(t, len(sparse.Facets), len(s1.Facets), "a title-only session should have fewer facets than a described one")
	p1 := docs["speakers/p1"]
	var topics string
	for _, f := range p1.Facets {
		if f.Key == "speaking_topics" {
			topics = f.Text
		}
	}
	assert.Contains(t, topics, "Kubernetes for machine learning", "speaking_topics not derived from the speaker's sessions")
	e1 := docs["exhibitors/e1"]
	assert.Equal(t, "Booth A-01", e1.Details, "exhibitor document = %+v", e1)
	assert.Contains(t, e1.MasterText, "model serving", "exhibitor document = %+v", e1)

	own := search.Documents(&conference.Bundle{Exhibitors: []conference.Exhibitor{{ID: "e9", ConferenceID: "c1", Name: "PumpLink", Booth: "Booth 141"}}})
	require.Len(t, own, 1)
	assert.Equal(t, "Booth 141", own[0].Details, "a booth written with its word")
}

func TestLexicon(t *testing.T) {
	lex := search.NewLexicon(tinyBundle(t).Of("c1"))
	c := lex.Corpus()
	assert.True(t, c.Knows("Kubernetes"), "Knows: want kubernetes known")
	assert.False(t, c.Knows("k8s"), "Knows: want k8s unknown")
	assert.False(t, c.Knows("grid"), "Knows: want c2's words unknown in c1")
	a := lex.Analyze("kubrenetes")
	fixed := a.Fixed()
	require.Len(t, fixed, 1, "Analyze(kubrenetes) = %+v", a.Concepts)
	assert.Equal(t, "kubernetes", fixed[0].Fix, "Analyze(kubrenetes) = %+v", a.Concepts)
	cov := lex.Coverage("Kubernetes clusters and sauna")
	require.Len(t, cov, 3, "Coverage = %+v", cov)
	assert.Equal(t, 1, cov[0].DF[search.Sessions], "Coverage = %+v", cov)
	assert.GreaterOrEqual(t, cov[0].Total(), 2, "Coverage = %+v", cov)
	assert.Equal(t, 0, cov[2].Total(), "Coverage = %+v", cov)
	var got []string
	for _, m := range lex.Mentions("Where is the Harbourline booth? And Ada Lovelace?") {
		got = append(got, m.Ref.Key())
	}
	assert.Equal(t, []string{"exhibitors/e1", "speakers/p1"}, got, "Mentions")
}

// Support is high for a part of a question one entity covers and low for
// one that only tells a story in words the programme lacks or uses loosely.
func TestSupportSaysWhatTheProgrammeAnswers(t *testing.T) {
	b := &conference.Bundle{Sessions: []conference.Session{
		{ID: "s1", ConferenceID: "c1", Title: "Phishing drills for terminal staff", Description: "Running phishing simulations at container terminals."},
		{ID: "s2", ConferenceID: "c1", Title: "Quay crane automation", Description: "Remote operation of quay cranes at container terminals."},
		{ID: "s3", ConferenceID: "c1", Title: "Yard planning", Description: "Planning the container yard of a terminal."},
	}}
	lex := search.NewLexicon(b)
	asked := lex.Support("someone clicked a phishing link")
	story := lex.Support("three months ago a sister terminal had a scare")
	assert.Greater(t, lex.Support("phishing drills"), 0.9, "a need one talk holds whole")
	assert.Greater(t, asked, 3*story, "a need one talk covers (%.3f), a story the programme only touches (%.3f)", asked, story)
	assert.Zero(t, lex.Support("sauna"), "a word no entity holds")
}

// A session is named by its main title, the part before its subtitle,
// unless that is only a format or another session's main title too; a
// title of one English word is that word.
func TestMentionsByMainTitle(t *testing.T) {
	b := &conference.Bundle{Sessions: []conference.Session{
		{ID: "s1", ConferenceID: "c1", Title: "FHIR in Production: Lessons from 40 Million API Calls"},
		{ID: "s2", ConferenceID: "c1", Title: "Workshop: Designing Patient Portals"},
		{ID: "s3", ConferenceID: "c1", Title: "Lightning Talks – Data Quality"},
		{ID: "s4", ConferenceID: "c1", Title: "Lightning Talks – Privacy"},
		{ID: "s5", ConferenceID: "c1", Title: "Android Auto for your app - workshop 1hr"},
		{ID: "s6", ConferenceID: "c1", Title: "Breakfast"},
		{ID: "s7", ConferenceID: "c1", Title: "Kubernetes"},
	}}
	lex := search.NewLexicon(b)
	mentioned := mentionsIn(lex)
	assert.Equal(t, []string{"sessions/s1"}, mentioned("where is the FHIR in production session being held?"))
	assert.Equal(t, []string{"sessions/s5"}, mentioned("when is android auto for your app?"))
	assert.Empty(t, mentioned("any workshop on patient portals?"), "a format is no main title")
	assert.Empty(t, mentioned("when are the lightning talks?"), "two sessions share the main title")
	assert.Empty(t, mentioned("FHIR in practice"), "part of a main title")
	assert.Empty(t, mentioned("I've been stuck on our booth since breakfast"), "a one-word English title")
	assert.Equal(t, []string{"sessions/s7"}, mentioned("where is kubernetes?"), "a one-word title no English word")
}

// A speaker is named with one of their names misspelt by a slip, the
// others as written; two slips, or a slip into a word the programme
// uses, name nobody.
func TestMentionsASpeakerWithOneSlip(t *testing.T) {
	b := &conference.Bundle{
		Speakers: []conference.Speaker{{ID: "p1", ConferenceID: "c1", Name: "Sian Pritchard"}, {ID: "p2", ConferenceID: "c1", Name: "Tom Parker"}},
		Sessions: []conference.Session{{ID: "s1", ConferenceID: "c1", Title: "Parkes and gardens"}},
	}
	lex := search.NewLexicon(b)
	mentioned := mentionsIn(lex)
	assert.Equal(t, []string{"speakers/p1"}, mentioned("when is sian pritchad speaking"))
	assert.Equal(t, []string{"speakers/p1"}, mentioned("when is sian prtichard speaking"), "two letters swapped")
	assert.Empty(t, mentioned("when is sain pritchad speaking"), "two slips")
	assert.Empty(t, mentioned("is tom parkes here?"), "a word the programme uses")
}

// mentionsIn lists the keys of the entities a question names.
func mentionsIn(lex *search.Lexicon) func(string) []string {
	return func(q string) []string {
		var got []string
		for _, m := range lex.Mentions(q) {
			got = append(got, m.Ref.Key())
		}
		return got
	}
}

func newEngine(t *testing.T) *search.Engine {
	t.Helper()
	emb := hashembed.New(0)
	eng, err := search.NewEngine(emb, memsearch.New(emb.Dim()))
	require.NoError(t, err)
	return eng
}

func TestEngineLoadReplacesAConference(t *testing.T) {
	ctx := context.Background()
	eng := newEngine(t)
	b := tinyBundle(t)
	_, err := eng.Load(ctx, b)
	require.NoError(t, err)
	q := search.Query{Table: search.Sessions, Mode: search.Master, Text: "kubernetes", Limit: 10}
	rs, err := eng.Search(ctx, "c1", q)
	require.NoError(t, err, "search before reload")
	require.NotEmpty(t, rs, "search before reload")
	assert.Equal(t, "s1", rs[0].ID, "search before reload: %+v", rs)
	assert.Equal(t, "Kubernetes for machine learning", rs[0].Title, "search before reload: %+v", rs)
	smaller := *b
	smaller.Sessions = slices.DeleteFunc(slices.Clone(b.Sessions), func(s conference.Session) bool { return s.ID == "s1" })
	smaller.Speakers = nil
	_, err = eng.Load(ctx, &smaller)
	require.NoError(t, err)
	rs, _ = eng.Search(ctx, "c1", q)
	for _, r := range rs {
		assert.NotEqual(t, "s1", r.ID, "an entity removed from the bundle is still found after reloading")
	}
	rs, _ = eng.Search(ctx, "c2", q)
	require.Len(t, rs, 1, "c2 after reloading: %+v", rs)
	assert.Equal(t, "s9", rs[0].ID, "c2 after reloading: %+v", rs)
	assert.Equal(t, []string{"c1", "c2"}, eng.Conferences(), "Conferences")
}

func TestEngineErrors(t *testing.T) {
	_, err := search.NewEngine(hashembed.New(64), memsearch.New(32))
	assert.ErrorIs(t, err, search.ErrDimension, "dimension mismatch")
	eng := newEngine(t)
	_, err = eng.Search(context.Background(), "c1", search.Query{Table: "users", Mode: search.Faceted, Text: "x"})
	assert.ErrorIs(t, err, search.ErrInvalidQuery, "unknown table")
	q := eng.Resolve(search.Query{Table: search.Sessions, Text: "x"})
	assert.Equal(t, search.DefaultLimit, q.Limit, "Resolve = %+v", q)
	require.NotNil(t, q.Threshold, "Resolve = %+v", q)
	assert.Equal(t, search.Levels.Threshold, *q.Threshold, "Resolve = %+v", q)
}

// TestConferenceIsolation searches every table and mode of each demo
// conference with texts that exist in both, and expects only the
// conference's own items.
func TestConferenceIsolation(t *testing.T) {
	ctx := context.Background()
	b, err := conference.Demo()
	require.NoError(t, err)
	eng := newEngine(t)
	_, err = eng.Load(ctx, b)
	require.NoError(t, err)
	zero := float32(0)
	texts := []string{"deploying machine learning models on-premises", "Kubernetes", "personally identifiable information",
		"vector database", "forecasting wind power with machine learning", "lunch", "machine learning operations lead"}
	for _, conf := range b.ConferenceIDs() {
		own := map[string]bool{}
		for _, d := range search.Documents(b.Of(conf)) {
			own[d.Key()] = true
		}
		for _, text := range texts {
			for _, tb := range search.Tables {
				for _, mode := range []search.Mode{search.Faceted, search.Master} {
					rs, err := eng.Search(ctx, conf, search.Query{Table: tb, Mode: mode, Text: text, Limit: search.MaxLimit, Threshold: &zero})
					require.NoError(t, err)
					// require, not assert: one leak is enough, and the loops would repeat it many times.
					for _, r := range rs {
						msg := []any{"%s %s %q in %s returned %s of %s (%q), not one of its own items", mode, tb, text, conf, r.Key(), r.Conference, r.Title}
						require.Equal(t, conf, r.Conference, msg...)
						require.True(t, own[r.Key()], msg...)
						require.NotEqual(t, r.ID, r.Title, msg...) // Title == ID: not from the catalogue
					}
				}
			}
		}
	}
}

// ownFacets is a bundle whose items carry facet names the schema does not
// know, as a bundle written for another system does.
const ownFacets = `{"conferences":[{"id":"c1","name":"One"}],
 "sessions":[
  {"id":"s1","conference_id":"c1","title":"Yard planning","facets":{"theme":"Moving empty containers between depots with fewer truck trips","who_should_attend":"depot managers"}},
  {"id":"s2","conference_id":"c1","title":"Customs for beginners","description":"Declarations explained."}],
 "exhibitors":[],
 "speakers":[{"id":"p1","conference_id":"c1","name":"Ada","facets":{"expertise":["reefer logistics","cold chain audits"]}}]}`

func TestOwnFacetKeysAreIndexedAndSearched(t *testing.T) {
	b, err := conference.Parse("own", []byte(ownFacets))
	require.NoError(t, err)
	eng := searchtest.Engine(t, b)
	rs, err := eng.Search(context.Background(), "c1", search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "empty containers depots"})
	require.NoError(t, err, "search on an own facet")
	require.NotEmpty(t, rs, "search on an own facet")
	assert.Equal(t, "s1", rs[0].ID, "search on an own facet: %+v", rs)
	require.NotEmpty(t, rs[0].Matched, "matched facets, want theme first")
	assert.Equal(t, "theme", rs[0].Matched[0].Key, "matched facets = %+v, want theme first", rs[0].Matched)
	rs, err = eng.Search(context.Background(), "c1", search.Query{Table: search.Speakers, Mode: search.Faceted, Text: "cold chain audits"})
	require.NoError(t, err, "a list-valued own facet is not searched")
	require.Len(t, rs, 1, "a list-valued own facet is not searched: %+v", rs)
	assert.Equal(t, "p1", rs[0].ID, "a list-valued own facet is not searched: %+v", rs)
	emb := hashembed.New(0)
	fresh, _ := search.NewEngine(emb, memsearch.New(emb.Dim()))
	rep, err := fresh.Load(context.Background(), b)
	require.NoError(t, err)
	require.NotEmpty(t, rep.Conferences)
	line := rep.Conferences[0].String()
	for _, want := range []string{"2 sessions", "0 exhibitors", "1 speakers", "expertise (1)", "theme (1)", "who_should_attend (1)"} {
		assert.Contains(t, line, want, "load summary")
	}
}

// filtered is a conference whose speaker p2 is linked to its session only
// from the speaker's side.
const filtered = `{"conferences":[{"id":"c1","name":"One","timezone":"Europe/Paris","starts_on":"2026-05-12","ends_on":"2026-05-13"}],
 "sessions":[
  {"id":"am","conference_id":"c1","title":"Kubernetes clusters","format":"talk","room":"Hall 1","starts_at":"2026-05-12T09:00:00+02:00","ends_at":"2026-05-12T10:00:00+02:00","speaker_ids":["p1"]},
  {"id":"pm","conference_id":"c1","title":"Kubernetes upgrades","format":"workshop","room":"Hall 2","starts_at":"2026-05-12T14:00:00+02:00","ends_at":"2026-05-12T15:00:00+02:00"},
  {"id":"d2","conference_id":"c1","title":"Kubernetes costs","format":"workshop","room":"Hall 1","starts_at":"2026-05-13T09:00:00+02:00","ends_at":"2026-05-13T10:00:00+02:00"}],
 "exhibitors":[],
 "speakers":[{"id":"p1","conference_id":"c1","name":"Ada","bio":"Kubernetes operator."},
             {"id":"p2","conference_id":"c1","name":"Bob","bio":"Kubernetes upgrades.","session_ids":["pm"]}]}`

func TestFiltersKeepSessionsAndTheirSpeakers(t *testing.T) {
	b, err := conference.Parse("filtered", []byte(filtered))
	require.NoError(t, err)
	eng := searchtest.Engine(t, b)
	ctx := context.Background()
	afternoon := &when.Filter{From: time.Date(2026, 5, 12, 12, 0, 0, 0, time.UTC), To: time.Date(2026, 5, 12, 16, 0, 0, 0, time.UTC)}
	keys := func(rs []search.Result) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	rs, err := eng.Search(ctx, "c1", search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "kubernetes", Filter: afternoon})
	require.NoError(t, err, "afternoon sessions")
	assert.Equal(t, []string{"pm"}, keys(rs), "afternoon sessions")
	rs, err = eng.Search(ctx, "c1", search.Query{Table: search.Speakers, Mode: search.Faceted, Text: "kubernetes", Filter: afternoon})
	require.NoError(t, err, "afternoon speakers")
	assert.Equal(t, []string{"p2"}, keys(rs), "afternoon speakers (p2 links from its own side)")
	workshops := &when.Filter{Formats: []string{"workshop"}}
	rs, err = eng.Search(ctx, "c1", search.Query{Table: search.Sessions, Mode: search.Faceted, Filter: workshops})
	require.NoError(t, err, "a filter alone")
	require.NotEmpty(t, rs, "a filter alone lists what it keeps in programme order")
	assert.Equal(t, []string{"pm", "d2"}, keys(rs), "a filter alone lists what it keeps in programme order")
	assert.Equal(t, float32(1), rs[0].Score, "a filter alone lists what it keeps in programme order: %v", keys(rs))
	nothing := &when.Filter{Rooms: []string{"Cellar"}}
	rs, err = eng.Search(ctx, "c1", search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "kubernetes", Filter: nothing})
	assert.NoError(t, err, "a filter that keeps nothing")
	assert.Empty(t, rs, "a filter that keeps nothing: %v", keys(rs))
	_, err = eng.Search(ctx, "c1", search.Query{Table: "attendees", Mode: search.Faceted, Filter: nothing})
	assert.ErrorIs(t, err, search.ErrInvalidQuery, "a bad table behind a filter that keeps nothing")
}

// readyIndex is an index kept in another server, up or down.
type readyIndex struct {
	search.Index
	err error
}

func (r readyIndex) Ready(context.Context) error { return r.err }

// The engine is ready when its index is: one in memory always is, one in
// another server says so.
func TestEngineReadyFollowsItsIndex(t *testing.T) {
	emb := hashembed.New(0)
	mem, err := search.NewEngine(emb, memsearch.New(emb.Dim()))
	require.NoError(t, err)
	assert.NoError(t, mem.Ready(context.Background()))
	down := errors.New("weaviate is down")
	remote, err := search.NewEngine(emb, readyIndex{Index: memsearch.New(emb.Dim()), err: down})
	require.NoError(t, err)
	assert.ErrorIs(t, remote.Ready(context.Background()), down)
}

// Entity.Check, which every driver runs on a batch before changing it.
func TestEntityCheck(t *testing.T) {
	ok := func() search.Entity {
		return search.Entity{Ref: search.Ref{Conference: "c", Table: search.Sessions, ID: "s"}, Master: make([]float32, 3),
			Facets: []search.FacetVector{{Key: "a", Vector: make([]float32, 3)}}}
	}
	require.NoError(t, new(ok()).Check(3))
	for name, tc := range map[string]struct {
		mutate func(*search.Entity)
		want   error
	}{
		"no conference":  {func(e *search.Entity) { e.Conference = "" }, search.ErrInvalidQuery},
		"unknown table":  {func(e *search.Entity) { e.Table = "rooms" }, search.ErrInvalidQuery},
		"short master":   {func(e *search.Entity) { e.Master = e.Master[:2] }, search.ErrDimension},
		"long facet":     {func(e *search.Entity) { e.Facets[0].Vector = make([]float32, 4) }, search.ErrDimension},
		"empty key":      {func(e *search.Entity) { e.Facets[0].Key = "" }, search.ErrInvalidQuery},
		"repeated key":   {func(e *search.Entity) { e.Facets = append(e.Facets, e.Facets[0]) }, search.ErrInvalidQuery},
		"too many facet": {func(e *search.Entity) { e.Facets = make([]search.FacetVector, search.MaxFacets+1) }, search.ErrInvalidQuery},
	} {
		e := ok()
		tc.mutate(&e)
		assert.ErrorIs(t, e.Check(3), tc.want, name)
	}
}

// Meaning places a conference's alike level between unrelated texts and
// rewordings: measured on the conference's own pseudo-questions, absent
// where too few can be made.
func TestMeaningAlikeLevel(t *testing.T) {
	ctx := context.Background()
	_, eng := searchtest.Demo(t)
	mean := func(text string) search.Meaning {
		m, err := eng.Meaning(ctx, "aidata26", text)
		require.NoError(t, err)
		return m
	}
	k8s := mean("kubernetes clusters for inference")
	t.Logf("demo conference alike level: %.3f", k8s.Alike)
	require.Greater(t, k8s.Alike, float32(0), "no alike level measured on the demo conference")
	require.Less(t, k8s.Alike, float32(1))
	assert.Equal(t, "hash", k8s.Embedder)
	assert.Greater(t, search.Dot(k8s.Vector, mean("inference on kubernetes clusters").Vector), k8s.Alike, "a rewording is not alike")
	assert.Less(t, search.Dot(k8s.Vector, mean("sauna near the venue").Vector), k8s.Alike, "an unrelated text is alike")
	_, err := eng.Meaning(ctx, "nope", "kubernetes")
	assert.Error(t, err, "a conference not loaded")

	small := newEngine(t)
	_, err = small.Load(ctx, tinyBundle(t))
	require.NoError(t, err)
	m, err := small.Meaning(ctx, "c1", "kubernetes")
	require.NoError(t, err)
	assert.Zero(t, m.Alike, "an alike level measured on too few pseudo-questions")
}

// A session that runs over several days ends on its own day: a cloakroom
// open from Tuesday to Thursday is not shown closing on Tuesday.
func TestDetailsOfASessionOverSeveralDaysSayItsLastDay(t *testing.T) {
	b, err := conference.Parse("days", []byte(`{"conferences":[{"id":"c","name":"Days","timezone":"Europe/Dublin"}],
 "sessions":[{"id":"s1","conference_id":"c","title":"Cloakroom","format":"other","room":"Level 0",
  "starts_at":"2027-10-12T07:30:00+01:00","ends_at":"2027-10-14T17:30:00+01:00"}],"exhibitors":[],"speakers":[]}`))
	require.NoError(t, err)
	docs := search.Documents(b)
	require.Len(t, docs, 1)
	assert.Equal(t, "Other · Tue 12 Oct 07:30–Thu 14 Oct 17:30 · Level 0", docs[0].Details)
}
