package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"text/tabwriter"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/eval"
)

// runMemoryEval runs the reflection memory experiment on the demo set:
// the cases with an empty memory that fills as they run (cold), their
// paraphrases with that memory (warm), and the paraphrases with memory off.
func runMemoryEval(ctx context.Context, w io.Writer, cfg config, c common, paraphrases string, log *slog.Logger) error {
	s, err := eval.SetNamed("demo")
	if err != nil {
		return err
	}
	run, err := setRun(s, c.data)
	if err != nil {
		return err
	}
	para, err := eval.Paraphrases(run.cases, paraphrases)
	if err != nil {
		return usagef("--paraphrases: %v", err)
	}
	eng, err := newEngine(ctx, cfg, run.bundle, log, nil)
	if err != nil {
		return fmt.Errorf("index conference: %w", err)
	}
	model, _, err := newModel(cfg, log, nil, nil)
	if err != nil {
		return err
	}
	r := &eval.Runner{Conference: conferenceLookup(run.bundle), Calendar: eng.Calendar, Timeout: cfg.TurnTimeout}
	rep, err := r.MemoryRun(ctx, run.cases, para, func(m agent.Memory) *agent.Agent {
		opts := agentOptions(cfg, false, c.maxRetries, c.translator, log)
		opts.Memory = m
		return agent.New(model, eng, opts)
	})
	if err != nil {
		return fmt.Errorf("eval --memory: %w", err)
	}
	if c.json {
		return writeJSON(w, rep)
	}
	printMemoryReport(w, rep, len(run.cases), paraphrases)
	return nil
}

func printMemoryReport(w io.Writer, rep *eval.MemoryReport, cases int, paraphrases string) {
	fmt.Fprintf(w, "== reflection memory on the demo set: %d cases, then their paraphrases from set %s (%d lessons learnt, %d warm turns used one)\n\n",
		cases, paraphrases, rep.Lessons, rep.WarmRecalls)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "pass\tmean attempts\trecovery\tanswer hit\tprecision\tnothing fits")
	for _, row := range []struct {
		name string
		s    eval.Summary
	}{{"cold (cases, memory filling)", rep.Cold}, {"warm (paraphrases, memory filled)", rep.Warm}, {"paraphrases, memory off", rep.Off}} {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", row.name, row.s.MeanAttempts, row.s.RecoveryRate, row.s.AnswerHitRate, row.s.AnswerPrecision, row.s.NothingFitsRate)
	}
	tw.Flush()
	if rep.Cold.MeanAttempts > 0 && rep.Off.MeanAttempts > 0 {
		fmt.Fprintf(w, "\nwarm attempts: %.2f× cold, %.2f× the same paraphrases with memory off\n",
			rep.Warm.MeanAttempts/rep.Cold.MeanAttempts, rep.Warm.MeanAttempts/rep.Off.MeanAttempts)
	}
}
