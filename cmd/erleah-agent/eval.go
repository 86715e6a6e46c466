package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/eval"
)

func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer, cfg config) error {
	fs := newFlagSet("eval", stderr)
	var c common
	c.register(fs, cfg, "on|off|both")
	casesFile := fs.String("cases", "", "evaluation cases `file` in JSON Lines (default: the public set for the demo bundle)")
	fs.Lookup("reflection").DefValue = "both"
	c.reflection = "both"
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: erleah-agent eval [--data FILE] [--cases FILE] [--reflection on|off|both] [--json]")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("eval takes no arguments, got %q", strings.Join(pos, " "))
	}
	modes, err := evalModes(c.reflection)
	if err != nil {
		return err
	}
	if err := checkRetries(c.maxRetries); err != nil {
		return err
	}
	if *casesFile == "" && c.data != "" {
		return usagef("--cases is required with --data")
	}
	b, err := loadBundle(c.data)
	if err != nil {
		return err
	}
	cases, err := loadCases(*casesFile)
	if err != nil {
		return err
	}
	if err := eval.Check(cases, b); err != nil {
		return err
	}
	eng, err := newEngine(ctx, cfg, b)
	if err != nil {
		return fmt.Errorf("index conference: %w", err)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	model, _, err := newModel(cfg, log)
	if err != nil {
		return err
	}
	r := &eval.Runner{Agents: map[eval.Mode]*agent.Agent{}, Conference: conferenceLookup(b), Timeout: cfg.TurnTimeout}
	for _, m := range modes {
		r.Agents[m] = agent.New(model, eng, agentOptions(cfg, m == eval.Mechanical, c.maxRetries, log))
	}
	rep, err := r.Run(ctx, cases)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(stdout, rep)
	}
	printReport(stdout, rep, modes)
	return nil
}

func evalModes(v string) ([]eval.Mode, error) {
	switch v {
	case "on":
		return []eval.Mode{eval.Reflection}, nil
	case "off":
		return []eval.Mode{eval.Mechanical}, nil
	case "both":
		return []eval.Mode{eval.Reflection, eval.Mechanical}, nil
	}
	return nil, usagef("--reflection %q: want on, off or both", v)
}

// loadCases reads the cases file, or the public set for the demo bundle.
func loadCases(path string) ([]eval.Case, error) {
	if path == "" {
		return eval.DemoCases()
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open cases: %w", err)
	}
	defer f.Close()
	return eval.ParseCases(f)
}

func conferenceLookup(b *conference.Bundle) func(string) (agent.Conference, bool) {
	return func(id string) (agent.Conference, bool) {
		c, err := pickConference(b, id)
		return c, err == nil
	}
}

func printReport(w io.Writer, rep *eval.Report, modes []eval.Mode) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "mode\tcases\tfirst-pass hit\tfinal hit\tcited hit\trecovery\trecall@10\tMRR\tfalse citations\tno-answer honesty\tattempts\tmodel calls\tp50 ms\tp95 ms")
	for _, m := range modes {
		s := rep.Summary[m]
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f (%d/%d)\t%.3f\t%.3f\t%.3f (%d/%d)\t%.3f\t%.2f\t%d\t%.2f\t%.2f\n", m, s.Cases,
			s.FirstPassHitRate, s.FinalHitRate, s.CitedHitRate, s.RecoveryRate, s.Recovered, s.FirstPassMisses, s.RecallAt10, s.MRR,
			s.FalseCitationRate, s.FalseCitations, s.Citations, s.NoAnswerHonesty, s.MeanAttempts, s.LLMCalls, s.P50MS, s.P95MS)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nrecovered / first-pass misses, by category:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "category\tcases")
	for _, m := range modes {
		fmt.Fprintf(tw, "\t%s", m)
	}
	fmt.Fprintln(tw)
	for _, cat := range categories(rep, modes[0]) {
		fmt.Fprintf(tw, "%s\t%d", cat, rep.Summary[modes[0]].ByCategory[cat].Cases)
		for _, m := range modes {
			cs := rep.Summary[m].ByCategory[cat]
			fmt.Fprintf(tw, "\t%d/%d", cs.Recovered, cs.FirstPassMisses)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func categories(rep *eval.Report, m eval.Mode) []string {
	var out []string
	for k := range rep.Summary[m].ByCategory {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
