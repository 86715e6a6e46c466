package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/eval"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search"
)

// evalRun is one evaluation set to run: its name and role, its bundle and
// its cases.
type evalRun struct {
	name   string
	about  string
	role   eval.Role
	bundle *conference.Bundle
	cases  []eval.Case
}

func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer, cfg config) error {
	fs := newFlagSet("eval", stderr)
	var c common
	c.register(fs, cfg, "on|off|both")
	casesFile := fs.String("cases", "", "evaluation cases `file` in JSON Lines (default: the set's own)")
	set := fs.String("set", "", "a shipped evaluation `set`: "+strings.Join(eval.SetNames(), ", ")+" or all (default demo)")
	ablate := fs.String("ablate", "", "comma-separated `techniques` to turn off, to measure what each adds: "+strings.Join(search.TechniqueNames(), ", "))
	ablations := fs.Bool("ablations", false, "print a Markdown table: every set with all techniques on, then with each one off")
	withMemory := fs.Bool("memory", false, "run the reflection memory experiment on the demo set: cold, warm on paraphrases, memory off")
	paraphrases := fs.String("paraphrases", "demo", "with --memory, the paraphrase `set`: "+strings.Join(eval.ParaphraseSets(), " or "))
	noHistory := fs.Bool("no-history", false, "run every case without its conversation history (to measure what history adds)")
	fs.Lookup("reflection").DefValue = "both"
	c.reflection = "both"
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: erleah-agent eval [--set NAME|all] [--data FILE] [--cases FILE] [--reflection on|off|both] [--ablate LIST | --ablations] [--no-history] [--json]")
		fmt.Fprintln(stderr, "       erleah-agent eval --memory [--paraphrases "+strings.Join(eval.ParaphraseSets(), "|")+"] [--json]")
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
	off, err := search.ParseAblation(*ablate)
	if err != nil {
		return usagef("--ablate: %v", err)
	}
	if *ablations && (c.json || *ablate != "" || c.reflection != "both") {
		return usagef("--ablations prints its own table of both modes: it takes none of --json, --ablate, --reflection")
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	paraphrasesGiven := false
	fs.Visit(func(f *flag.Flag) { paraphrasesGiven = paraphrasesGiven || f.Name == "paraphrases" })
	if paraphrasesGiven && !*withMemory {
		return usagef("--paraphrases goes with --memory")
	}
	if c.translator, err = newTranslator(ctx, cfg, log); err != nil {
		return err
	}
	if *withMemory {
		if *set != "" && *set != "demo" || *casesFile != "" || *ablations || *ablate != "" {
			return usagef("--memory runs the demo set and its paraphrases only: it takes none of --set, --cases, --ablate, --ablations")
		}
		return runMemoryEval(ctx, stdout, cfg, c, *paraphrases, log)
	}
	runs, err := evalRuns(*set, c.data, *casesFile)
	if err != nil {
		return err
	}
	c.noHistory = *noHistory
	if *ablations {
		return printAblations(ctx, stdout, cfg, c, runs, log)
	}
	reports := map[string]*eval.Report{}
	for _, run := range runs {
		rep, err := runEval(ctx, cfg, c, run, modes, log, off)
		if err != nil {
			return fmt.Errorf("eval %s: %w", run.name, err)
		}
		reports[run.name] = rep
		if !c.json {
			fmt.Fprintf(stdout, "== %s (%s, %s): %d cases\n\n", run.name, run.role, cmp.Or(run.about, "your cases"), len(run.cases))
			printReport(stdout, rep, modes)
			fmt.Fprintln(stdout)
		}
	}
	if !c.json {
		return nil
	}
	if len(runs) == 1 {
		return writeJSON(stdout, reports[runs[0].name])
	}
	return writeJSON(stdout, map[string]any{"sets": reports})
}

// evalRuns resolves the flags into the sets to run: a cases file (over
// --data or the demo bundle), one named set, or all of them.
func evalRuns(set, data, casesFile string) ([]evalRun, error) {
	if casesFile != "" {
		if set != "" {
			return nil, usagef("--cases and --set exclude each other")
		}
		b, err := loadBundle(data)
		if err != nil {
			return nil, err
		}
		cases, err := loadCases(casesFile)
		if err != nil {
			return nil, err
		}
		return []evalRun{{name: casesFile, role: eval.Tuning, bundle: b, cases: cases}}, eval.Check(cases, b)
	}
	if data != "" && (set == "" || set == "all") {
		return nil, usagef("--data needs --cases, or one --set whose cases are about it")
	}
	sets := eval.Sets
	if set != "all" {
		s, err := eval.SetNamed(cmp.Or(set, "demo"))
		if err != nil {
			return nil, usagef("--set: %v", err)
		}
		sets = []eval.Set{s}
	}
	var runs []evalRun
	for _, s := range sets {
		run, err := setRun(s, data)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
	}
	return runs, nil
}

func setRun(s eval.Set, data string) (evalRun, error) {
	b, err := s.Bundle(data)
	if err != nil {
		if s.DataFile != "" && data == "" && errors.Is(err, os.ErrNotExist) {
			return evalRun{}, fmt.Errorf("set %s needs its conference bundle: pass --data (expected at %s)", s.Name, s.DataFile)
		}
		return evalRun{}, err
	}
	cases, err := s.Cases()
	if err != nil {
		return evalRun{}, err
	}
	return evalRun{name: s.Name, role: s.Role, about: s.About, bundle: b, cases: cases}, eval.Check(cases, b)
}

func runEval(ctx context.Context, cfg config, c common, run evalRun, modes []eval.Mode, log *slog.Logger, off search.Ablation) (*eval.Report, error) {
	eng, err := newEngine(ctx, cfg, run.bundle, log, off)
	if err != nil {
		return nil, fmt.Errorf("index conference: %w", err)
	}
	model, _, err := newModel(cfg, log, off, nil)
	if err != nil {
		return nil, err
	}
	r := &eval.Runner{Agents: map[eval.Mode]*agent.Agent{}, Conference: conferenceLookup(run.bundle), Calendar: eng.Calendar, Timeout: cfg.TurnTimeout,
		NoHistory: c.noHistory}
	for _, m := range modes {
		opts := agentOptions(cfg, m == eval.Mechanical, c.maxRetries, c.translator, log)
		opts.Fallback, opts.Off = &rules.Model{Off: off}, off
		r.Agents[m] = agent.New(model, eng, opts)
	}
	return r.Run(ctx, run.cases)
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

// loadCases reads a cases file.
func loadCases(path string) ([]eval.Case, error) {
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
	fmt.Fprintln(tw, "mode\tcases\tanswer hit\tprecision\tnothing fits\trecovery\tfirst-pass hit\tfinal hit\trecall@10\tMRR\tattempts\tmodel calls\tp50 ms\tp95 ms")
	for _, m := range modes {
		s := rep.Summary[m]
		fmt.Fprintf(tw, "%s\t%d\t%.3f (%d/%d)\t%.3f (%d/%d)\t%.3f (%d/%d)\t%.3f (%d/%d)\t%.3f\t%.3f\t%.3f\t%.3f\t%.2f\t%d\t%.2f\t%.2f\n", m, s.Cases,
			s.AnswerHitRate, s.AnswerHits, s.AnswerableCases, s.AnswerPrecision, s.Citations-s.FalseCitations, s.Citations,
			s.NothingFitsRate, s.NothingFits, s.NoAnswerCases, s.RecoveryRate, s.Recovered, s.FirstPassMisses,
			s.FirstPassHitRate, s.FinalHitRate, s.RecallAt10, s.MRR, s.MeanAttempts, s.LLMCalls, s.P50MS, s.P95MS)
	}
	tw.Flush()
	printUncertainty(w, rep, modes)
	fmt.Fprintln(w, "\nby kind (answer hits, recovered / first-pass misses, nothing fits, precision):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "kind\tcases")
	for _, m := range modes {
		fmt.Fprintf(tw, "\t%s", m)
	}
	fmt.Fprintln(tw)
	for _, k := range rep.Summary[modes[0]].Kinds() {
		fmt.Fprintf(tw, "%s\t%d", k, rep.Summary[modes[0]].ByKind[k].Cases)
		for _, m := range modes {
			fmt.Fprintf(tw, "\t%s", kindCell(rep.Summary[m].ByKind[k]))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// printUncertainty says how far each rate could be from the truth with
// this few cases, and whether reflection's lead is more than chance.
func printUncertainty(w io.Writer, rep *eval.Report, modes []eval.Mode) {
	fmt.Fprintln(w, "\n95% intervals (Wilson):")
	for _, m := range modes {
		s := rep.Summary[m]
		fmt.Fprintf(w, "  %s: answer hit %s, precision %s, nothing fits %s\n", m,
			span(s.AnswerHitCI), span(s.AnswerPrecisionCI), span(s.NothingFitsCI))
	}
	if p := rep.Paired; p != nil {
		fmt.Fprintf(w, "case by case: only reflection answers %d, only mechanical %d (sign test p = %.3f)\n",
			p.ReflectionOnly, p.MechanicalOnly, p.P)
	}
}

func span(i eval.Interval) string { return fmt.Sprintf("%.2f–%.2f", i.Low, i.High) }

func kindCell(s eval.Summary) string {
	var parts []string
	if s.AnswerableCases > 0 {
		parts = append(parts, fmt.Sprintf("hit %d/%d", s.AnswerHits, s.AnswerableCases), fmt.Sprintf("rec %d/%d", s.Recovered, s.FirstPassMisses))
	}
	if s.NoAnswerCases > 0 {
		parts = append(parts, fmt.Sprintf("none %d/%d", s.NothingFits, s.NoAnswerCases))
	}
	if s.Citations > 0 {
		parts = append(parts, fmt.Sprintf("prec %d/%d", s.Citations-s.FalseCitations, s.Citations))
	}
	return strings.Join(parts, " ")
}
