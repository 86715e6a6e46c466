package eval_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/eval"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/searchtest"
)

type demoSetup struct {
	bundle *conference.Bundle
	engine *search.Engine
	cases  []eval.Case
}

func setup(t *testing.T) demoSetup {
	t.Helper()
	b, eng := searchtest.Demo(t)
	cases, err := eval.DemoCases()
	if err != nil {
		t.Fatal(err)
	}
	if err := eval.Check(cases, b); err != nil {
		t.Fatal(err)
	}
	return demoSetup{b, eng, cases}
}

func conferenceOf(b *conference.Bundle) func(string) (agent.Conference, bool) {
	return func(id string) (agent.Conference, bool) {
		c, ok := b.Conference(id)
		return agent.Conference{ID: c.ID, Name: c.Name}, ok
	}
}

func TestPublicSetCoversEveryFailureReason(t *testing.T) {
	d := setup(t)
	count := map[string]int{}
	for _, c := range d.cases {
		count[c.KindOf()]++
	}
	if len(d.cases) < 40 {
		t.Fatalf("%d cases, want at least 40", len(d.cases))
	}
	for _, cat := range []string{"jargon", "wrong_table", "strict_threshold", "no_answer"} {
		if count[cat] < 5 {
			t.Fatalf("only %d %s cases", count[cat], cat)
		}
	}
}

// TestDemoEvalMeetsTargets guards the targets on the public set:
// reflection recovers at least 60% of failed first searches and at least 1.5×
// as many as mechanical relaxation, and at most 10% of citations are false.
func TestDemoEvalMeetsTargets(t *testing.T) {
	d := setup(t)
	r := &eval.Runner{Conference: conferenceOf(d.bundle), Calendar: d.engine.Calendar, Agents: map[eval.Mode]*agent.Agent{
		eval.Reflection: agent.New(rules.New(), d.engine, agent.Options{}),
		eval.Mechanical: agent.New(rules.New(), d.engine, agent.Options{Mechanical: true}),
	}}
	rep, err := r.Run(context.Background(), d.cases)
	if err != nil {
		t.Fatal(err)
	}
	refl, mech := rep.Summary[eval.Reflection], rep.Summary[eval.Mechanical]
	t.Logf("reflection %+v", refl)
	t.Logf("mechanical %+v", mech)
	if refl.Errors+mech.Errors > 0 {
		t.Fatalf("%d turns failed", refl.Errors+mech.Errors)
	}
	if refl.RecoveryRate < 0.6 || refl.RecoveryRate < 1.5*mech.RecoveryRate {
		t.Fatalf("recovery %.3f (mechanical %.3f): want ≥ 0.6 and ≥ 1.5×", refl.RecoveryRate, mech.RecoveryRate)
	}
	if refl.FalseCitationRate > 0.1 {
		t.Fatalf("false citation rate %.3f > 0.1", refl.FalseCitationRate)
	}
	for _, c := range rep.Cases {
		if c.Mode == eval.Reflection && len(c.Strategies) > agent.DefaultMaxRetries {
			t.Fatalf("case %s ran %d reflection rounds", c.ID, len(c.Strategies))
		}
	}
}

// TestNoAnswerMixesConferences asks every public question in both demo
// conferences and checks that nothing retrieved, recommended or shown in a
// thinking note belongs to the other one.
func TestNoAnswerMixesConferences(t *testing.T) {
	d := setup(t)
	a := agent.New(rules.New(), d.engine, agent.Options{})
	for _, conf := range d.bundle.ConferenceIDs() {
		info, _ := conferenceOf(d.bundle)(conf)
		for _, c := range d.cases {
			st, err := a.Run(context.Background(), agent.Request{Message: c.Message, Conference: info}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for tb, rs := range st.QueryResults {
				for _, r := range rs {
					if r.Conference != conf {
						t.Fatalf("%s asked in %s retrieved %s/%s of %s", c.ID, conf, tb, r.ID, r.Conference)
					}
				}
			}
			own := st.Retrieved()
			for _, cit := range st.Citations {
				if _, ok := own[cit.Key()]; !ok {
					t.Fatalf("%s in %s cites %s, which it did not retrieve", c.ID, conf, cit.Key())
				}
			}
		}
	}
}

// TestShippedSetsMatchTheirBundles parses every shipped set and checks its
// cases against its bundle; the real programme's set is skipped when the
// bundle is not beside the checkout.
func TestShippedSetsMatchTheirBundles(t *testing.T) {
	for _, s := range eval.Sets {
		t.Run(s.Name, func(t *testing.T) {
			b, cases := shipped(t, s)
			if err := eval.Check(cases, b); err != nil {
				t.Fatal(err)
			}
			if s.Role == eval.HeldOut && len(cases) < 30 {
				t.Fatalf("held-out set %s has %d cases, want at least 30", s.Name, len(cases))
			}
		})
	}
}

// TestEverySetKeepsItsFigures guards the figures EVAL.md reports, a
// little below them, on every shipped set (the real programme's skip
// without its bundle): answers that cite a relevant item, precision,
// honesty when nothing fits, and reflection never answering fewer cases
// than mechanical relaxation.
func TestEverySetKeepsItsFigures(t *testing.T) {
	floors := map[string]struct{ hit, precision, nothing float64 }{
		"demo":         {0.82, 0.95, 1},
		"realconf-dev": {0.75, 0.88, 1},
		"heldout":      {0.575, 0.78, 0.85},
		"heldout2":     {0.52, 0.78, 0.85},
		"realconf":     {0.60, 0.80, 1},
		"followup":     {0.75, 0.70, 0}, // every case is answerable
	}
	for _, s := range eval.Sets {
		t.Run(s.Name, func(t *testing.T) {
			b, cases := shipped(t, s)
			eng := searchtest.Engine(t, b)
			r := &eval.Runner{Conference: conferenceOf(b), Calendar: eng.Calendar, Agents: map[eval.Mode]*agent.Agent{
				eval.Reflection: agent.New(rules.New(), eng, agent.Options{}),
				eval.Mechanical: agent.New(rules.New(), eng, agent.Options{Mechanical: true}),
			}}
			rep, err := r.Run(context.Background(), cases)
			if err != nil {
				t.Fatal(err)
			}
			refl, mech, f := rep.Summary[eval.Reflection], rep.Summary[eval.Mechanical], floors[s.Name]
			if refl.AnswerHitRate < f.hit || refl.AnswerPrecision < f.precision || refl.NothingFitsRate < f.nothing {
				t.Fatalf("answer hit %.3f (≥ %.2f), precision %.3f (≥ %.2f), nothing fits %.3f (≥ %.2f)",
					refl.AnswerHitRate, f.hit, refl.AnswerPrecision, f.precision, refl.NothingFitsRate, f.nothing)
			}
			if s.Name == "followup" {
				r.NoHistory = true
				alone, err := r.Run(context.Background(), cases)
				if err != nil || alone.Summary[eval.Reflection].AnswerHitRate >= refl.AnswerHitRate {
					t.Fatalf("without history the follow-ups hit %.3f, with it %.3f (%v)", alone.Summary[eval.Reflection].AnswerHitRate, refl.AnswerHitRate, err)
				}
			}
			if refl.AnswerHitRate < mech.AnswerHitRate || refl.RecoveryRate < mech.RecoveryRate {
				t.Fatalf("reflection answers %.3f and recovers %.3f; mechanical %.3f and %.3f",
					refl.AnswerHitRate, refl.RecoveryRate, mech.AnswerHitRate, mech.RecoveryRate)
			}
		})
	}
}

// shipped loads a shipped set's bundle and cases. A set whose bundle lives
// beside the checkout reads REALCONF_DATA when scripts/test.sh sets it
// (then a bundle that does not load fails), else skips without the file.
func shipped(t *testing.T, s eval.Set) (*conference.Bundle, []eval.Case) {
	t.Helper()
	path := ""
	if s.DataFile != "" {
		path = os.Getenv("REALCONF_DATA")
	}
	b, err := s.Bundle(path)
	if err != nil && s.DataFile != "" && path == "" && errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s: %v", s.Name, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	cases, err := s.Cases()
	if err != nil {
		t.Fatal(err)
	}
	return b, cases
}

// TestMemoryEarnsItsPlace runs the memory experiment on the demo set: the
// paraphrased cases after the originals filled the memory need fewer
// search rounds than the same paraphrases without memory, and answer no
// worse (EVAL.md has the figures).
func TestMemoryEarnsItsPlace(t *testing.T) {
	s, err := eval.SetNamed("demo")
	if err != nil {
		t.Fatal(err)
	}
	b, cases := shipped(t, s)
	eng := searchtest.Engine(t, b)
	para, err := eval.Paraphrases(cases)
	if err != nil {
		t.Fatal(err)
	}
	r := &eval.Runner{Conference: conferenceOf(b), Calendar: eng.Calendar}
	rep, err := r.MemoryRun(context.Background(), cases, para, func(m agent.Memory) *agent.Agent {
		return agent.New(rules.New(), eng, agent.Options{Memory: m})
	})
	if err != nil {
		t.Fatal(err)
	}
	warm, off := rep.Warm, rep.Off
	if rep.Lessons == 0 || rep.WarmRecalls == 0 {
		t.Fatalf("%d lessons learnt, %d warm turns used one", rep.Lessons, rep.WarmRecalls)
	}
	if warm.MeanAttempts > 0.8*off.MeanAttempts || warm.AnswerHitRate < off.AnswerHitRate || warm.AnswerPrecision < off.AnswerPrecision {
		t.Fatalf("warm: attempts %.3f, hit %.3f, precision %.3f; memory off: %.3f, %.3f, %.3f",
			warm.MeanAttempts, warm.AnswerHitRate, warm.AnswerPrecision, off.MeanAttempts, off.AnswerHitRate, off.AnswerPrecision)
	}
}
