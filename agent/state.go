package agent

import (
	"time"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/when"
)

// Strategy is what a reflection round does about a weak or empty search.
type Strategy string

// Strategies. Relax, Rewrite and Pivot are the reflection strategies a
// decision may choose; Mechanical labels rounds of the relax-and-retry
// ladder when reflection is off.
const (
	Relax      Strategy = "relax"   // same wording, looser threshold, more results
	Rewrite    Strategy = "rewrite" // new wording for the same need
	Pivot      Strategy = "pivot"   // another table or search mode
	Mechanical Strategy = "mechanical"
	// Regenerate labels the thinking record of an answer written again
	// after a poor evaluation.
	Regenerate Strategy = "regenerate"
	// Acknowledge labels the acknowledgment's thinking record, the first
	// of the list when there is one.
	Acknowledge Strategy = "acknowledgment"
)

// Source says where a reflection decision came from.
type Source string

// Sources of plans, decisions and answers.
const (
	FromModel         Source = "model"          // the configured model, validated
	FromRepair        Source = "model_repaired" // the configured model, valid after one repair round-trip
	FromFallbackModel Source = "fallback_model" // Options.Fallback, after the model failed or was invalid
	FromMechanical    Source = "mechanical"     // the mechanical ladder or default plan, or an apology
)

// Outcome classifies what a table returned in a round.
type Outcome string

// Table outcomes.
const (
	OK    Outcome = "ok"    // top score within the confidence band
	Weak  Outcome = "weak"  // results, but the best is below the band
	Empty Outcome = "empty" // nothing above the threshold
	// Unavailable means every query of the table failed to run, retries
	// included: a search error, not an empty result, so it is never
	// reflected on.
	Unavailable Outcome = "unavailable"
)

// ThinkingRecord is one note shown to the attendee while the agent works
// (contract §5): Message is plain language, Strategy the reflection strategy,
// RetryCount the round it starts, TS Unix seconds with fraction.
type ThinkingRecord struct {
	Message    string   `json:"message"`
	Strategy   Strategy `json:"strategy"`
	RetryCount int      `json:"retry_count"`
	TS         float64  `json:"ts"`
	Source     Source   `json:"source,omitempty"`
}

// Reflection is one entry of the reflection history: what was decided, by
// whom, and why a model decision was rejected when it was.
type Reflection struct {
	Round     int            `json:"round"`
	Source    Source         `json:"source"`
	Strategy  Strategy       `json:"strategy"`
	Reasoning string         `json:"reasoning"`
	Rejected  string         `json:"rejected,omitempty"` // failed validation check, or the model error
	Queries   []search.Query `json:"queries"`
	Skipped   []search.Query `json:"skipped_already_tried,omitempty"`
	// Failing are the tables that failed before the round, Before the
	// queries searched there, Failure the kind of failure ("empty",
	// "weak", "unknown_terms") and Unknown the words the conference does
	// not use; After are the tables' statuses once the round was checked.
	Failing []TableStatus  `json:"failing"`
	Before  []search.Query `json:"before"`
	Failure string         `json:"failure"`
	Unknown []string       `json:"unknown,omitempty"`
	After   []TableStatus  `json:"after,omitempty"`
	// Recalled are the remembered lessons the decision followed.
	Recalled []string `json:"recalled,omitempty"`
}

// RecalledUse is a remembered lesson the turn acted on, and where.
type RecalledUse struct {
	Step       Step    `json:"step"`
	ID         string  `json:"id"`
	Similarity float64 `json:"similarity"`
}

// Rejection is a model reply a step refused: the validation check that
// failed and why. Every rejection is recorded, whether a repair or the
// fallback then answered or not.
type Rejection struct {
	Step   Step   `json:"step"`
	Check  string `json:"check"`
	Detail string `json:"detail"`
	Model  string `json:"model,omitempty"`
}

// IgnoredKeys lists the keys of a step's model reply that the agent does
// not know and ignored, as paths ("queries[0].relaxation").
type IgnoredKeys struct {
	Step Step     `json:"step"`
	Keys []string `json:"keys"`
}

// TableStatus is the check of one table after a round.
type TableStatus struct {
	Table    search.Table `json:"table"`
	Outcome  Outcome      `json:"outcome"`
	Count    int          `json:"count"`
	TopScore float32      `json:"top_score"`
}

// Citation is an item the answer recommends: its collection and id.
type Citation struct {
	Collection search.Table `json:"collection"`
	ID         string       `json:"id"`
	Title      string       `json:"title"`
}

// Key is the citation's "collection/id" form.
func (c Citation) Key() string { return search.Ref{Table: c.Collection, ID: c.ID}.Key() }

// QueryError records a planned query that failed to run.
type QueryError struct {
	Query search.Query `json:"query"`
	Error string       `json:"error"`
}

// State is everything one turn knows, from the question to the answer. The
// field names follow the design seeds; the whole state is the turn's trace.
type State struct {
	TraceID    string     `json:"trace_id"`
	Message    string     `json:"message"`
	Conference Conference `json:"conference"`
	History    []Turn     `json:"history,omitempty"`
	AskedAt    time.Time  `json:"asked_at"`
	// Language is the question's language (ISO 639-1), "en" unless it is
	// clearly another.
	Language string `json:"language"`
	// Reading is the question in English, as machine translation read it,
	// when it is in another language; what is searched.
	Reading string `json:"reading,omitempty"`
	// Untranslated says why a question in another language has no
	// reading although a translator reads its language (a timeout, a
	// failed translator): it was searched by the words it shares with the
	// conference instead.
	Untranslated string `json:"untranslated,omitempty"`
	// Topic is the question without its time, place and format words.
	Topic string `json:"topic"`
	// Filter holds the question's time, place and format constraints;
	// Outside says, when the question names a day outside the
	// conference, that it does.
	Filter  *when.Filter `json:"filter,omitempty"`
	Outside string       `json:"outside,omitempty"`
	// About is the answer to a question about the conference itself (when
	// it runs, starts or ends, where it is), read from its record.
	About string `json:"about,omitempty"`
	// Recalled are the remembered lessons the turn acted on.
	Recalled []RecalledUse `json:"recalled,omitempty"`
	// FollowUp says how the question continues the conversation, if it
	// does.
	FollowUp     *FollowUp `json:"follow_up,omitempty"`
	Reflection   bool      `json:"reflection_enabled"`
	Intent       string    `json:"intent"`
	PlanSource   Source    `json:"plan_source"`
	PlanRejected string    `json:"plan_rejected,omitempty"`

	PlannedQueries         []search.Query                   `json:"planned_queries"`
	OriginalPlannedQueries []search.Query                   `json:"original_planned_queries"`
	QueryResults           map[search.Table][]search.Result `json:"query_results"`
	// Talks are the sessions of the speakers the answer was written from,
	// by speaker, looked up for it.
	Talks map[string][]search.Result `json:"talks,omitempty"`
	// Companions are the exhibitors looked up beside the talks of a
	// question that asked for no kind of item ("rfid", "ebook
	// licensing??"): the expo may answer it too.
	Companions       []search.Result                  `json:"companions,omitempty"`
	FirstPassResults map[search.Table][]search.Result `json:"first_pass_results"`
	QueryErrors      []QueryError                     `json:"query_errors,omitempty"`
	Tried            []search.Query                   `json:"tried_queries"`

	TableStatus      []TableStatus  `json:"table_status"`
	ZeroResultTables []search.Table `json:"zero_result_tables"`
	WeakTables       []search.Table `json:"weak_tables"`
	NeedsRetry       bool           `json:"needs_retry"`
	RetryCount       int            `json:"retry_count"`

	ReflectionReasoning string           `json:"reflection_reasoning"`
	ReflectionStrategy  Strategy         `json:"reflection_strategy"`
	Reflections         []Reflection     `json:"reflections"`
	ThinkingUpdates     []ThinkingRecord `json:"thinking_updates"`

	ResponseText     string     `json:"response_text"`
	Citations        []Citation `json:"citations"`
	DroppedCitations []string   `json:"dropped_citations,omitempty"`
	// RemovedURLs are links the answer wrote that no retrieved item has.
	RemovedURLs    []string `json:"removed_urls,omitempty"`
	ResponseSource Source   `json:"response_source"`
	Acknowledgment string   `json:"acknowledgment,omitempty"`
	// AckDropped says why an acknowledgment was not shown.
	AckDropped  string      `json:"acknowledgment_dropped,omitempty"`
	Evaluation  *Evaluation `json:"evaluation,omitempty"`
	Regenerated bool        `json:"regenerated,omitempty"`
	ModelCalls  []CallInfo  `json:"model_calls"`
	// Rejections are the model replies a step refused; IgnoredKeys the
	// unknown keys of the replies it decoded.
	Rejections      []Rejection   `json:"rejections,omitempty"`
	IgnoredKeys     []IgnoredKeys `json:"ignored_keys,omitempty"`
	StepDurationsMS []StepTime    `json:"step_durations_ms"`
	Attempts        int           `json:"attempts"`
}

// StepTime is how long one step took.
type StepTime struct {
	Step Step    `json:"step"`
	MS   float64 `json:"ms"`
}

// CallInfo records one model call: which model and prompt version, the
// tokens it used, how long it took and, if it failed, why.
type CallInfo struct {
	Step          Step    `json:"step"`
	Model         string  `json:"model"`
	PromptVersion int     `json:"prompt_version,omitempty"`
	Usage         Usage   `json:"usage"`
	MS            float64 `json:"ms"`
	Fallback      bool    `json:"fallback,omitempty"`
	Failed        string  `json:"failed,omitempty"`
}

// Strategies lists the strategies of the turn's reflection rounds in order.
func (s *State) Strategies() []Strategy {
	out := make([]Strategy, len(s.Reflections))
	for i, r := range s.Reflections {
		out[i] = r.Strategy
	}
	return out
}

// Retrieved is the set of items the answer may cite: the top AnswerLimit
// results of each table, and the talks of the speakers among them.
func (s *State) Retrieved() map[string]search.Result {
	out := map[string]search.Result{}
	for _, results := range AnswerResults(s.QueryResults) {
		for _, r := range results {
			out[r.Key()] = r
		}
	}
	for _, talks := range s.Talks {
		for _, r := range talks {
			out[r.Key()] = r
		}
	}
	for _, r := range s.Companions {
		out[r.Key()] = r
	}
	return out
}

// AnswerResults cuts each table's ranking to the AnswerLimit items an
// answer is written from.
func AnswerResults(m map[search.Table][]search.Result) map[search.Table][]search.Result {
	out := make(map[search.Table][]search.Result, len(m))
	for tb, rs := range m {
		out[tb] = rs[:min(len(rs), AnswerLimit)]
	}
	return out
}
