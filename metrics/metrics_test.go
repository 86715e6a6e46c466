package metrics_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

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
	if got := testutil.ToFloat64(m.Sanitised.WithLabelValues("url")); got != 2 {
		t.Fatalf("removed links = %v, want 2", got)
	}
	if got := testutil.ToFloat64(m.Sanitised.WithLabelValues("citation")); got != 1 {
		t.Fatalf("dropped citations = %v, want 1", got)
	}
	if got := testutil.ToFloat64(m.OutputRejected.WithLabelValues("plan_queries", "tables_and_modes")); got != 2 {
		t.Fatalf("plan rejections = %v, want 2", got)
	}
	if got := testutil.ToFloat64(m.OutputRejected.WithLabelValues("reflect_and_replan", "strategy")); got != 1 {
		t.Fatalf("reflect rejections = %v, want 1", got)
	}
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
		if got := testutil.ToFloat64(m.BreakerState.WithLabelValues(model)); got != step.level {
			t.Fatalf("after %s the gauge is %v, want %v", step.state, got, step.level)
		}
		if got := testutil.ToFloat64(m.BreakerOpened.WithLabelValues(model)); got != step.opened {
			t.Fatalf("after %s the openings are %v, want %v", step.state, got, step.opened)
		}
	}
}

func TestAnswerQualityIsObservedBySourceAndMode(t *testing.T) {
	m := metrics.New()
	m.Quality(&agent.State{ResponseSource: agent.FromModel, Reflection: true, Evaluation: &agent.Evaluation{QualityScore: 0.8}})
	m.Quality(&agent.State{ResponseSource: agent.FromModel, Reflection: false, Evaluation: &agent.Evaluation{QualityScore: 0.3}})
	if n := testutil.CollectAndCount(m.AnswerQuality); n != 2 {
		t.Fatalf("%d quality series, want 2 (reflection on and off)", n)
	}
}
