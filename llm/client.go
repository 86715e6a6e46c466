package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/prompts"
)

// Client is one provider model behind agent.Model. It is safe for
// concurrent use.
type Client struct {
	spec        Spec
	gen         llms.Model
	prompts     *prompts.Registry
	breaker     *breaker
	callTimeout time.Duration
	idleTimeout time.Duration
}

// NewClient returns a client for a real provider's model, rendering the
// prompts of p.
func NewClient(spec Spec, cfg Config, p *prompts.Registry) (*Client, error) {
	if err := cfg.Check(spec); err != nil {
		return nil, err
	}
	hc := cfg.httpClient()
	var gen llms.Model
	var err error
	switch spec.Provider {
	case Anthropic:
		opts := []anthropic.Option{anthropic.WithToken(cfg.AnthropicKey), anthropic.WithModel(spec.Model), anthropic.WithHTTPClient(hc)}
		if cfg.AnthropicBaseURL != "" {
			opts = append(opts, anthropic.WithBaseURL(cfg.AnthropicBaseURL))
		}
		gen, err = anthropic.New(opts...)
	case OpenAI:
		gen, err = openai.New(cfg.openAIOptions(hc, openai.WithModel(spec.Model))...)
	case Ollama:
		gen, err = ollama.New(cfg.ollamaOptions(hc, spec.Model)...)
	default:
		return nil, fmt.Errorf("llm: %s is not a provider model", spec)
	}
	if err != nil {
		return nil, fmt.Errorf("llm: create %s client: %w", spec, err)
	}
	return &Client{spec: spec, gen: gen, prompts: p, breaker: newBreaker(spec.String(), cfg),
		callTimeout: cfg.CallTimeout, idleTimeout: cfg.StreamIdleTimeout}, nil
}

// orNone gives OpenAI-compatible servers without keys a placeholder, since
// the client refuses an empty token.
func orNone(key string) string {
	if key == "" {
		return "none"
	}
	return key
}

// stepLimits are the output token limit and temperature of each step.
var stepLimits = map[agent.Step]struct {
	maxTokens   int
	temperature float64
	json        bool
}{
	agent.StepPlan:    {1024, 0, true},
	agent.StepReflect: {1024, 0, true},
	agent.StepRespond: {1500, 0.2, false},
	agent.StepEval:    {512, 0, true},
	agent.StepAck:     {100, 0.4, false},
}

// Complete renders the step's prompt, calls the model and returns its text.
// Answers stream through call.Stream. Failures come back as *Error; while
// the model's breaker is open, at once and without calling the provider.
func (c *Client) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	comp := agent.Completion{Model: c.spec.String()}
	r, err := c.prompts.Render(call.Step, prompts.FromCall(call))
	if err != nil {
		return comp, fmt.Errorf("llm: %w", err)
	}
	comp.PromptVersion = r.Version
	probe, err := c.breaker.admit()
	if err != nil {
		return comp, &Error{Model: c.spec.String(), Step: string(call.Step), Class: Cooldown, Err: err}
	}
	comp.Text, comp.Usage, err = c.generate(ctx, call, r)
	c.breaker.record(probe, err)
	return comp, err
}

// Breaker reports the state of the model's circuit breaker.
func (c *Client) Breaker() BreakerState { return c.breaker.snapshot() }

// generate makes the call within its time budgets.
func (c *Client) generate(ctx context.Context, call agent.Call, r prompts.Rendered) (string, agent.Usage, error) {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, r.System),
		llms.TextParts(llms.ChatMessageTypeHuman, r.User),
	}
	rec := &record{halted: c.breaker.isOpen}
	ctx, w, release := c.budget(ctx, call, rec)
	defer release()
	resp, err := c.gen.GenerateContent(withRecord(ctx, rec), msgs, c.options(call, w)...)
	if err == nil && ctx.Err() != nil {
		err = context.Cause(ctx) // a stream cut by a deadline can end without an error
	}
	if err != nil {
		return "", agent.Usage{}, classify(ctx, c.spec.String(), string(call.Step), rec, err)
	}
	text, usage := contents(resp)
	if strings.TrimSpace(text) == "" {
		return text, usage, classify(ctx, c.spec.String(), string(call.Step), rec, errors.New("empty reply"))
	}
	return text, usage, nil
}

// options are the call's langchaingo options; a stream's chunks also feed
// its idle watch.
func (c *Client) options(call agent.Call, w *watch) []llms.CallOption {
	lim := stepLimits[call.Step]
	opts := []llms.CallOption{llms.WithModel(c.spec.Model), llms.WithMaxTokens(lim.maxTokens), llms.WithTemperature(lim.temperature)}
	if lim.json && c.spec.Provider != Anthropic { // Anthropic has no JSON mode; the prompt asks for JSON
		opts = append(opts, llms.WithJSONMode())
	}
	if call.Stream != nil {
		stream := call.Stream
		opts = append(opts, llms.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
			if len(chunk) > 0 {
				w.chunk()
				stream(string(chunk))
			}
			return nil
		}))
	}
	return opts
}

// contents joins the text of every choice (Anthropic returns one per
// content block) and reads the token counts, whose keys differ by provider.
func contents(resp *llms.ContentResponse) (string, agent.Usage) {
	var b strings.Builder
	var u agent.Usage
	for _, ch := range resp.Choices {
		b.WriteString(ch.Content)
		u.InputTokens = max(u.InputTokens, intOf(ch.GenerationInfo, "InputTokens", "PromptTokens"))
		u.OutputTokens = max(u.OutputTokens, intOf(ch.GenerationInfo, "OutputTokens", "CompletionTokens"))
	}
	return b.String(), u
}

func intOf(m map[string]any, keys ...string) int {
	for _, k := range keys {
		switch v := m[k].(type) {
		case int:
			return v
		case int64:
			return int(v)
		case float64:
			return int(v)
		}
	}
	return 0
}

// openAIOptions are the client options for an OpenAI-compatible server,
// with the model option given (chat or embedding).
func (c Config) openAIOptions(hc *http.Client, model openai.Option) []openai.Option {
	opts := []openai.Option{openai.WithToken(orNone(c.OpenAIKey)), model, openai.WithHTTPClient(hc)}
	if c.OpenAIBaseURL != "" {
		opts = append(opts, openai.WithBaseURL(c.OpenAIBaseURL))
	}
	return opts
}

// ollamaOptions are the client options for an Ollama server and model.
func (c Config) ollamaOptions(hc *http.Client, model string) []ollama.Option {
	opts := []ollama.Option{ollama.WithModel(model), ollama.WithHTTPClient(hc)}
	if c.OllamaURL != "" {
		opts = append(opts, ollama.WithServerURL(c.OllamaURL))
	}
	return opts
}
