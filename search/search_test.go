package search_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

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
		if len(defs) != n {
			t.Fatalf("%s has %d facets, want %d", tb, len(defs), n)
		}
		var sum float32
		for _, d := range defs {
			if d.Weight <= 0 || d.Description == "" {
				t.Fatalf("%s.%s: weight %v, description %q", tb, d.Key, d.Weight, d.Description)
			}
			sum += d.Weight
		}
		if sum != search.TotalWeight(tb) {
			t.Fatalf("TotalWeight(%s) = %v, want %v", tb, search.TotalWeight(tb), sum)
		}
	}
	if search.KnownFacet(search.Sessions, "selling_intent") || search.FacetWeight(search.Sessions, "talks_about") != search.DefaultFacetWeight {
		t.Fatal("a key outside the sessions schema is not weighed as an extra facet")
	}
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
	if s := search.FacetScore([]float32{0.05, 0.09}, weights[:2], total, 0.1); s != 0 {
		t.Fatalf("no facet above the floor scored %v", s)
	}
	even := []float32{0.6, 0.6, 0.6, 0.6, 0.6, 0.6}
	if s := search.FacetScore(even, weights, total, 0.1); s < 0.5999 || s > 0.6001 {
		t.Fatalf("every facet at 0.6 scored %v, want 0.6", s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		n := 1 + r.IntN(6)
		sims := make([]float32, n)
		best := float32(0)
		for i := range sims {
			sims[i] = r.Float32()
			best = max(best, sims[i])
		}
		s := search.FacetScore(sims, weights[:n], total, 0.1)
		if s > best+1e-6 || s < 0 || s > 1 {
			t.Fatalf("score %v for sims %v exceeds the best facet %v or leaves 0..1", s, sims, best)
		}
		if n < 6 {
			more := search.FacetScore(append(slices.Clone(sims), r.Float32()), weights[:n+1], total, 0.1)
			if more < s-1e-6 {
				t.Fatalf("another matching facet lowered the score: %v → %v", s, more)
			}
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
	if err != nil {
		t.Fatal(err)
	}
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
	if f := facets["session_topic"]; f.Derived || !strings.HasPrefix(f.Text, "Running machine learning") {
		t.Fatalf("a given facet was not kept: %+v", f)
	}
	if f := facets["target_audience"]; !f.Derived || !strings.Contains(f.Text, "platform engineers") {
		t.Fatalf("a too-short facet was not derived from the description: %+v", f)
	}
	if f := facets["problems_addressed"]; !strings.Contains(f.Text, "autoscaling problems") {
		t.Fatalf("problems_addressed not derived: %+v", f)
	}
	if s1.Details != "Workshop · Tue 12 May 09:00–10:30 · Lab 1 · with Ada Lovelace" {
		t.Fatalf("details = %q", s1.Details)
	}
	if sparse := docs["sessions/s2"]; len(sparse.Facets) != 1 || len(sparse.Facets) >= len(s1.Facets) {
		t.Fatalf("a title-only session should have only its topic facet, has %+v", sparse.Facets)
	}
	p1 := docs["speakers/p1"]
	var topics string
	for _, f := range p1.Facets {
		if f.Key == "speaking_topics" {
			topics = f.Text
		}
	}
	if !strings.Contains(topics, "Kubernetes for machine learning") {
		t.Fatalf("speaking_topics not derived from the speaker's sessions: %q", topics)
	}
	if e1 := docs["exhibitors/e1"]; e1.Details != "Booth A-01" || !strings.Contains(e1.MasterText, "model serving") {
		t.Fatalf("exhibitor document = %+v", e1)
	}
}

func TestLexicon(t *testing.T) {
	lex := search.NewLexicon(tinyBundle(t).Of("c1"))
	if c := lex.Corpus(); !c.Knows("Kubernetes") || c.Knows("k8s") || c.Knows("grid") {
		t.Fatal("Knows: want kubernetes known, k8s unknown, and c2's words unknown in c1")
	}
	if a := lex.Analyze("kubrenetes"); len(a.Fixed()) != 1 || a.Fixed()[0].Fix != "kubernetes" {
		t.Fatalf("Analyze(kubrenetes) = %+v", a.Concepts)
	}
	cov := lex.Coverage("Kubernetes clusters and sauna")
	if len(cov) != 3 || cov[0].DF[search.Sessions] != 1 || cov[0].Total() < 2 || cov[2].Total() != 0 {
		t.Fatalf("Coverage = %+v", cov)
	}
	var got []string
	for _, m := range lex.Mentions("Where is the Harbourline booth? And Ada Lovelace?") {
		got = append(got, m.Ref.Key())
	}
	if !slices.Equal(got, []string{"exhibitors/e1", "speakers/p1"}) {
		t.Fatalf("Mentions = %v", got)
	}
}

func newEngine(t *testing.T) *search.Engine {
	t.Helper()
	emb := hashembed.New(0)
	eng, err := search.NewEngine(emb, memsearch.New(emb.Dim()))
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func TestEngineLoadReplacesAConference(t *testing.T) {
	ctx := context.Background()
	eng := newEngine(t)
	b := tinyBundle(t)
	if _, err := eng.Load(ctx, b); err != nil {
		t.Fatal(err)
	}
	q := search.Query{Table: search.Sessions, Mode: search.Master, Text: "kubernetes", Limit: 10}
	rs, err := eng.Search(ctx, "c1", q)
	if err != nil || len(rs) == 0 || rs[0].ID != "s1" || rs[0].Title != "Kubernetes for machine learning" {
		t.Fatalf("search before reload: %+v, %v", rs, err)
	}
	smaller := *b
	smaller.Sessions = slices.DeleteFunc(slices.Clone(b.Sessions), func(s conference.Session) bool { return s.ID == "s1" })
	smaller.Speakers = nil
	if _, err := eng.Load(ctx, &smaller); err != nil {
		t.Fatal(err)
	}
	rs, _ = eng.Search(ctx, "c1", q)
	for _, r := range rs {
		if r.ID == "s1" {
			t.Fatal("an entity removed from the bundle is still found after reloading")
		}
	}
	if rs, _ := eng.Search(ctx, "c2", q); len(rs) != 1 || rs[0].ID != "s9" {
		t.Fatalf("c2 after reloading: %+v", rs)
	}
	if !slices.Equal(eng.Conferences(), []string{"c1", "c2"}) {
		t.Fatalf("Conferences = %v", eng.Conferences())
	}
}

func TestEngineErrors(t *testing.T) {
	if _, err := search.NewEngine(hashembed.New(64), memsearch.New(32)); !errors.Is(err, search.ErrDimension) {
		t.Fatalf("dimension mismatch: %v", err)
	}
	eng := newEngine(t)
	_, err := eng.Search(context.Background(), "c1", search.Query{Table: "users", Mode: search.Faceted, Text: "x"})
	if !errors.Is(err, search.ErrInvalidQuery) {
		t.Fatalf("unknown table: %v", err)
	}
	q := eng.Resolve(search.Query{Table: search.Sessions, Text: "x"})
	if q.Limit != search.DefaultLimit || *q.Threshold != search.Levels.Threshold {
		t.Fatalf("Resolve = %+v", q)
	}
}

// TestConferenceIsolation searches every table and mode of each demo
// conference with texts that exist in both, and expects only the
// conference's own items.
func TestConferenceIsolation(t *testing.T) {
	ctx := context.Background()
	b, err := conference.Demo()
	if err != nil {
		t.Fatal(err)
	}
	eng := newEngine(t)
	if _, err := eng.Load(ctx, b); err != nil {
		t.Fatal(err)
	}
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
					if err != nil {
						t.Fatal(err)
					}
					for _, r := range rs {
						if r.Conference != conf || !own[r.Key()] || r.Title == r.ID { // Title == ID: not from the catalogue
							t.Fatalf("%s %s %q in %s returned %s of %s (%q), not one of its own items", mode, tb, text, conf, r.Key(), r.Conference, r.Title)
						}
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
	if err != nil {
		t.Fatal(err)
	}
	eng := searchtest.Engine(t, b)
	rs, err := eng.Search(context.Background(), "c1", search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "empty containers depots"})
	if err != nil || len(rs) == 0 || rs[0].ID != "s1" {
		t.Fatalf("search on an own facet: %v, %+v", err, rs)
	}
	if len(rs[0].Matched) == 0 || rs[0].Matched[0].Key != "theme" {
		t.Fatalf("matched facets = %+v, want theme first", rs[0].Matched)
	}
	rs, err = eng.Search(context.Background(), "c1", search.Query{Table: search.Speakers, Mode: search.Faceted, Text: "cold chain audits"})
	if err != nil || len(rs) != 1 || rs[0].ID != "p1" {
		t.Fatalf("a list-valued own facet is not searched: %v, %+v", err, rs)
	}
	emb := hashembed.New(0)
	fresh, _ := search.NewEngine(emb, memsearch.New(emb.Dim()))
	rep, err := fresh.Load(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	line := rep.Conferences[0].String()
	for _, want := range []string{"2 sessions", "0 exhibitors", "1 speakers", "expertise (1)", "theme (1)", "who_should_attend (1)"} {
		if !strings.Contains(line, want) {
			t.Errorf("load summary %q lacks %q", line, want)
		}
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
	if err != nil {
		t.Fatal(err)
	}
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
	if err != nil || !slices.Equal(keys(rs), []string{"pm"}) {
		t.Fatalf("afternoon sessions: %v %v", keys(rs), err)
	}
	rs, err = eng.Search(ctx, "c1", search.Query{Table: search.Speakers, Mode: search.Faceted, Text: "kubernetes", Filter: afternoon})
	if err != nil || !slices.Equal(keys(rs), []string{"p2"}) {
		t.Fatalf("afternoon speakers (p2 links from its own side): %v %v", keys(rs), err)
	}
	workshops := &when.Filter{Formats: []string{"workshop"}}
	rs, err = eng.Search(ctx, "c1", search.Query{Table: search.Sessions, Mode: search.Faceted, Filter: workshops})
	if err != nil || !slices.Equal(keys(rs), []string{"pm", "d2"}) || rs[0].Score != 1 {
		t.Fatalf("a filter alone lists what it keeps in programme order: %v %v", keys(rs), err)
	}
	nothing := &when.Filter{Rooms: []string{"Cellar"}}
	if rs, err := eng.Search(ctx, "c1", search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "kubernetes", Filter: nothing}); err != nil || len(rs) != 0 {
		t.Fatalf("a filter that keeps nothing: %v %v", keys(rs), err)
	}
	if _, err := eng.Search(ctx, "c1", search.Query{Table: "attendees", Mode: search.Faceted, Filter: nothing}); !errors.Is(err, search.ErrInvalidQuery) {
		t.Fatalf("a bad table behind a filter that keeps nothing: %v", err)
	}
}
