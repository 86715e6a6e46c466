package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"

	"github.com/erleah/erleah-agent/eval"
	"github.com/erleah/erleah-agent/search"
)

// printAblations runs every set with all techniques on, then once with
// each technique off, and prints a Markdown table of the reflection mode's
// figures with mechanical relaxation's beside them: one column per role
// (tuning, held-out), its sets pooled, so that a technique is judged on
// every case of a role at once rather than set by set.
func printAblations(ctx context.Context, w io.Writer, cfg config, c common, runs []evalRun, log *slog.Logger) error {
	roles := runRoles(runs)
	fmt.Fprint(w, "| turned off |")
	for _, role := range roles {
		fmt.Fprintf(w, " %s: hit / precision / nothing fits / recovered (mechanical: hit, recovered) |", roleLabel(role, runs))
	}
	fmt.Fprint(w, "\n|---|")
	for range roles {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for _, name := range append([]string{""}, search.TechniqueNames()...) {
		if err := ablationRow(ctx, w, cfg, c, runs, roles, log, name); err != nil {
			return err
		}
	}
	return nil
}

func ablationRow(ctx context.Context, w io.Writer, cfg config, c common, runs []evalRun, roles []eval.Role, log *slog.Logger, name string) error {
	label := "nothing (all on)"
	off := search.Ablation{}
	if name != "" {
		label, off = name, search.Ablation{name: true}
	}
	reports := map[eval.Role]map[string]*eval.Report{}
	for _, run := range runs {
		rep, err := runEval(ctx, cfg, c, run, []eval.Mode{eval.Reflection, eval.Mechanical}, log, off)
		if err != nil {
			return fmt.Errorf("eval %s without %s: %w", run.name, label, err)
		}
		if reports[run.role] == nil {
			reports[run.role] = map[string]*eval.Report{}
		}
		reports[run.role][run.name] = rep
	}
	fmt.Fprintf(w, "| %s |", label)
	for _, role := range roles {
		p := eval.Pool(reports[role])
		r, m := p.Summary[eval.Reflection], p.Summary[eval.Mechanical]
		fmt.Fprintf(w, " %d/%d / %.3f / %d/%d / %d (%d, %d) |", r.AnswerHits, r.AnswerableCases, r.AnswerPrecision,
			r.NothingFits, r.NoAnswerCases, r.Recovered, m.AnswerHits, m.Recovered)
	}
	fmt.Fprintln(w)
	return nil
}

// runRoles lists the roles of the runs, tuning first.
func runRoles(runs []evalRun) []eval.Role {
	var out []eval.Role
	for _, role := range []eval.Role{eval.Tuning, eval.HeldOut} {
		if slices.ContainsFunc(runs, func(r evalRun) bool { return r.role == role }) {
			out = append(out, role)
		}
	}
	return out
}

// roleLabel names a column: the one set, or the role and how many sets
// it pools.
func roleLabel(role eval.Role, runs []evalRun) string {
	var names []string
	for _, r := range runs {
		if r.role == role {
			names = append(names, r.name)
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return fmt.Sprintf("%s, %d sets pooled", role, len(names))
}
