package llm

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/prompts"
	"github.com/erleah/erleah-agent/registry"
)

// ModelEntry is one step's current model in the registry.
type ModelEntry = registry.Entry[string]

// Router is the agent's model: it sends each call to the model the registry
// currently assigns to the call's step (MODEL, MODEL_<STEP>, or an
// operator's runtime change). It is safe for concurrent use.
type Router struct {
	cfg     Config
	prompts *prompts.Registry
	builtin agent.Model
	models  *registry.Store[string]

	mu      sync.Mutex
	clients map[string]agent.Model
}

// OpenRouter returns a router whose model registry is persisted at path
// ("" keeps it in memory). defaults gives each step's model from the
// environment; a change an operator stored earlier wins over its default
// until reset. Stored models that can no longer be used (a key was removed)
// fall back to the default and are reported in the warnings.
func OpenRouter(path string, defaults map[agent.Step]Spec, cfg Config, p *prompts.Registry, builtin agent.Model) (*Router, []string, error) {
	defs := map[string]string{}
	for _, s := range agent.ModelSteps {
		spec, ok := defaults[s]
		if !ok {
			spec = cfg.DefaultModel()
		}
		if err := checkSpec(cfg, spec.String()); err != nil {
			return nil, nil, fmt.Errorf("llm: model for %s: %w", s, err)
		}
		defs[string(s)] = spec.String()
	}
	store, warnings, err := registry.Open(path, defs, func(_ string, v string) error { return checkSpec(cfg, v) })
	if err != nil {
		return nil, nil, fmt.Errorf("llm: %w", err)
	}
	return &Router{cfg: cfg, prompts: p, builtin: builtin, models: store, clients: map[string]agent.Model{}}, warnings, nil
}

func checkSpec(cfg Config, s string) error {
	spec, err := ParseSpec(s)
	if err != nil {
		return err
	}
	return cfg.Check(spec)
}

// Complete sends the call to its step's current model.
func (r *Router) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	m, err := r.model(call.Step)
	if err != nil {
		return agent.Completion{}, err
	}
	return m.Complete(ctx, call)
}

func (r *Router) model(step agent.Step) (agent.Model, error) {
	e, err := r.models.Get(string(step))
	if err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if m, ok := r.clients[e.Value]; ok {
		return m, nil
	}
	spec, err := ParseSpec(e.Value)
	if err != nil {
		return nil, err
	}
	var m agent.Model = r.builtin
	if spec.Provider != Builtin {
		if m, err = NewClient(spec, r.cfg, r.prompts); err != nil {
			return nil, err
		}
	}
	r.clients[e.Value] = m
	return m, nil
}

// Breakers reports the circuit breaker of every provider model called so
// far, sorted by model. A model never called has none yet: it is closed.
func (r *Router) Breakers() []BreakerState {
	r.mu.Lock()
	var clients []*Client
	for _, m := range r.clients {
		if c, ok := m.(*Client); ok {
			clients = append(clients, c)
		}
	}
	r.mu.Unlock()
	out := make([]BreakerState, 0, len(clients))
	for _, c := range clients {
		out = append(out, c.Breaker())
	}
	slices.SortFunc(out, func(a, b BreakerState) int { return strings.Compare(a.Model, b.Model) })
	return out
}

// Models lists each step's current model.
func (r *Router) Models() []ModelEntry { return r.models.List() }

// Model returns a step's current model.
func (r *Router) Model(step agent.Step) (ModelEntry, error) { return r.models.Get(string(step)) }

// SetModel assigns a model ("provider:model" or "builtin") to a step; it is
// checked against the configuration, persisted, and used from the next call.
func (r *Router) SetModel(step agent.Step, spec string) (ModelEntry, error) {
	return r.models.Set(string(step), spec)
}

// ResetModel gives a step back its default model.
func (r *Router) ResetModel(step agent.Step) (ModelEntry, error) { return r.models.Reset(string(step)) }
