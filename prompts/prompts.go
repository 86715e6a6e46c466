// Package prompts holds the prompts of every model step: embedded template
// files, written in the project's own words and rendered from the agent's
// typed inputs, and a runtime Registry through which an operator can read
// and replace a step's prompt without a redeploy (persisted and versioned).
//
// Each template defines two blocks: "system" (the instructions) and "user"
// (the data). Conference and attendee text appears only inside <data> tags,
// JSON-encoded so that it cannot close the tag, and every system prompt says
// that it is information, never instructions.
package prompts

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"strings"
	"sync"
	"text/template"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/registry"
)

//go:embed templates/*.tmpl
var files embed.FS

// MaxPromptBytes bounds an operator's prompt.
const MaxPromptBytes = 32 << 10

// Data is what a prompt is rendered from: the input of one model call.
type Data struct {
	Plan    *agent.PlanInput
	Reflect *agent.ReflectInput
	Respond *agent.RespondInput
	Eval    *agent.EvalInput
	Ack     *agent.AckInput
	Repair  *agent.Repair
}

// FromCall takes the rendering data from a model call.
func FromCall(c agent.Call) Data {
	return Data{Plan: c.Plan, Reflect: c.Reflect, Respond: c.Respond, Eval: c.Eval, Ack: c.Ack, Repair: c.Repair}
}

// Rendered is a prompt ready to send, with the version of its template.
type Rendered struct {
	System  string
	User    string
	Version int
}

// Prompt is one step's current prompt in the registry.
type Prompt = registry.Entry[string]

// Defaults returns the embedded template text of every model step.
func Defaults() map[string]string {
	out := map[string]string{}
	for _, s := range agent.ModelSteps {
		data, err := files.ReadFile("templates/" + string(s) + ".tmpl")
		if err != nil {
			panic("prompts: missing template for " + string(s)) // a build-time asset; tests cover it
		}
		out[string(s)] = string(data)
	}
	return out
}

// Registry renders each step's current prompt. It is safe for concurrent use.
type Registry struct {
	store *registry.Store[string]
	mu    sync.Mutex
	cache map[string]compiled
}

type compiled struct {
	version int
	tmpl    *template.Template
}

// Open returns a registry persisted at path ("" keeps it in memory). Stored
// prompts that no longer parse or render are replaced by the defaults and
// reported in the warnings.
func Open(path string) (*Registry, []string, error) {
	store, warnings, err := registry.Open(path, Defaults(), validate)
	if err != nil {
		return nil, nil, fmt.Errorf("prompts: %w", err)
	}
	return &Registry{store: store, cache: map[string]compiled{}}, warnings, nil
}

// Get returns the current prompt of a step.
func (r *Registry) Get(step agent.Step) (Prompt, error) { return r.store.Get(string(step)) }

// List returns every step's current prompt.
func (r *Registry) List() []Prompt { return r.store.List() }

// History returns a step's earlier prompts, oldest first.
func (r *Registry) History(step agent.Step) []Prompt { return r.store.History(string(step)) }

// Set replaces a step's prompt. The text must define the "system" and
// "user" blocks and render for that step; the next turn uses it.
func (r *Registry) Set(step agent.Step, text string) (Prompt, error) {
	return r.store.Set(string(step), text)
}

// Reset restores a step's default prompt as a new version.
func (r *Registry) Reset(step agent.Step) (Prompt, error) { return r.store.Reset(string(step)) }

// Render renders a step's current prompt from d.
func (r *Registry) Render(step agent.Step, d Data) (Rendered, error) {
	p, err := r.store.Get(string(step))
	if err != nil {
		return Rendered{}, err
	}
	t, err := r.template(p)
	if err != nil {
		return Rendered{}, err
	}
	sys, user, err := execute(t, d)
	if err != nil {
		return Rendered{}, fmt.Errorf("prompts: render %s v%d: %w", step, p.Version, err)
	}
	return Rendered{System: sys, User: user, Version: p.Version}, nil
}

func (r *Registry) template(p Prompt) (*template.Template, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.cache[p.Key]; ok && c.version == p.Version {
		return c.tmpl, nil
	}
	t, err := parse(p.Key, p.Value)
	if err != nil {
		return nil, err
	}
	r.cache[p.Key] = compiled{version: p.Version, tmpl: t}
	return t, nil
}

// parse compiles a step's template together with the shared repair block.
func parse(step, text string) (*template.Template, error) {
	repair, err := files.ReadFile("templates/repair.tmpl")
	if err != nil {
		return nil, err
	}
	t, err := template.New(step).Funcs(funcs).Option("missingkey=error").Parse(string(repair))
	if err != nil {
		return nil, err
	}
	if t, err = t.Parse(text); err != nil {
		return nil, fmt.Errorf("prompts: %s does not parse: %w", step, err)
	}
	for _, block := range []string{"system", "user"} {
		if t.Lookup(block) == nil {
			return nil, fmt.Errorf("prompts: %s does not define {{define %q}}", step, block)
		}
	}
	return t, nil
}

func execute(t *template.Template, d Data) (string, string, error) {
	var sys, user bytes.Buffer
	if err := t.ExecuteTemplate(&sys, "system", d); err != nil {
		return "", "", err
	}
	if err := t.ExecuteTemplate(&user, "user", d); err != nil {
		return "", "", err
	}
	return strings.TrimSpace(sys.String()), strings.TrimSpace(user.String()), nil
}

// validate accepts a prompt that parses, defines both blocks and renders a
// non-empty system and user message from the step's sample data.
func validate(step, text string) error {
	if len(text) > MaxPromptBytes {
		return fmt.Errorf("prompt longer than %d bytes", MaxPromptBytes)
	}
	t, err := parse(step, text)
	if err != nil {
		return err
	}
	sys, user, err := execute(t, Sample(agent.Step(step), false))
	if err != nil {
		return fmt.Errorf("prompt does not render: %w", err)
	}
	if sys == "" || user == "" {
		return errors.New("the system and user blocks must both produce text")
	}
	return nil
}
