package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/chat"
)

func cmdAsk(ctx context.Context, args []string, stdout, stderr io.Writer, cfg config) error {
	fs := newFlagSet("ask", stderr)
	var c common
	c.register(fs, cfg, "on|off")
	timeout := fs.Duration("timeout", cfg.TurnTimeout, "deadline for the whole turn")
	now := fs.String("now", "", "the moment the question counts as asked at, RFC 3339 (default: the clock), for \"tomorrow\" or \"what's next?\"")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: erleah-agent ask [flags] "question"`)
		fs.PrintDefaults()
	}
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	question := strings.Join(pos, " ")
	if err := agent.ValidateMessage(question); err != nil {
		return usagef("%s", strings.TrimPrefix(err.Error(), agent.ErrInvalidRequest.Error()+": "))
	}
	asked, err := agent.ParseClock(*now)
	if err != nil {
		return usagef("--now %v", err)
	}
	mechanical, err := reflectionOff(c.reflection)
	if err != nil {
		return err
	}
	if err := checkRetries(c.maxRetries); err != nil {
		return err
	}
	if *timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	b, err := loadBundle(c.data)
	if err != nil {
		return err
	}
	conf, err := pickConference(b, c.conference)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	eng, err := newEngine(ctx, cfg, b, log, nil)
	if err != nil {
		return fmt.Errorf("index conference: %w", err)
	}
	model, _, err := newModel(cfg, log, nil, nil)
	if err != nil {
		return err
	}
	tr, err := newTranslator(ctx, cfg, log)
	if err != nil {
		return err
	}
	opts := agentOptions(cfg, mechanical, c.maxRetries, tr, log)
	opts.Acknowledge = !c.json
	ag := agent.New(model, eng, opts)
	tctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	p := &askPrinter{out: stdout, quiet: c.json}
	if !c.json {
		fmt.Fprintf(stdout, "%s (%s)\n", conf.Name, conf.ID)
	}
	st, err := ag.Run(tctx, agent.Request{TraceID: chat.NewTraceID(), Message: question, Conference: conf, Now: asked}, p.observe)
	if err != nil {
		return turnError(err, *timeout)
	}
	if !cfg.EvaluateFeedback {
		_, _ = ag.Evaluate(tctx, st) // recorded in the trace; a failed evaluation changes nothing
	}
	if c.json {
		return writeJSON(stdout, askOutput(st))
	}
	p.citations(st.Citations)
	warnings(stderr, st)
	return nil
}

// warnings tells the operator, on stderr, what the trace says went wrong
// with the model: replies refused (and why), keys ignored, calls failed.
// A provider's own error text stays in the trace (ask --json).
func warnings(w io.Writer, st *agent.State) {
	for _, r := range st.Rejections {
		fmt.Fprintf(w, "warning: %s reply from %s refused by check %s: %s\n", r.Step, r.Model, r.Check, r.Detail)
	}
	for _, k := range st.IgnoredKeys {
		fmt.Fprintf(w, "note: %s reply had keys the agent ignored: %s\n", k.Step, strings.Join(k.Keys, ", "))
	}
	for _, c := range st.ModelCalls {
		if c.Failed != "" && !c.Fallback && c.Step != agent.StepAck {
			fmt.Fprintf(w, "warning: %s call to %s failed; the fallback answered (details: ask --json)\n", c.Step, c.Model)
		}
	}
}

func reflectionOff(v string) (bool, error) {
	switch v {
	case "on":
		return false, nil
	case "off":
		return true, nil
	}
	return false, usagef("--reflection %q: want on or off", v)
}

func turnError(err error, timeout time.Duration) error {
	switch {
	case errors.Is(err, agent.ErrInvalidRequest):
		return usagef("%v", err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("the turn took longer than %s and was stopped", timeout)
	case errors.Is(err, context.Canceled):
		return errors.New("interrupted")
	}
	return err
}

// askPrinter prints a turn as it happens: the acknowledgment and thinking
// notes when they are made, then the answer as it streams, each block
// after one blank line.
type askPrinter struct {
	out   io.Writer
	quiet bool
	block string // what was printed last: "", "notes" or "answer"
}

func (p *askPrinter) observe(e agent.Event) {
	if p.quiet {
		return
	}
	switch e := e.(type) {
	case agent.Acknowledgment:
		p.start("notes")
		fmt.Fprintf(p.out, "%s\n", e.Text)
	case agent.Thinking:
		if e.Record.Strategy != agent.Acknowledge { // printed as itself
			p.start("notes")
			fmt.Fprintf(p.out, "~ %s\n", e.Record.Message)
		}
	case agent.Chunk:
		p.start("answer")
		fmt.Fprint(p.out, e.Text)
	case agent.Reset:
		fmt.Fprint(p.out, "\n(discarding that answer and trying again)\n")
	}
}

// start opens a block with a blank line, unless it is the one open.
func (p *askPrinter) start(block string) {
	if p.block != block {
		fmt.Fprintln(p.out)
		p.block = block
	}
}

func (p *askPrinter) citations(cs []agent.Citation) {
	if len(cs) == 0 {
		return
	}
	keys := make([]string, len(cs))
	for i, c := range cs {
		keys[i] = c.Key()
	}
	fmt.Fprintf(p.out, "\nCited: %s\n", strings.Join(keys, ", "))
}

// askJSON is what `ask --json` prints.
type askJSON struct {
	Answer         string                 `json:"answer"`
	Citations      []agent.Citation       `json:"citations"`
	ThinkingOutput []agent.ThinkingRecord `json:"thinking_output"`
	Strategies     []agent.Strategy       `json:"strategies"`
	Attempts       int                    `json:"attempts"`
	Trace          *agent.State           `json:"trace"`
}

func askOutput(st *agent.State) askJSON {
	out := askJSON{Answer: st.ResponseText, Citations: st.Citations, ThinkingOutput: st.ThinkingUpdates,
		Strategies: st.Strategies(), Attempts: st.Attempts, Trace: st}
	if out.Citations == nil {
		out.Citations = []agent.Citation{}
	}
	if out.ThinkingOutput == nil {
		out.ThinkingOutput = []agent.ThinkingRecord{}
	}
	return out
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
