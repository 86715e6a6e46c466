// Package mcpserver is the service's Model Context Protocol server (contract
// §6, /mcp): four tools over streamable HTTP, built with the official Go
// SDK, for Directus's AI Assistant and desktop MCP clients.
//
//   - list_conferences: the conferences the caller may read;
//   - ask: one turn through the chat service (answer, citations, thinking);
//   - search: one search of sessions, exhibitors or speakers, with filters;
//   - whats_on: the sessions starting in a time window, in time order.
//
// Every request needs a bearer token: the service's API_TOKEN (the operator,
// who sees everything) or, when Directus is configured, a Directus user's
// token, who sees only the conferences Directus lets that user read.
package mcpserver

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/when"
)

// Turns runs interactive turns (chat.Service).
type Turns interface {
	Ask(ctx context.Context, q chat.Question, obs agent.Observer) (*agent.State, error)
}

// Engine searches the loaded conferences (search.Engine).
type Engine interface {
	Search(ctx context.Context, conference string, q search.Query) ([]search.Result, error)
	Calendar(conference string) when.Calendar
	Conferences() []string
}

// Options configure the MCP handler. Turns, Engine and Conference are
// required.
type Options struct {
	Turns  Turns
	Engine Engine
	// Conference describes a conference the service serves; false when it
	// serves no such conference.
	Conference func(id string) (agent.Conference, bool)
	// APIToken is the operator's bearer token; empty: no operator.
	APIToken string
	// Access checks Directus users' tokens; nil when Directus is not
	// configured (then only the operator gets in).
	Access  Access
	Version string
	Logger  *slog.Logger
	Now     func() time.Time // the clock whats_on's default window starts at
}

// maxBody limits an MCP request body.
const maxBody = 256 << 10

// New returns the /mcp handler: stateless streamable HTTP (any replica can
// answer any request), behind the bearer-token check.
func New(opts Options) http.Handler {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	t := &tools{opts: opts, log: opts.Logger}
	srv := mcp.NewServer(&mcp.Implementation{Name: "erleah-agent", Title: "Erleah conference assistant", Version: opts.Version},
		&mcp.ServerOptions{Instructions: instructions, Logger: opts.Logger})
	t.register(srv)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless: true,
		Logger:    opts.Logger,
		// Every request carries a bearer token a browser page cannot
		// forge, so the rebinding check adds nothing and would refuse
		// requests a reverse proxy on the same host forwards.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        maxBody,
	})
	return auth.RequireBearerToken(t.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
}

const instructions = "Conference assistant for Erleah events. Call list_conferences first to learn the conference ids; " +
	"then ask (a question in natural language, answered with citations), search (one table, scored items) " +
	"or whats_on (the sessions starting in a time window)."

// tools holds what the tool handlers share.
type tools struct {
	opts Options
	log  *slog.Logger
}

func (t *tools) register(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "list_conferences", Title: "List conferences",
		Description: "The conferences you can ask about: id, name, dates and venue.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.listConferences)
	mcp.AddTool(s, &mcp.Tool{Name: "ask", Title: "Ask the conference assistant",
		Description: "Ask one question about a conference (sessions, exhibitors, speakers, what is on when). " +
			"Returns the answer, the items it cites and the assistant's thinking notes. Takes a few seconds.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.ask)
	mcp.AddTool(s, &mcp.Tool{Name: "search", Title: "Search a conference",
		Description: "Search one table (sessions, exhibitors or speakers) of a conference; returns items best first with scores. " +
			"Sessions and speakers can be filtered by time window, room, track and format.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.search)
	mcp.AddTool(s, &mcp.Tool{Name: "whats_on", Title: "What's on",
		Description: "The sessions starting in a time window (default: the next 2 hours), in time order, optionally in one room or track.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.whatsOn)
}
