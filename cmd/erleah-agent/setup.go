package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"strings"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/hashembed"
	"github.com/erleah/erleah-agent/search/memsearch"
)

// common holds the flags every offline command shares (contract §1).
type common struct {
	data       string
	conference string
	reflection string
	json       bool
	maxRetries int
}

func (c *common) register(fs *flag.FlagSet, env settings, reflectionValues string) {
	fs.StringVar(&c.data, "data", env.DataFile, "conference bundle `file` (default: the demo bundle compiled in)")
	fs.StringVar(&c.conference, "conference", "", "conference `id` (default: the bundle's first)")
	def := "on"
	if !env.Reflection {
		def = "off"
	}
	fs.StringVar(&c.reflection, "reflection", def, "reflection "+reflectionValues)
	fs.BoolVar(&c.json, "json", false, "machine-readable JSON on stdout, nothing else")
	fs.IntVar(&c.maxRetries, "max-retries", env.MaxRetries, "retry rounds after the first search (0..5)")
}

// parseArgs parses flags wherever they appear among the positional
// arguments, so `ask "question" --json` works.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, usagef("%v", err)
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// loadBundle reads the bundle at path, or the demo bundle when path is empty.
func loadBundle(path string) (*conference.Bundle, error) {
	opts := conference.Options{FacetKeys: search.FacetKeys()}
	if path == "" {
		return conference.Demo(opts)
	}
	return conference.LoadFile(path, opts)
}

// newEngine indexes a bundle with the offline embedder in memory.
func newEngine(ctx context.Context, b *conference.Bundle) (*search.Engine, error) {
	emb := hashembed.New(0)
	eng, err := search.NewEngine(emb, memsearch.New(emb.Dim()))
	if err != nil {
		return nil, err
	}
	if err := eng.Load(ctx, b); err != nil {
		return nil, err
	}
	return eng, nil
}

// pickConference returns the conference with id, or the bundle's first when
// id is empty; an unknown id is a usage error naming the available ones.
func pickConference(b *conference.Bundle, id string) (agent.Conference, error) {
	if id == "" {
		id = b.Conferences[0].ID
	}
	c, ok := b.Conference(id)
	if !ok {
		return agent.Conference{}, usagef("unknown conference %q; available: %s", id, strings.Join(b.ConferenceIDs(), ", "))
	}
	return agent.Conference{ID: c.ID, Name: c.Name, Venue: c.Venue, StartsOn: c.StartsOn, EndsOn: c.EndsOn}, nil
}

func newAgent(eng *search.Engine, mechanical bool, maxRetries int, log *slog.Logger) *agent.Agent {
	if maxRetries == 0 {
		maxRetries = -1 // agent.Options: negative means no retries
	}
	return agent.New(rules.New(), eng, agent.Options{Mechanical: mechanical, MaxRetries: maxRetries, Logger: log})
}

func checkRetries(n int) error {
	if n < 0 || n > 5 {
		return usagef("--max-retries %d is outside 0..5", n)
	}
	return nil
}
