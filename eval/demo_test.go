package eval_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/eval"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/searchtest"
	"github.com/erleah/erleah-agent/translate"
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
	require.NoError(t, err)
	require.NoError(t, eval.Check(cases, b))
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
	assert.GreaterOrEqual(t, len(d.cases), 40, "cases, want at least 40")
	for _, cat := range []string{"jargon", "wrong_table", "strict_threshold", "no_answer"} {
		assert.GreaterOrEqual(t, count[cat], 5, "%s cases", cat)
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
	require.NoError(t, err)
	refl, mech := rep.Summary[eval.Reflection], rep.Summary[eval.Mechanical]
	t.Logf("reflection %+v", refl)
	t.Logf("mechanical %+v", mech)
	// The rates below mean nothing if turns failed.
	require.Zero(t, refl.Errors+mech.Errors, "turns failed")
	assert.GreaterOrEqual(t, refl.RecoveryRate, 0.6, "recovery %.3f (mechanical %.3f): want ≥ 0.6", refl.RecoveryRate, mech.RecoveryRate)
	assert.GreaterOrEqual(t, refl.RecoveryRate, 1.5*mech.RecoveryRate, "recovery %.3f (mechanical %.3f): want ≥ 1.5×", refl.RecoveryRate, mech.RecoveryRate)
	assert.LessOrEqual(t, refl.FalseCitationRate, 0.1, "false citation rate")
	for _, c := range rep.Cases {
		if c.Mode == eval.Reflection {
			assert.LessOrEqual(t, len(c.Strategies), agent.DefaultMaxRetries, "case %s: reflection rounds", c.ID)
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
			require.NoError(t, err, "%s in %s", c.ID, conf)
			// require, not assert: one leak is enough, and the loops would repeat it many times.
			for tb, rs := range st.QueryResults {
				for _, r := range rs {
					require.Equal(t, conf, r.Conference, "%s asked in %s retrieved %s/%s of %s", c.ID, conf, tb, r.ID, r.Conference)
				}
			}
			own := st.Retrieved()
			for _, cit := range st.Citations {
				_, ok := own[cit.Key()]
				require.True(t, ok, "%s in %s cites %s, which it did not retrieve", c.ID, conf, cit.Key())
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
			assert.NoError(t, eval.Check(cases, b))
			if s.Role == eval.HeldOut {
				assert.GreaterOrEqual(t, len(cases), 30, "held-out set %s: cases, want at least 30", s.Name)
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
		"realconf-dev": {0.80, 0.92, 1},
		"careops":      {0.75, 0.84, 1},     // 0.870: a speaker comes with their talk, and the labels often list only one of the two
		"heldout":      {0.525, 0.72, 0.85}, // 0.550 and 0.750 since no closest match is offered for a word the programme lacks (0.600 and 0.784 before: hedged answers to paraphrases)
		"heldout2":     {0.59, 0.88, 0.85},  // 0.619 and 0.923 at the tenth session's end (0.548 after the ninth session named items found only outside the time asked for instead of recommending them); nothing fits 6/7 since an item that stands alone in its table is offered, hedged (sixteenth session: two answers more, one unanswerable question cited)
		"heldout3":     {0.60, 0.84, 1},     // precision 0.846 here (0.854 in eval) since an item that stands alone in its table is offered, hedged (sixteenth session)
		"heldout4":     {0.55, 0.86, 1},     // 0.879 since questions in other languages are translated (0.906 before): of its two, one is now answered, the other cites one item the labels do not list
		"heldout5":     {0.60, 0.84, 1},     // precision 0.846 since a pivot goes where the question's words are (one more citation, not labelled); hit 0.619 since no closest match is offered for a word the programme lacks (0.643 before)
		"heldout6":     {0.64, 0.94, 1},
		"heldout7":     {0.57, 0.90, 1},
		"heldout8":     {0.59, 0.92, 1},
		"heldout9":     {0.59, 0.78, 1},
		"heldout10":    {0.61, 0.82, 0.85}, // precision 0.833 and nothing fits 0.875 here since a common word the programme never uses counts for little (one unanswerable question cites an item; nothing fits was 1.000)
		"heldout11":    {0.64, 0.72, 1},
		"heldout12":    {0.69, 0.85, 1},
		"heldout13":    {0.65, 0.92, 1},
		"heldout14":    {0.51, 0.87, 0.85}, // 0.535, 0.900, 6/7 at the eighth session's end (eval gave the same at its start)
		"heldout15":    {0.53, 0.79, 0.71}, // 0.558, 0.811, 5/7 here, read with Apertium alone (0.581 and 0.886 in eval, where FreeDict reads its German question too, at the session's start and end alike)
		"heldout16":    {0.59, 0.90, 1},    // 0.619, 0.943, 8/8 at the ninth session's end (0.619, 0.917, 7/8 at its start)
		"heldout17":    {0.54, 0.66, 0.85}, // 0.571, 0.700, 7/8 at the ninth session's end, its only other run at the session's start (0.548, 0.659, 6/8)
		"heldout18":    {0.64, 0.80, 1},    // 0.674, 0.825, 8/8 in eval at the tenth session's end, its only other run on that session's starting code (0.651, 0.821, 8/8)
		"heldout19":    {0.74, 0.84, 1},    // 0.767, 0.870, 7/7 in eval at the eleventh session's end, its only other run on that session's starting code (0.767, 0.860, 7/7)
		"heldout20":    {0.76, 0.80, 1},    // 0.791, 0.822, 7/7 at the eleventh session's end and on its starting code alike
		"heldout21":    {0.60, 0.89, 1},    // 0.630, 0.917, 4/4 at its only run, the fifteenth session's end (frozen before it)
		"heldout22":    {0.50, 0.75, 1},    // 0.533, 0.784, 5/5 at the sixteenth session's start and end alike (frozen at its start)
		"heldout23":    {0.50, 0.73, 1},    // 0.533, 0.761, 5/5 at the sixteenth session's end (0.511, 0.739 on its starting code; frozen midway, before the session's last five changes)
		"heldout24":    {0.62, 0.82, 1},    // 0.651, 0.837, 7/7 at its freeze (8b5c9ec) and at the seventeenth session's end alike
		"heldout25":    {0.72, 0.95, 1},    // 0.744, 0.980, 7/7 at its freeze (f8fd3d0) and at the eighteenth session's end alike
		"heldout26":    {0.67, 0.84, 0.85}, // 0.698, 0.872, 6/7 at its freeze (42eae90) and at the nineteenth session's end alike
		"heldout27":    {0.74, 0.88, 0.85}, // 0.767, 0.909, 6/7 at its freeze (08ecf41)
		"heldout28":    {0.65, 0.78, 0.85}, // 0.674, 0.800, 6/7 at its freeze (428dc33)
		"heldout29":    {0.62, 0.79, 0.85}, // 0.651, 0.817, 6/7 at its freeze (3328b35)
		"heldout30":    {0.67, 0.89, 1},    // 0.698, 0.915, 7/7 at its freeze (1e07500)
		"heldout31":    {0.69, 0.86, 1},    // 0.721, 0.894, 7/7 at its freeze (0d7643b)
		"heldout32":    {0.74, 0.75, 0.85}, // 0.767, 0.784, 6/7 at its freeze (293c023), and on the session's starting code alike
		"realconf":     {0.64, 0.80, 1},    // 0.825 since a need said outright and the kind asked about a named entity are searched (0.865 before: more citations the labels do not list)
		"followup":     {0.75, 0.62, 0},    // every case is answerable; 0.643: "we're decarbonising…" is read as a need (f07 pivots to a speaker and an exhibitor the labels do not list), and speakers come with their talks
	}
	tr := translator(t)
	for _, s := range eval.Sets {
		t.Run(s.Name, func(t *testing.T) {
			b, cases := shipped(t, s)
			eng := searchtest.Engine(t, b)
			r := &eval.Runner{Conference: conferenceOf(b), Calendar: eng.Calendar, Agents: map[eval.Mode]*agent.Agent{
				eval.Reflection: agent.New(rules.New(), eng, agent.Options{Translator: tr}),
				eval.Mechanical: agent.New(rules.New(), eng, agent.Options{Mechanical: true, Translator: tr}),
			}}
			rep, err := r.Run(context.Background(), cases)
			require.NoError(t, err)
			refl, mech, f := rep.Summary[eval.Reflection], rep.Summary[eval.Mechanical], floors[s.Name]
			assert.GreaterOrEqual(t, refl.AnswerHitRate, f.hit, "answer hit rate")
			assert.GreaterOrEqual(t, refl.AnswerPrecision, f.precision, "answer precision")
			assert.GreaterOrEqual(t, refl.NothingFitsRate, f.nothing, "nothing-fits rate")
			if s.Name == "followup" {
				r.NoHistory = true
				alone, err := r.Run(context.Background(), cases)
				require.NoError(t, err, "run without history")
				assert.Less(t, alone.Summary[eval.Reflection].AnswerHitRate, refl.AnswerHitRate, "without history the follow-ups should hit less than with it")
			}
			assert.GreaterOrEqual(t, refl.AnswerHitRate, mech.AnswerHitRate, "reflection answers %.3f; mechanical %.3f", refl.AnswerHitRate, mech.AnswerHitRate)
			assert.GreaterOrEqual(t, refl.RecoveryRate, mech.RecoveryRate, "reflection recovers %.3f; mechanical %.3f", refl.RecoveryRate, mech.RecoveryRate)
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
	require.NoError(t, err)
	cases, err := s.Cases()
	require.NoError(t, err)
	return b, cases
}

// TestMemoryEarnsItsPlace runs the memory experiment on the demo set: the
// paraphrased cases after the originals filled the memory need fewer
// search rounds than the same paraphrases without memory, and answer no
// worse (EVAL.md has the figures).
func TestMemoryEarnsItsPlace(t *testing.T) {
	s, err := eval.SetNamed("demo")
	require.NoError(t, err)
	b, cases := shipped(t, s)
	eng := searchtest.Engine(t, b)
	para, err := eval.Paraphrases(cases, "demo")
	require.NoError(t, err)
	r := &eval.Runner{Conference: conferenceOf(b), Calendar: eng.Calendar}
	rep, err := r.MemoryRun(context.Background(), cases, para, func(m agent.Memory) *agent.Agent {
		return agent.New(rules.New(), eng, agent.Options{Memory: m})
	})
	require.NoError(t, err)
	warm, off := rep.Warm, rep.Off
	assert.NotZero(t, rep.Lessons, "lessons learnt")
	assert.NotZero(t, rep.WarmRecalls, "warm turns that used a lesson")
	assert.LessOrEqual(t, warm.MeanAttempts, 0.8*off.MeanAttempts, "mean attempts: warm %.3f, memory off %.3f (want ≤ 0.8×)", warm.MeanAttempts, off.MeanAttempts)
	assert.LessOrEqual(t, warm.MeanAttempts, 0.7*rep.Cold.MeanAttempts, "mean attempts: warm %.3f, cold %.3f (issue 9's target: ≤ 0.7×)", warm.MeanAttempts, rep.Cold.MeanAttempts)
	assert.GreaterOrEqual(t, warm.AnswerHitRate, off.AnswerHitRate, "answer hit rate: warm %.3f, memory off %.3f", warm.AnswerHitRate, off.AnswerHitRate)
	assert.GreaterOrEqual(t, warm.AnswerPrecision, off.AnswerPrecision, "answer precision: warm %.3f, memory off %.3f", warm.AnswerPrecision, off.AnswerPrecision)
}

// translator is Apertium, as `eval` reads questions in other languages when
// it is installed; scripts/test.sh installs it and requires it.
func translator(t *testing.T) agent.Translator {
	a, err := translate.NewApertium(context.Background(), "")
	if err == nil {
		return a
	}
	if os.Getenv("ERLEAH_REQUIRE_TRANSLATION") != "" {
		t.Fatalf("Apertium required: %v", err)
	}
	t.Logf("questions in other languages are read without translation: %v", err)
	return nil
}
