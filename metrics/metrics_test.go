package metrics_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/metrics"
)

func TestRejectionsAndSanitisingAreCounted(t *testing.T) {
	m := metrics.New()
	st := &agent.State{Rejections: []agent.Rejection{
		{Step: agent.StepPlan, Check: agent.CheckTables}, {Step: agent.StepPlan, Check: agent.CheckTables},
		{Step: agent.StepReflect, Check: agent.CheckStrategy},
	}}
	st.DroppedCitations, st.RemovedURLs = []string{"exhibitors/x"}, []string{"http://phish.example", "www.evil.example"}
	m.Turn("answered", st)
	assert.Equal(t, 2.0, testutil.ToFloat64(m.Sanitised.WithLabelValues("url")), "removed links")
	assert.Equal(t, 1.0, testutil.ToFloat64(m.Sanitised.WithLabelValues("citation")), "dropped citations")
	assert.Equal(t, 2.0, testutil.ToFloat64(m.OutputRejected.WithLabelValues("plan_queries", "tables_and_modes")), "plan rejections")
	assert.Equal(t, 1.0, testutil.ToFloat64(m.OutputRejected.WithLabelValues("reflect_and_replan", "strategy")), "reflect rejections")
}

// A question searched without the English reading its translator failed
// to give is counted by language; one that was read, or needed none, is not.
func TestFailedTranslationsAreCountedByLanguage(t *testing.T) {
	m := metrics.New()
	m.Turn("answered", &agent.State{Language: "es", Untranslated: "apertium: timed out"})
	m.Turn("answered", &agent.State{Language: "es", Reading: "talks on cold chains"})
	m.Turn("answered", &agent.State{Language: "en"})
	assert.Equal(t, 1.0, testutil.ToFloat64(m.Untranslated.WithLabelValues("es")))
	assert.Equal(t, 1, testutil.CollectAndCount(m.Untranslated), "only the language that failed has a series")
}

func TestBreakerChangesSetTheGaugeAndCountOpenings(t *testing.T) {
	m := metrics.New()
	const model = "anthropic:claude-x"
	for _, step := range []struct {
		state  string
		level  float64
		opened float64
	}{{"closed", 0, 0}, {"open", 2, 1}, {"half_open", 1, 1}, {"open", 2, 2}, {"half_open", 1, 2}, {"closed", 0, 2}} {
		m.Breaker(model, step.state)
		require.Equal(t, step.level, testutil.ToFloat64(m.BreakerState.WithLabelValues(model)), "gauge after %s", step.state)
		require.Equal(t, step.opened, testutil.ToFloat64(m.BreakerOpened.WithLabelValues(model)), "openings after %s", step.state)
	}
}

func TestAnswerQualityIsObservedBySourceAndMode(t *testing.T) {
	m := metrics.New()
	m.Quality(&agent.State{ResponseSource: agent.FromModel, Reflection: true, Evaluation: &agent.Evaluation{QualityScore: 0.8}})
	m.Quality(&agent.State{ResponseSource: agent.FromModel, Reflection: false, Evaluation: &agent.Evaluation{QualityScore: 0.3}})
	assert.Equal(t, 2, testutil.CollectAndCount(m.AnswerQuality), "quality series (reflection on and off)")
}
