package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/erleah/erleah-agent/catalog"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
)

// errDrift ends index --check when the index differs from the conferences.
var errDrift = errors.New("index: the index differs from the conferences; erleah-agent index --rebuild repairs it")

// cmdIndex checks (--check) or repairs (--rebuild) the shared search index
// that serve keeps (SEARCH_BACKEND=weaviate, WEAVIATE_COLLECTION) against
// the conferences: from Directus when DIRECTUS_URL is set, as serve reads
// them, else DATA_FILE or the demo.
func cmdIndex(ctx context.Context, args []string, stdout, stderr io.Writer, cfg config) error {
	fs := newFlagSet("index", stderr)
	check := fs.Bool("check", false, "report how the index differs from the conferences; exit 1 when it does")
	rebuild := fs.Bool("rebuild", false, "write every entity again and delete what the conferences no longer have")
	if pos, err := parseArgs(fs, args); err != nil || len(pos) > 0 {
		return argsError(err, pos)
	}
	switch {
	case *check == *rebuild:
		return usagef("index: give one of --check or --rebuild")
	case cfg.SearchBackend != "weaviate":
		return usagef("index: SEARCH_BACKEND=%s keeps the index in memory, built at each start: there is nothing to check (set SEARCH_BACKEND=weaviate)", cfg.SearchBackend)
	}
	b, err := indexSource(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	eng, err := newIndex(ctx, cfg)
	if err != nil {
		return err
	}
	if *rebuild {
		if _, err := eng.Rebuild(ctx, b); err != nil {
			return fmt.Errorf("index: rebuild: %w", err)
		}
	}
	drift, err := eng.Drift(ctx, b)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	inSync := printDrift(stdout, drift)
	if !inSync {
		return errDrift
	}
	return nil
}

// indexSource reads the conferences the index must hold.
func indexSource(ctx context.Context, cfg config, stderr io.Writer) (*conference.Bundle, error) {
	if cfg.DirectusURL == "" {
		return loadBundle(cfg.DataFile)
	}
	c, err := cfg.directusClient()
	if err != nil {
		return nil, err
	}
	b, problems, err := catalog.New(c, nil, slog.New(slog.DiscardHandler)).Bundle(ctx)
	if err != nil {
		return nil, fmt.Errorf("index: read the conferences from %s: %w", cfg.DirectusURL, err)
	}
	for _, p := range problems {
		fmt.Fprintf(stderr, "index: conference data problem (that part dropped, as serve drops it): %s\n", p)
	}
	return b, nil
}

// printDrift writes one line per conference and reports whether every one
// is in sync.
func printDrift(w io.Writer, drift []search.ConferenceDrift) bool {
	inSync := true
	for _, d := range drift {
		if d.InSync() {
			fmt.Fprintf(w, "%s: in sync\n", d.ID)
			continue
		}
		inSync = false
		fmt.Fprintf(w, "%s: %d missing%s, %d changed%s, %d no longer in the conference%s\n", d.ID,
			len(d.Missing), examples(d.Missing), len(d.Changed), examples(d.Changed), len(d.Extra), examples(d.Extra))
	}
	return inSync
}

// examples names up to three refs: " (sessions/s1, …)".
func examples(refs []search.Ref) string {
	if len(refs) == 0 {
		return ""
	}
	var names []string
	for _, r := range refs[:min(3, len(refs))] {
		names = append(names, r.Key())
	}
	if len(refs) > 3 {
		names = append(names, "…")
	}
	return " (" + strings.Join(names, ", ") + ")"
}
