package eval

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/memory"
)

//go:embed paraphrases/*.jsonl
var paraphraseFiles embed.FS

// ParaphraseSets names the paraphrase sets of the demo cases (the files in
// eval/paraphrases), each written apart from the code by someone who saw
// neither the code nor the other set: "demo" frozen before reflection
// memory existed (f4c3bec), "demo2" frozen after, before any memory change
// was measured on it (5bdfe34), "demo3" frozen in the seventh session
// before that session's memory changes.
func ParaphraseSets() []string {
	files, _ := fs.Glob(paraphraseFiles, "paraphrases/*.jsonl") // a valid pattern: never an error
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = strings.TrimSuffix(path.Base(f), ".jsonl")
	}
	return names
}

// Paraphrases returns the demo cases asked in other words, from the named
// paraphrase set: same ids, same relevant items.
func Paraphrases(cases []Case, set string) ([]Case, error) {
	data, err := paraphraseFiles.ReadFile("paraphrases/" + set + ".jsonl")
	if err != nil {
		return nil, fmt.Errorf("eval: unknown paraphrase set %q (known: %s)", set, strings.Join(ParaphraseSets(), ", "))
	}
	byID := map[string]string{}
	for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var l struct {
			ID      string `json:"id"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(line, &l); err != nil || l.ID == "" || l.Message == "" {
			return nil, fmt.Errorf("eval: paraphrases %s line %d: want {\"id\", \"message\"}: %v", set, i+1, err)
		}
		byID[l.ID] = l.Message
	}
	out := make([]Case, 0, len(cases))
	for _, c := range cases {
		m, ok := byID[c.ID]
		if !ok {
			return nil, fmt.Errorf("eval: paraphrases %s: no paraphrase of case %s", set, c.ID)
		}
		c.Message = m
		out = append(out, c)
	}
	return out, nil
}

// MemoryReport compares reflection with an empty memory that fills as the
// cases run (cold), the paraphrased cases with the memory the cold pass
// filled (warm), and the paraphrased cases with memory off.
type MemoryReport struct {
	Cold    Summary `json:"cold"`
	Warm    Summary `json:"warm"`
	Off     Summary `json:"paraphrases_memory_off"`
	Lessons int     `json:"lessons"`
	// WarmRecalls counts warm turns that acted on a remembered lesson.
	WarmRecalls int `json:"warm_recalls"`
}

// MemoryRun runs the memory experiment: newAgent builds a reflecting agent
// with the given memory (nil: off).
func (r *Runner) MemoryRun(ctx context.Context, cases, paraphrased []Case, newAgent func(agent.Memory) *agent.Agent) (*MemoryReport, error) {
	bank, err := memory.Open(ctx, nil, memory.Options{})
	if err != nil {
		return nil, err
	}
	learn := func(m *Runner) { m.Agents = map[Mode]*agent.Agent{Reflection: newAgent(bank)}; m.Bank = bank }
	rep := &MemoryReport{}
	cold, err := r.with(learn).Run(ctx, cases)
	if err != nil {
		return nil, err
	}
	rep.Cold, rep.Lessons = cold.Summary[Reflection], len(bank.List(""))
	warm, err := r.with(learn).Run(ctx, paraphrased)
	if err != nil {
		return nil, err
	}
	rep.Warm = warm.Summary[Reflection]
	for _, c := range warm.Cases {
		if c.Recalled > 0 {
			rep.WarmRecalls++
		}
	}
	off, err := r.with(func(m *Runner) { m.Agents = map[Mode]*agent.Agent{Reflection: newAgent(nil)} }).Run(ctx, paraphrased)
	if err != nil {
		return nil, err
	}
	rep.Off = off.Summary[Reflection]
	return rep, nil
}

// with returns a copy of the runner changed by f.
func (r *Runner) with(f func(*Runner)) *Runner {
	cp := *r
	f(&cp)
	return &cp
}

// learn stores what a finished turn's reflection rounds taught, and how
// the lessons it recalled served it.
func (r *Runner) learn(ctx context.Context, a *agent.Agent, st *agent.State) {
	if r.Bank == nil {
		return
	}
	_ = r.Bank.Used(ctx, st.RecalledIDs(), st.Helped())
	_ = r.Bank.Remember(ctx, a.Lessons(ctx, st))
}
