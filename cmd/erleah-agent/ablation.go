package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/erleah/erleah-agent/eval"
	"github.com/erleah/erleah-agent/search"
)

// printAblations runs every set with all techniques on, then once with
// each technique off, and prints a Markdown table of the reflection mode's
// figures (with mechanical relaxation's answer hit rate beside them).
func printAblations(ctx context.Context, w io.Writer, cfg config, c common, runs []evalRun, log *slog.Logger) error {
	names := append([]string{""}, search.TechniqueNames()...)
	fmt.Fprint(w, "| turned off |")
	for _, run := range runs {
		fmt.Fprintf(w, " %s: hit / precision / nothing fits / recovery (mechanical hit) |", run.name)
	}
	fmt.Fprint(w, "\n|---|")
	for range runs {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for _, name := range names {
		if err := ablationRow(ctx, w, cfg, c, runs, log, name); err != nil {
			return err
		}
	}
	return nil
}

func ablationRow(ctx context.Context, w io.Writer, cfg config, c common, runs []evalRun, log *slog.Logger, name string) error {
	label := "nothing (all on)"
	off := search.Ablation{}
	if name != "" {
		label, off = name, search.Ablation{name: true}
	}
	fmt.Fprintf(w, "| %s |", label)
	for _, run := range runs {
		rep, err := runEval(ctx, cfg, c, run, []eval.Mode{eval.Reflection, eval.Mechanical}, log, off)
		if err != nil {
			return fmt.Errorf("eval %s without %s: %w", run.name, label, err)
		}
		r, m := rep.Summary[eval.Reflection], rep.Summary[eval.Mechanical]
		fmt.Fprintf(w, " %.2f / %.2f / %.2f / %.2f (%.2f) |", r.AnswerHitRate, r.AnswerPrecision, r.NothingFitsRate, r.RecoveryRate, m.AnswerHitRate)
	}
	fmt.Fprintln(w)
	return nil
}
