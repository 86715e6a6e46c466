package agent

import (
	"context"
	"time"

	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/when"
)

// Step names a step of the turn; model calls, events and traces use it.
type Step string

// The steps of a turn.
const (
	StepPlan    Step = "plan_queries"
	StepExecute Step = "execute_queries"
	StepCheck   Step = "check_results"
	StepReflect Step = "reflect_and_replan"
	StepRelax   Step = "relax_and_retry"
	StepRespond Step = "generate_response"
	StepEval    Step = "evaluate"
	StepAck     Step = "acknowledgment"
)

// ModelSteps lists the steps that call a model, each of which can have its
// own model and prompt.
var ModelSteps = []Step{StepPlan, StepReflect, StepRespond, StepEval, StepAck}

// Model is what the agent asks to plan, reflect, answer, evaluate and
// acknowledge. The builtin rules and the LLM providers implement it alike,
// so the agent cannot tell them apart. Plan, reflect and evaluate calls
// return JSON text that the agent decodes and validates; respond and
// acknowledgment calls return text, the answer streamed through Call.Stream
// when it is set.
//
// An error whose chain has a Permanent() bool method returning true (an
// authentication failure, an unknown model, a call that timed out, a
// provider cooling down after a 429) tells the agent not to call that model
// again during the turn.
//
// Implementations must be safe for concurrent use.
type Model interface {
	Complete(ctx context.Context, call Call) (Completion, error)
}

// Call is one request to a model. Exactly one input matches Step.
type Call struct {
	Step    Step
	Plan    *PlanInput
	Reflect *ReflectInput
	Respond *RespondInput
	Eval    *EvalInput
	Ack     *AckInput
	// Repair, when set, carries the previous reply and why it was rejected,
	// asking the model to correct it.
	Repair *Repair
	// Stream receives answer text as it is produced (respond calls only).
	Stream func(text string)
}

// Repair describes a rejected reply.
type Repair struct {
	Reply string
	Error string
}

// Completion is a model's reply. Model names the provider and model
// ("anthropic:claude-sonnet-4-5", "builtin"); PromptVersion is the version
// of the prompt used, zero for models that use none.
type Completion struct {
	Text          string
	Model         string
	PromptVersion int
	Usage         Usage
}

// Usage counts the tokens of one call.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Conference describes the conference a turn is about.
type Conference struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Venue    string `json:"venue,omitempty"`
	StartsOn string `json:"starts_on,omitempty"`
	EndsOn   string `json:"ends_on,omitempty"`
}

// Turn is one earlier message of the conversation. An assistant turn's
// citations are read from its text's markers when Citations is empty.
type Turn struct {
	Role      string     `json:"role"` // "user" or "assistant"
	Text      string     `json:"text"`
	Citations []Citation `json:"citations,omitempty"`
}

// PlanInput is what the planner sees. It must reply with JSON
// {"intent": "...", "queries": [{"table", "search_mode", "query_text", "limit"}]}.
type PlanInput struct {
	Message string `json:"message"`
	// Reading is Message in English when it is in another language.
	Reading string `json:"reading,omitempty"`
	// Topic is the message without its time, place and format words;
	// Filter holds those, and every sessions and speakers query gets it
	// unless it carries its own.
	Topic      string           `json:"topic"`
	Filter     *when.Filter     `json:"filter,omitempty"`
	Language   string           `json:"language"`
	Conference Conference       `json:"conference"`
	History    []Turn           `json:"history,omitempty"`
	Mentions   []search.Mention `json:"mentions,omitempty"`
	MaxQueries int              `json:"max_queries"`
	MaxLimit   int              `json:"max_limit"`
	// Support says how well the conference's text answers a part of the
	// question: the largest share of its words one entity contains, 0–1.
	Support func(text string) float64 `json:"-"`
}

// TableSummary is what one table returned in the round being reflected on.
type TableSummary struct {
	Table     search.Table `json:"table"`
	Outcome   Outcome      `json:"outcome"`
	Count     int          `json:"count"`
	TopScore  float32      `json:"top_score"`
	TopTitles []string     `json:"top_titles,omitempty"`
	// Support is the largest share of its query's word weight a result
	// contains (search.Result.Coverage).
	Support float64 `json:"top_word_share,omitempty"`
}

// Probe is what a planned query's text finds in a table or mode the plan did
// not use: evidence for a pivot.
type Probe struct {
	Text      string       `json:"query_text"`
	Table     search.Table `json:"table"`
	Mode      search.Mode  `json:"search_mode"`
	TopScore  float32      `json:"top_score"`
	TopTitles []string     `json:"top_titles,omitempty"`
	// Support is the largest share of the query's word weight one of the
	// probe's results contains.
	Support float64 `json:"top_word_share,omitempty"`
	// Filter is the failing query's, kept for the probe.
	Filter *when.Filter `json:"-"`
}

// ReflectInput is what the reflector sees. It must reply with JSON
// {"reasoning", "strategy", "user_message", "new_queries": [...]}.
type ReflectInput struct {
	Message     string             `json:"message"`
	Reading     string             `json:"reading,omitempty"` // Message in English, when in another language
	Conference  Conference         `json:"conference"`
	History     []Turn             `json:"history,omitempty"`
	RetryCount  int                `json:"retry_count"`
	MaxRetries  int                `json:"max_retries"`
	Plan        []search.Query     `json:"planned_queries"`
	FirstPlan   []search.Query     `json:"first_plan"`
	Tables      []TableSummary     `json:"results_summary"`
	ZeroTables  []search.Table     `json:"zero_result_tables"`
	WeakTables  []search.Table     `json:"weak_tables"`
	Tried       []search.Query     `json:"already_tried"`
	Terms       []search.TermStat  `json:"term_coverage"`
	Probes      []Probe            `json:"probes"`
	Calibration search.Calibration `json:"score_levels"`
	// Memory are remembered lessons of similar failures that recovered:
	// what worked before. A decision that follows one names its id in
	// "recalled".
	Memory []memory.Recalled `json:"what_worked_before,omitempty"`
	// Lexicon is the conference vocabulary and Calendar its days, rooms and
	// tracks, for rule-based models; they are not part of any prompt.
	Lexicon  *search.Lexicon `json:"-"`
	Calendar when.Calendar   `json:"-"`
}

// RespondInput is what the responder sees: the results it may cite, best
// first per table, at most AnswerLimit each.
type RespondInput struct {
	Message string `json:"message"`
	// Reading is Message in English when it is in another language.
	Reading string `json:"reading,omitempty"`
	// Language is the question's; Filter its time and place constraints;
	// Outside, when set, says the question names a day outside the
	// conference.
	Language    string                           `json:"language"`
	Topic       string                           `json:"-"`
	Filter      *when.Filter                     `json:"filter,omitempty"`
	Outside     string                           `json:"outside,omitempty"`
	Conference  Conference                       `json:"conference"`
	History     []Turn                           `json:"history,omitempty"`
	FollowUp    *FollowUp                        `json:"follow_up,omitempty"`
	Intent      string                           `json:"intent"`
	Results     map[search.Table][]search.Result `json:"results"`
	Tables      []TableStatus                    `json:"tables"`
	Queries     []search.Query                   `json:"queries"`
	Calibration search.Calibration               `json:"score_levels"`
	Lexicon     *search.Lexicon                  `json:"-"`
	// FirstPlan are the first plan's queries: the question as searched,
	// before any reflection changed it (for rule-based models).
	FirstPlan []search.Query `json:"-"`
	// Talks are the sessions of the speakers in Results, by the speaker's
	// key (for rule-based models).
	Talks map[string][]search.Result `json:"-"`
	// Companions are exhibitors found for a question that asked for no
	// kind of item, beside the talks that answer it.
	Companions []search.Result `json:"companions,omitempty"`
	// AskedAt is when the question was asked (for rule-based models).
	AskedAt time.Time `json:"-"`
	// Hint and PreviousAnswer are set when the answer is regenerated after
	// a poor evaluation.
	Hint           string `json:"improvement_hint,omitempty"`
	PreviousAnswer string `json:"previous_answer,omitempty"`
}

// EvalInput is what the evaluator sees: the question, the results the
// answer could use and the answer. It must reply with JSON
// {"quality_score", "confidence_score", "issues", "improvement_hint"}.
type EvalInput struct {
	Message string `json:"message"`
	// Reading is Message in English when it is in another language.
	Reading string `json:"reading,omitempty"`
	// Language and Filter are the question's, as the responder had them.
	Language   string                           `json:"language"`
	Filter     *when.Filter                     `json:"filter,omitempty"`
	Conference Conference                       `json:"conference"`
	Results    map[search.Table][]search.Result `json:"results"`
	Answer     string                           `json:"answer"`
	Citations  []Citation                       `json:"citations"`
	Lexicon    *search.Lexicon                  `json:"-"`
	// FirstPlan are the first plan's queries (for rule-based models).
	FirstPlan []search.Query `json:"-"`
}

// AckInput is what the acknowledgment is written from: one or two warm
// sentences that do not answer yet.
type AckInput struct {
	Message    string     `json:"message"`
	Reading    string     `json:"reading,omitempty"` // Message in English, when in another language
	Language   string     `json:"language"`
	Conference Conference `json:"conference"`
	History    []Turn     `json:"history,omitempty"`
}
