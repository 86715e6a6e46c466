package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/chat"
)

// Conference is one entry of list_conferences.
type Conference struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	StartsOn string `json:"starts_on,omitempty" jsonschema:"first day, YYYY-MM-DD"`
	EndsOn   string `json:"ends_on,omitempty" jsonschema:"last day, YYYY-MM-DD"`
	Venue    string `json:"venue,omitempty"`
}

// ConferenceList is list_conferences' result.
type ConferenceList struct {
	Conferences []Conference `json:"conferences"`
}

func (t *tools) listConferences(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, ConferenceList, error) {
	c := callerOf(req)
	out := ConferenceList{Conferences: []Conference{}}
	for _, id := range t.opts.Engine.Conferences() {
		conf, ok := t.opts.Conference(id)
		if !ok {
			continue
		}
		ok, err := t.mayRead(ctx, c, id)
		if err != nil {
			t.log.Warn("mcp: checking conference access failed", "conference", id, "err", err)
			return nil, ConferenceList{}, errors.New("could not check which conferences you may read; please try again")
		}
		if ok {
			out.Conferences = append(out.Conferences, Conference{ID: conf.ID, Name: conf.Name, StartsOn: conf.StartsOn, EndsOn: conf.EndsOn, Venue: conf.Venue})
		}
	}
	return nil, out, nil
}

// AskInput is ask's input.
type AskInput struct {
	Question     string `json:"question" jsonschema:"the question, in natural language"`
	ConferenceID string `json:"conference_id" jsonschema:"the conference's id, from list_conferences"`
}

// Citation is an item an answer cites.
type Citation struct {
	Collection string `json:"collection" jsonschema:"sessions, exhibitors or speakers"`
	ID         string `json:"id"`
	Title      string `json:"title"`
}

// Answer is ask's result.
type Answer struct {
	Answer    string     `json:"answer"`
	Citations []Citation `json:"citations"`
	Thinking  []string   `json:"thinking" jsonschema:"the assistant's notes while it worked, oldest first"`
	TraceID   string     `json:"trace_id"`
	Outcome   string     `json:"outcome" jsonschema:"answered, fallback_answer or apology"`
}

func (t *tools) ask(ctx context.Context, req *mcp.CallToolRequest, in AskInput) (*mcp.CallToolResult, Answer, error) {
	if strings.TrimSpace(in.Question) == "" {
		return nil, Answer{}, errors.New("question is required")
	}
	if err := t.conference(ctx, req, in.ConferenceID); err != nil {
		return nil, Answer{}, err
	}
	q := chat.Question{Message: in.Question, ConferenceID: in.ConferenceID, TraceID: chat.NewTraceID()}
	st, err := t.opts.Turns.Ask(ctx, q, nil)
	if err != nil {
		return nil, Answer{}, t.refusal(q.TraceID, err)
	}
	out := Answer{Answer: st.ResponseText, Citations: []Citation{}, Thinking: []string{}, TraceID: st.TraceID, Outcome: chat.Outcome(st, nil)}
	for _, c := range st.Citations {
		out.Citations = append(out.Citations, Citation{Collection: string(c.Collection), ID: c.ID, Title: c.Title})
	}
	for _, r := range st.ThinkingUpdates {
		out.Thinking = append(out.Thinking, r.Message)
	}
	return nil, out, nil
}

// refusal is the plain message for a turn that failed.
func (t *tools) refusal(trace string, err error) error {
	switch {
	case errors.Is(err, chat.ErrInvalid), errors.Is(err, chat.ErrUnknownConf):
		return errors.New(strings.TrimPrefix(err.Error(), "chat: "))
	case errors.Is(err, chat.ErrOverloaded), errors.Is(err, chat.ErrShuttingDown):
		return errors.New("the assistant is busy; please try again shortly")
	case errors.Is(err, context.DeadlineExceeded):
		return errors.New("this took longer than it should; please try again, perhaps with a more specific question")
	case errors.Is(err, context.Canceled):
		return errors.New("the request was cancelled")
	case errors.Is(err, agent.ErrSearchUnavailable):
		return errors.New(agent.SearchUnavailable)
	}
	t.log.Error("mcp: ask failed", "trace_id", trace, "err", err)
	return fmt.Errorf("something went wrong on our side (trace %s); please try again", trace)
}
