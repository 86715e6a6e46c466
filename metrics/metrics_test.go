package metrics_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/metrics"
)

func TestRejectionsAreCountedByStepAndCheck(t *testing.T) {
	m := metrics.New()
	st := &agent.State{Rejections: []agent.Rejection{
		{Step: agent.StepPlan, Check: agent.CheckTables}, {Step: agent.StepPlan, Check: agent.CheckTables},
		{Step: agent.StepReflect, Check: agent.CheckStrategy},
	}}
	m.Turn("answered", st)
	if got := testutil.ToFloat64(m.OutputRejected.WithLabelValues("plan_queries", "tables_and_modes")); got != 2 {
		t.Fatalf("plan rejections = %v, want 2", got)
	}
	if got := testutil.ToFloat64(m.OutputRejected.WithLabelValues("reflect_and_replan", "strategy")); got != 1 {
		t.Fatalf("reflect rejections = %v, want 1", got)
	}
}
