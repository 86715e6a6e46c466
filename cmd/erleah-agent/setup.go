package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/prompts"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/embedcache"
	"github.com/erleah/erleah-agent/search/hashembed"
	"github.com/erleah/erleah-agent/search/memsearch"
	"github.com/erleah/erleah-agent/search/weaviatesearch"
	"github.com/erleah/erleah-agent/translate"
)

// common holds the flags every offline command shares (contract §1).
type common struct {
	data       string
	conference string
	reflection string
	json       bool
	maxRetries int
	noHistory  bool // eval: cases run without their history
	// translator is opened once per command and shared by its runs.
	translator agent.Translator
}

func (c *common) register(fs *flag.FlagSet, cfg config, reflectionValues string) {
	fs.StringVar(&c.data, "data", cfg.DataFile, "conference bundle `file` (default: the demo bundle compiled in)")
	fs.StringVar(&c.conference, "conference", "", "conference `id` (default: the bundle's first)")
	def := "on"
	if !cfg.Reflection {
		def = "off"
	}
	fs.StringVar(&c.reflection, "reflection", def, "reflection "+reflectionValues)
	fs.BoolVar(&c.json, "json", false, "machine-readable JSON on stdout, nothing else")
	fs.IntVar(&c.maxRetries, "max-retries", cfg.MaxRetries, "retry rounds after the first search (0..5)")
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
	if path == "" {
		return conference.Demo()
	}
	return conference.LoadFile(path)
}

// newEmbedder returns the configured embedder: the offline hash embedder,
// or a provider model behind the disk cache in the state directory.
func newEmbedder(ctx context.Context, cfg config) (search.Embedder, error) {
	spec, _ := cfg.embedderSpec()
	if spec.Provider == "" {
		return hashembed.New(0), nil
	}
	levels, _ := cfg.levels()
	cache, err := embedcache.Open(filepath.Join(cfg.stateDir(), "embeddings"), spec.String())
	if err != nil {
		return nil, err
	}
	inner, err := llm.NewEmbedder(ctx, spec, cfg.llmConfig(), cache.Dim(), llm.DefaultBatch, levels)
	if err != nil {
		return nil, err
	}
	return cache.Wrap(inner)
}

// newIndex is an empty in-memory search engine with the configured embedder.
func newIndex(ctx context.Context, cfg config) (*search.Engine, error) {
	emb, err := newEmbedder(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("embedder: %w", err)
	}
	idx, err := newVectorIndex(ctx, cfg, emb.Dim())
	if err != nil {
		return nil, err
	}
	return search.NewEngine(emb, idx)
}

// newVectorIndex is the configured search driver: in memory, or a
// collection in Weaviate shared by every replica.
func newVectorIndex(ctx context.Context, cfg config, dim int) (search.Index, error) {
	if cfg.SearchBackend != "weaviate" {
		return memsearch.New(dim), nil
	}
	idx, err := weaviatesearch.New(ctx, weaviatesearch.Config{URL: cfg.WeaviateURL, GRPCAddr: cfg.WeaviateGRPC, APIKey: string(cfg.WeaviateKey), Collection: cfg.WeaviateClass, Dim: dim})
	if err != nil {
		return nil, fmt.Errorf("SEARCH_BACKEND=weaviate: %w", err)
	}
	return idx, nil
}

// newEngine indexes a bundle for a one-off command (ask, eval) with the
// configured embedder and driver, and logs what it indexed. In Weaviate it
// uses its own collection (WEAVIATE_COLLECTION + "Offline"): loading a
// bundle deletes what the collection holds of the bundle's conferences
// beyond it, which must never touch the index serve keeps.
func newEngine(ctx context.Context, cfg config, b *conference.Bundle, log *slog.Logger, off search.Ablation) (*search.Engine, error) {
	cfg.WeaviateClass += "Offline"
	eng, err := newIndex(ctx, cfg)
	if err != nil {
		return nil, err
	}
	eng.Ablate(off)
	rep, err := eng.Load(ctx, b)
	if err != nil {
		return nil, err
	}
	rep.Log(log)
	return eng, nil
}

// newModel opens the prompt and model registries in the state directory
// and returns the router that sends each step to its model. onBreaker, when
// set, hears each provider model's circuit breaker change state.
func newModel(cfg config, log *slog.Logger, off search.Ablation, onBreaker func(model, state string)) (*llm.Router, *prompts.Registry, error) {
	dir := cfg.stateDir()
	p, warnings, err := prompts.Open(filepath.Join(dir, "prompts.json"))
	if err != nil {
		return nil, nil, err
	}
	steps, err := cfg.stepModels()
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	lc := cfg.llmConfig()
	lc.OnBreakerChange = onBreaker
	r, more, err := llm.OpenRouter(filepath.Join(dir, "models.json"), steps, lc, p, &rules.Model{Off: off})
	if err != nil {
		return nil, nil, err
	}
	for _, w := range append(warnings, more...) {
		log.Warn("registry entry replaced by its default", "detail", w)
	}
	return r, p, nil
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

// agentOptions are the agent's options from the configuration and flags.
func agentOptions(cfg config, mechanical bool, maxRetries int, tr agent.Translator, log *slog.Logger) agent.Options {
	if maxRetries == 0 {
		maxRetries = -1 // agent.Options: negative means no retries
	}
	return agent.Options{Mechanical: mechanical, MaxRetries: maxRetries, Fallback: rules.New(), Logger: log,
		EvaluateFeedback: cfg.EvaluateFeedback, RegenerationThreshold: cfg.RegenThreshold, Translator: tr}
}

// newTranslator opens what TRANSLATE asks for: Apertium's machine
// translation, and FreeDict's dictionaries to English (DICT_DIR) for the
// languages Apertium does not read; auto uses what is installed, on
// requires Apertium, off uses neither. Without one, questions in other
// languages are searched by the words they share with English.
func newTranslator(ctx context.Context, cfg config, log *slog.Logger) (agent.Translator, error) {
	if cfg.Translate == "off" {
		return nil, nil
	}
	var tr translate.First
	var langs []string
	a, err := translate.NewApertium(ctx, cfg.ApertiumBin)
	switch {
	case err != nil && cfg.Translate == "on":
		return nil, fmt.Errorf("TRANSLATE=on: %w (scripts/translate/install.sh installs it)", err)
	case err != nil:
		log.Info("no machine translation", "reason", err)
	default:
		tr, langs = append(tr, a), a.Languages()
	}
	if g := translate.NewGlossary(cfg.DictDir); len(g.Languages()) > 0 {
		tr, langs = append(tr, g), append(langs, g.Languages()...)
	}
	if len(tr) == 0 {
		log.Info("questions in other languages are read by the words they share with English")
		return nil, nil
	}
	slices.Sort(langs)
	log.Info("questions in other languages are read in English", "languages", strings.Join(slices.Compact(langs), ","))
	return tr, nil
}

func checkRetries(n int) error {
	if n < 0 || n > 5 {
		return usagef("--max-retries %d is outside 0..5", n)
	}
	return nil
}

// openMemory opens the reflection memory: the Directus collection
// agent_reflections when Directus is configured, else a file under
// STATE_DIR; nil with MEMORY_ENABLED=false.
func openMemory(ctx context.Context, cfg config, c *directus.Client, log *slog.Logger) (*memory.Bank, error) {
	if !cfg.Memory {
		return nil, nil
	}
	var backend memory.Backend = memory.NewFile(filepath.Join(cfg.stateDir(), "reflections.json"))
	where := "file " + filepath.Join(cfg.stateDir(), "reflections.json")
	if c != nil {
		backend, where = memory.NewDirectus(c), "Directus agent_reflections"
	}
	bank, err := memory.Open(ctx, backend, memory.Options{})
	if err != nil {
		return nil, fmt.Errorf("reflection memory (%s): %w (run erleah-agent directus setup, or set MEMORY_ENABLED=false)", where, err)
	}
	log.Info("reflection memory", "store", where, "lessons", len(bank.List("")))
	return bank, nil
}
