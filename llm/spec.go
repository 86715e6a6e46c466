// Package llm connects the agent to real language models through
// langchaingo (github.com/tmc/langchaingo v0.1.14): Anthropic, any
// OpenAI-compatible server, and Ollama, each behind agent.Model so that the
// agent cannot tell them from the builtin rules.
//
// It renders the project's prompts, asks for JSON where a step needs it,
// streams answers, retries transient failures (timeouts, 429, 5xx) with
// capped, jittered exponential backoff that honours Retry-After within the
// call's deadline, and classifies what fails for good (400, 401, 403, 404) so
// that the agent falls back at once. Each call has time budgets (a call
// timeout, and an idle timeout for streams), and each provider model a
// circuit breaker shared by all turns, which refuses calls at once while
// the model is down or asked for a pause. A Router picks each step's model
// from a runtime registry that operators can change without a redeploy.
package llm

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Providers.
const (
	Anthropic = "anthropic"
	OpenAI    = "openai"
	Ollama    = "ollama"
	Builtin   = "builtin"
)

// Spec names a model as "provider:model"; the builtin rules are "builtin".
type Spec struct {
	Provider string
	Model    string
}

// ParseSpec parses "anthropic:claude-sonnet-4-5", "openai:gpt-4o-mini",
// "ollama:llama3.1" or "builtin". The model name is required for real
// providers: langchaingo's own Anthropic default is a retired model.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	if s == Builtin {
		return Spec{Provider: Builtin}, nil
	}
	provider, model, ok := strings.Cut(s, ":")
	provider, model = strings.TrimSpace(provider), strings.TrimSpace(model)
	switch {
	case !ok || model == "":
		return Spec{}, fmt.Errorf("model %q: want provider:model (anthropic, openai, ollama) or builtin", s)
	case !slices.Contains([]string{Anthropic, OpenAI, Ollama}, provider):
		return Spec{}, fmt.Errorf("model %q: unknown provider %q (want anthropic, openai, ollama or builtin)", s, provider)
	}
	return Spec{Provider: provider, Model: model}, nil
}

func (s Spec) String() string {
	if s.Provider == Builtin {
		return Builtin
	}
	return s.Provider + ":" + s.Model
}

// Config holds the providers' credentials and endpoints and how calls are
// made. The zero value reaches no provider.
type Config struct {
	AnthropicKey     string
	AnthropicBaseURL string // include /v1; default https://api.anthropic.com/v1
	OpenAIKey        string
	OpenAIBaseURL    string // include /v1; any OpenAI-compatible server
	OllamaURL        string // default http://127.0.0.1:11434
	// Transport carries provider requests; http.DefaultTransport when nil.
	// Retries are layered on top of it.
	Transport http.RoundTripper
	Retry     RetryPolicy
	// CallTimeout bounds a call, its retries included; for a streamed call,
	// the wait for its first chunk. Zero: only the caller's deadline.
	CallTimeout time.Duration
	// StreamIdleTimeout is the longest a streamed call may go without a
	// chunk, counting from its start. Zero: no limit.
	StreamIdleTimeout time.Duration
	// Breaker says when a model's circuit breaker opens.
	Breaker BreakerPolicy
	// OnBreakerChange, when set, hears each model's breaker state as it
	// changes (BreakerClosed first, at the model's first call). It runs
	// under the breaker's lock: it must be quick and not call the model.
	OnBreakerChange func(model, state string)
	// Now is the breakers' clock; time.Now when nil.
	Now func() time.Time
}

// Check reports whether spec can be used with this configuration.
func (c Config) Check(s Spec) error {
	switch {
	case s.Provider == Anthropic && c.AnthropicKey == "":
		return fmt.Errorf("model %s needs ANTHROPIC_API_KEY", s)
	case s.Provider == OpenAI && c.OpenAIKey == "" && c.OpenAIBaseURL == "":
		return fmt.Errorf("model %s needs OPENAI_API_KEY (or OPENAI_BASE_URL for a server without keys)", s)
	}
	return nil
}

// DefaultModel is the model every step uses when MODEL is not set: the
// first provider with credentials, else the builtin rules.
func (c Config) DefaultModel() Spec {
	switch {
	case c.AnthropicKey != "":
		return Spec{Provider: Anthropic, Model: "claude-sonnet-4-5"}
	case c.OpenAIKey != "" || c.OpenAIBaseURL != "":
		return Spec{Provider: OpenAI, Model: "gpt-4o-mini"}
	}
	return Spec{Provider: Builtin}
}

func (c Config) httpClient() *http.Client {
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	return &http.Client{Transport: &retryTransport{base: base, policy: c.Retry.withDefaults(), sleep: sleepCtx}}
}

// RetryPolicy bounds retries of transient failures.
type RetryPolicy struct {
	MaxAttempts int           // 3 when zero
	BaseDelay   time.Duration // 250 ms when zero
	MaxDelay    time.Duration // 4 s when zero
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 3
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 250 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 4 * time.Second
	}
	return p
}
