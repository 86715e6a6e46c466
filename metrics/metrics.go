// Package metrics defines the service's Prometheus metrics and records a
// turn's measurements from its events and final state. A Metrics is safe for
// concurrent use.
package metrics

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/when"
)

// Metrics holds every collector, registered on its own registry.
type Metrics struct {
	reg *prometheus.Registry

	Turns          *prometheus.CounterVec   // outcome
	StepSeconds    *prometheus.HistogramVec // step
	Strategies     *prometheus.CounterVec   // strategy, source
	Fallbacks      *prometheus.CounterVec   // step
	ModelCalls     *prometheus.CounterVec   // step, model, result
	OutputRejected *prometheus.CounterVec   // step, check
	Sanitised      *prometheus.CounterVec   // kind
	AnswerQuality  *prometheus.HistogramVec // source, reflection
	ModelTokens    *prometheus.CounterVec   // step, model, kind
	SearchSeconds  *prometheus.HistogramVec // table, mode
	QueueDepth     prometheus.Gauge
	ActiveTurns    prometheus.Gauge
	Rejected       *prometheus.CounterVec // reason
	DirectusErrors *prometheus.CounterVec // operation
	HTTPRequests   *prometheus.CounterVec // route, code
	HTTPSeconds    *prometheus.HistogramVec
	BreakerState   *prometheus.GaugeVec   // model: 0 closed, 1 half-open, 2 open
	BreakerOpened  *prometheus.CounterVec // model
	Untranslated   *prometheus.CounterVec // language
}

// New creates the collectors, with the Go and process collectors.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	f := factory{m.reg}
	m.Turns = f.counter("erleah_turns_total", "Turns by outcome (answered, fallback_answer, failed, timeout, canceled, rejected).", "outcome")
	m.StepSeconds = f.histogram("erleah_step_duration_seconds", "Duration of each step of a turn.", []float64{.0005, .001, .005, .01, .05, .1, .5, 1, 2.5, 5, 10, 30}, "step")
	m.Strategies = f.counter("erleah_reflection_strategies_total", "Reflection rounds by strategy and by who decided.", "strategy", "source")
	m.Fallbacks = f.counter("erleah_fallbacks_total", "Steps answered by the fallback (builtin rules or mechanical ladder).", "step")
	m.ModelCalls = f.counter("erleah_model_calls_total", "Model calls by step, model and result.", "step", "model", "result")
	m.AnswerQuality = f.histogram("erleah_answer_quality", "Evaluated quality of answers (0..1), by who wrote the answer and whether the turn reflected.",
		[]float64{.1, .2, .3, .4, .5, .6, .7, .8, .9, 1}, "source", "reflection")
	m.Sanitised = f.counter("erleah_output_sanitised_total", "Things taken out of answers: citations of items not retrieved, links no retrieved item has.", "kind")
	m.OutputRejected = f.counter("erleah_model_output_rejected_total", "Model replies refused by a validation check, by step and check.", "step", "check")
	m.ModelTokens = f.counter("erleah_model_tokens_total", "Model tokens by step, model and kind (input, output).", "step", "model", "kind")
	m.SearchSeconds = f.histogram("erleah_search_duration_seconds", "Duration of one search query.", []float64{.0001, .0005, .001, .005, .01, .05, .1, .5}, "table", "mode")
	m.QueueDepth = f.gauge("erleah_turn_queue_depth", "Turns waiting for a slot.")
	m.ActiveTurns = f.gauge("erleah_turns_active", "Turns running.")
	m.Rejected = f.counter("erleah_requests_rejected_total", "Requests refused before a turn started, by reason.", "reason")
	m.DirectusErrors = f.counter("erleah_directus_errors_total", "Failed Directus calls by operation.", "operation")
	m.HTTPRequests = f.counter("erleah_http_requests_total", "HTTP requests by route and status code.", "route", "code")
	m.HTTPSeconds = f.histogram("erleah_http_request_duration_seconds", "HTTP request duration until the handler returns.", prometheus.DefBuckets, "route")
	m.BreakerState = f.gaugeVec("erleah_model_breaker_state", "Each provider model's circuit breaker: 0 closed, 1 half-open, 2 open.", "model")
	m.BreakerOpened = f.counter("erleah_model_breaker_opened_total", "Times each provider model's circuit breaker opened.", "model")
	m.Untranslated = f.counter("erleah_translations_failed_total", "Questions in a language the translators read that were searched without an English reading (a translator failed or ran out of time), by language.", "language")
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, o := range []string{"answered", "fallback_answer", "apology", "failed", "timeout", "canceled"} {
		m.Turns.WithLabelValues(o) // present from the start, at zero
	}
	for _, r := range []string{"overloaded", "rate_limited", "canceled", "backlog_full"} {
		m.Rejected.WithLabelValues(r)
	}
	return m
}

type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) histogram(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
	f.reg.MustRegister(h)
	return h
}

func (f factory) gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	f.reg.MustRegister(g)
	return g
}

func (f factory) gaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(g)
	return g
}

// breakerLevels are the gauge values of the breaker states, ordered so that
// a higher value is worse.
var breakerLevels = map[string]float64{"closed": 0, "half_open": 1, "open": 2}

// Breaker records a model's circuit breaker changing state ("closed",
// "half_open" or "open", as llm reports them).
func (m *Metrics) Breaker(model, state string) {
	m.BreakerState.WithLabelValues(model).Set(breakerLevels[state])
	if state == "open" {
		m.BreakerOpened.WithLabelValues(model).Inc()
	}
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Observe returns an observer that records step durations as a turn runs.
func (m *Metrics) Observe(e agent.Event) {
	if f, ok := e.(agent.StepFinished); ok {
		m.StepSeconds.WithLabelValues(string(f.Step)).Observe(f.Duration.Seconds())
	}
}

// Turn records what a finished turn did: its outcome, reflection
// strategies, fallbacks and model calls with their tokens.
func (m *Metrics) Turn(outcome string, st *agent.State) {
	m.Turns.WithLabelValues(outcome).Inc()
	if st == nil {
		return
	}
	for _, r := range st.Reflections {
		m.Strategies.WithLabelValues(string(r.Strategy), string(r.Source)).Inc()
		if r.Source == agent.FromMechanical || r.Source == agent.FromFallbackModel {
			m.Fallbacks.WithLabelValues(string(agent.StepReflect)).Inc()
		}
	}
	if st.PlanSource == agent.FromMechanical || st.PlanSource == agent.FromFallbackModel {
		m.Fallbacks.WithLabelValues(string(agent.StepPlan)).Inc()
	}
	if st.ResponseSource == agent.FromMechanical || st.ResponseSource == agent.FromFallbackModel {
		m.Fallbacks.WithLabelValues(string(agent.StepRespond)).Inc()
	}
	m.Calls(st.ModelCalls)
	for _, r := range st.Rejections {
		m.OutputRejected.WithLabelValues(string(r.Step), r.Check).Inc()
	}
	if st.Untranslated != "" {
		m.Untranslated.WithLabelValues(st.Language).Inc()
	}
	m.Sanitised.WithLabelValues("citation").Add(float64(len(st.DroppedCitations)))
	m.Sanitised.WithLabelValues("url").Add(float64(len(st.RemovedURLs)))
}

// Quality records an evaluated answer's quality score.
func (m *Metrics) Quality(st *agent.State) {
	mode := "off"
	if st.Reflection {
		mode = "on"
	}
	m.AnswerQuality.WithLabelValues(string(st.ResponseSource), mode).Observe(st.Evaluation.QualityScore)
}

// Calls records model calls and their tokens.
func (m *Metrics) Calls(calls []agent.CallInfo) {
	for _, c := range calls {
		result := "ok"
		if c.Failed != "" {
			result = "failed"
		}
		model := c.Model
		if model == "" {
			model = "unknown"
		}
		m.ModelCalls.WithLabelValues(string(c.Step), model, result).Inc()
		m.ModelTokens.WithLabelValues(string(c.Step), model, "input").Add(float64(c.Usage.InputTokens))
		m.ModelTokens.WithLabelValues(string(c.Step), model, "output").Add(float64(c.Usage.OutputTokens))
	}
}

// Search times one search query.
func (m *Metrics) Search(table, mode string, d time.Duration) {
	m.SearchSeconds.WithLabelValues(table, mode).Observe(d.Seconds())
}

// Searcher is what the agent searches with.
type Searcher interface {
	Search(ctx context.Context, conference string, q search.Query) ([]search.Result, error)
	Calibration() search.Calibration
	Lexicon(conference string) *search.Lexicon
	Calendar(conference string) when.Calendar
	Items(conference string, refs []search.Ref) []search.Result
	Catalogue(conference string, tb search.Table) []search.Result
	Meaning(ctx context.Context, conference, text string) (search.Meaning, error)
}

// TimeSearches wraps s so that every search is timed.
func (m *Metrics) TimeSearches(s Searcher) Searcher { return timed{s, m} }

type timed struct {
	Searcher
	m *Metrics
}

func (t timed) Search(ctx context.Context, conference string, q search.Query) ([]search.Result, error) {
	start := time.Now()
	rs, err := t.Searcher.Search(ctx, conference, q)
	t.m.Search(string(q.Table), string(q.Mode), time.Since(start))
	return rs, err
}
