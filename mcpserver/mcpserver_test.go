package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/mcpserver"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search/searchtest"
)

const operatorToken = "s3cret"

// fakeAccess is Directus as the MCP server sees it: "alice" may read only
// aidata26; other tokens are not accepted.
type fakeAccess struct{}

func (fakeAccess) User(_ context.Context, token string) (string, error) {
	if token != "alice" {
		return "", mcpserver.ErrBadToken
	}
	return "u-alice", nil
}

func (fakeAccess) CanRead(_ context.Context, token, conference string) (bool, error) {
	return token == "alice" && conference == "aidata26", nil
}

// serve starts the MCP handler over the demo conferences with the builtin
// rules as the model.
func serve(t *testing.T) string {
	t.Helper()
	b, e := searchtest.Demo(t)
	lookup := func(id string) (agent.Conference, bool) {
		c, ok := b.Conference(id)
		return agent.Conference{ID: c.ID, Name: c.Name, Venue: c.Venue, StartsOn: c.StartsOn, EndsOn: c.EndsOn}, ok
	}
	svc := chat.New(agent.New(rules.New(), e, agent.Options{Fallback: rules.New()}), lookup, chat.Options{})
	t.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
	h := mcpserver.New(mcpserver.Options{Turns: svc, Engine: e, Conference: lookup, APIToken: operatorToken, Access: fakeAccess{},
		Now: func() time.Time { return time.Date(2026, 6, 9, 9, 0, 0, 0, time.UTC) }})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.next.RoundTrip(r)
}

func connect(t *testing.T, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, tr, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

func session(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	cs, err := connect(t, url, token)
	require.NoError(t, err, "connect")
	return cs
}

// call calls a tool and decodes its structured result into out; it returns
// the result, whose IsError the caller checks.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err, name)
	if !res.IsError && out != nil {
		raw, _ := json.Marshal(res.StructuredContent)
		require.NoError(t, json.Unmarshal(raw, out), "%s: decode %s", name, raw)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, " ")
}

func TestListsTheFourTools(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	assert.Equal(t, []string{"ask", "list_conferences", "search", "whats_on"}, names, "tools")
}

func TestOperatorListsEveryConference(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.ConferenceList
	res := call(t, cs, "list_conferences", nil, &out)
	require.False(t, res.IsError, text(res))
	var ids []string
	for _, c := range out.Conferences {
		ids = append(ids, c.ID)
		assert.NotEmpty(t, c.Name, "conference %+v lacks a name", c)
		assert.NotEmpty(t, c.StartsOn, "conference %+v lacks a start date", c)
		assert.NotEmpty(t, c.EndsOn, "conference %+v lacks an end date", c)
		assert.NotEmpty(t, c.Venue, "conference %+v lacks a venue", c)
	}
	assert.Equal(t, []string{"aidata26", "climate26"}, ids, "conferences")
}

func TestAskAnswersWithCitations(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.Answer
	res := call(t, cs, "ask", map[string]any{"question": "Who can help me deploy ML models on-prem?", "conference_id": "aidata26"}, &out)
	require.False(t, res.IsError, text(res))
	require.NotEmpty(t, out.Answer, "answer %q with %d citations", out.Answer, len(out.Citations))
	require.NotEmpty(t, out.Citations, "answer %q with %d citations", out.Answer, len(out.Citations))
	for _, c := range out.Citations {
		assert.NotEmpty(t, c.Collection, "citation %+v is incomplete", c)
		assert.NotEmpty(t, c.ID, "citation %+v is incomplete", c)
		assert.NotEmpty(t, c.Title, "citation %+v is incomplete", c)
	}
	assert.NotEmpty(t, out.TraceID, "trace %q, outcome %q", out.TraceID, out.Outcome)
	assert.NotEmpty(t, out.Outcome, "trace %q, outcome %q", out.TraceID, out.Outcome)
}

func TestSearchFindsSessions(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.Items
	res := call(t, cs, "search", map[string]any{"table": "sessions", "query": "retrieval-augmented generation", "conference_id": "aidata26", "limit": 5}, &out)
	require.False(t, res.IsError, text(res))
	require.NotEmpty(t, out.Items, "items")
	require.LessOrEqual(t, len(out.Items), 5, "items")
	for i, it := range out.Items {
		assert.Equal(t, "sessions", it.Table, "item %+v is incomplete", it)
		assert.NotEmpty(t, it.Title, "item %+v is incomplete", it)
		assert.NotEmpty(t, it.StartsAt, "item %+v is incomplete", it)
		assert.NotEmpty(t, it.Room, "item %+v is incomplete", it)
		assert.Positive(t, it.Score, "item %+v is incomplete", it)
		if i > 0 {
			assert.LessOrEqual(t, it.Score, out.Items[i-1].Score, "items are not best first")
		}
	}
}

func TestSearchFilters(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.Items
	args := map[string]any{"table": "sessions", "query": "machine learning", "conference_id": "aidata26",
		"from": "2026-06-09T00:00:00+02:00", "to": "2026-06-10T00:00:00+02:00", "format": "workshop"}
	res := call(t, cs, "search", args, &out)
	require.False(t, res.IsError, text(res))
	require.NotEmpty(t, out.Items, "no workshop on the first day")
	for _, it := range out.Items {
		assert.Equal(t, "workshop", it.Format, "item %s (%s, %s) escapes the filter", it.ID, it.Format, it.StartsAt)
		assert.True(t, strings.HasPrefix(it.StartsAt, "2026-06-09"), "item %s (%s, %s) escapes the filter", it.ID, it.Format, it.StartsAt)
	}
}

func TestWhatsOnListsTheWindowInTimeOrder(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.Schedule
	res := call(t, cs, "whats_on", map[string]any{"conference_id": "aidata26", "from": "2026-06-09T08:00:00+02:00", "to": "2026-06-09T20:00:00+02:00"}, &out)
	require.False(t, res.IsError, text(res))
	require.GreaterOrEqual(t, len(out.Sessions), 2, "sessions on the first day")
	from, to := time.Date(2026, 6, 9, 6, 0, 0, 0, time.UTC), time.Date(2026, 6, 9, 18, 0, 0, 0, time.UTC)
	var last time.Time
	for _, s := range out.Sessions {
		at, err := time.Parse(time.RFC3339, s.StartsAt)
		require.NoError(t, err, "session %s starts at %q", s.ID, s.StartsAt)
		assert.False(t, at.Before(from), "session %s starts at %s, outside the window", s.ID, at)
		assert.True(t, at.Before(to), "session %s starts at %s, outside the window", s.ID, at)
		assert.False(t, at.Before(last), "session %s at %s comes after one at %s", s.ID, at, last)
		last = at
	}
}

func TestWhatsOnDefaultsToTheNextTwoHours(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.Schedule
	res := call(t, cs, "whats_on", map[string]any{"conference_id": "aidata26"}, &out)
	require.False(t, res.IsError, text(res))
	assert.Equal(t, "2026-06-09T09:00:00Z", out.From, "window start")
	assert.Equal(t, "2026-06-09T11:00:00Z", out.To, "window end")
}

func TestBadInputIsAToolError(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"ask", map[string]any{"question": "hello", "conference_id": "nope"}, "unknown conference"},
		{"ask", map[string]any{"question": " ", "conference_id": "aidata26"}, "question is required"},
		{"search", map[string]any{"table": "rooms", "query": "x", "conference_id": "aidata26"}, "unknown table"},
		{"search", map[string]any{"table": "sessions", "query": "x", "conference_id": "aidata26", "limit": 26}, "limit 26"},
		{"search", map[string]any{"table": "sessions", "query": "x", "conference_id": "aidata26", "from": "tomorrow"}, "RFC 3339"},
		{"search", map[string]any{"table": "sessions", "query": "x", "conference_id": "aidata26", "room": "Mars"}, "unknown room"},
		{"search", map[string]any{"table": "exhibitors", "query": "x", "conference_id": "aidata26", "track": "Data Engineering"}, "not exhibitors"},
		{"search", map[string]any{"table": "sessions", "conference_id": "aidata26"}, "query is required"},
		{"whats_on", map[string]any{"conference_id": "aidata26", "from": "2026-06-09T10:00:00Z", "to": "2026-06-09T09:00:00Z"}, "after from"},
		{"whats_on", map[string]any{"conference_id": "climate27"}, "unknown conference"},
	}
	for _, c := range cases {
		res := call(t, cs, c.tool, c.args, nil)
		assert.True(t, res.IsError, "%s %v: want an error saying %q", c.tool, c.args, c.want)
		assert.Contains(t, text(res), c.want, "%s %v: want an error saying %q", c.tool, c.args, c.want)
	}
}

func TestNoTokenIsRefused(t *testing.T) {
	url := serve(t)
	for _, token := range []string{"", "wrong"} {
		_, err := connect(t, url, token)
		assert.Error(t, err, "token %q: connected", token)
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "status")
}

func TestDirectusUserSeesOnlyWhatTheyCanRead(t *testing.T) {
	cs := session(t, serve(t), "alice")
	var list mcpserver.ConferenceList
	res := call(t, cs, "list_conferences", nil, &list)
	require.False(t, res.IsError, text(res))
	require.Len(t, list.Conferences, 1, "alice sees %+v", list.Conferences)
	assert.Equal(t, "aidata26", list.Conferences[0].ID, "alice sees %+v", list.Conferences)
	res = call(t, cs, "ask", map[string]any{"question": "Which sessions cover carbon accounting?", "conference_id": "climate26"}, nil)
	assert.True(t, res.IsError, "ask on climate26: %q", text(res))
	assert.Contains(t, text(res), "may not read", "ask on climate26")
	for tool, args := range map[string]map[string]any{
		"search":   {"table": "sessions", "query": "carbon", "conference_id": "climate26"},
		"whats_on": {"conference_id": "climate26"},
	} {
		res := call(t, cs, tool, args, nil)
		assert.True(t, res.IsError, "%s on climate26: %q", tool, text(res))
		assert.Contains(t, text(res), "may not read", "%s on climate26", tool)
	}
	var out mcpserver.Items
	res = call(t, cs, "search", map[string]any{"table": "speakers", "query": "MLOps", "conference_id": "aidata26"}, &out)
	assert.False(t, res.IsError, "search on aidata26: %s", text(res))
}
