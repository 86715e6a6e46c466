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
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs
}

// call calls a tool and decodes its structured result into out; it returns
// the result, whose IsError the caller checks.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !res.IsError && out != nil {
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: decode %s: %v", name, raw, err)
		}
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
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"ask", "list_conferences", "search", "whats_on"}; !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}
}

func TestOperatorListsEveryConference(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.ConferenceList
	if res := call(t, cs, "list_conferences", nil, &out); res.IsError {
		t.Fatal(text(res))
	}
	var ids []string
	for _, c := range out.Conferences {
		ids = append(ids, c.ID)
		if c.Name == "" || c.StartsOn == "" || c.EndsOn == "" || c.Venue == "" {
			t.Errorf("conference %+v lacks name, dates or venue", c)
		}
	}
	if !slices.Equal(ids, []string{"aidata26", "climate26"}) {
		t.Fatalf("conferences = %v", ids)
	}
}

func TestAskAnswersWithCitations(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.Answer
	res := call(t, cs, "ask", map[string]any{"question": "Who can help me deploy ML models on-prem?", "conference_id": "aidata26"}, &out)
	if res.IsError {
		t.Fatal(text(res))
	}
	if out.Answer == "" || len(out.Citations) == 0 {
		t.Fatalf("answer %q with %d citations", out.Answer, len(out.Citations))
	}
	for _, c := range out.Citations {
		if c.Collection == "" || c.ID == "" || c.Title == "" {
			t.Errorf("citation %+v is incomplete", c)
		}
	}
	if out.TraceID == "" || out.Outcome == "" {
		t.Errorf("trace %q, outcome %q", out.TraceID, out.Outcome)
	}
}

func TestSearchFindsSessions(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.Items
	res := call(t, cs, "search", map[string]any{"table": "sessions", "query": "retrieval-augmented generation", "conference_id": "aidata26", "limit": 5}, &out)
	if res.IsError {
		t.Fatal(text(res))
	}
	if len(out.Items) == 0 || len(out.Items) > 5 {
		t.Fatalf("%d items", len(out.Items))
	}
	for i, it := range out.Items {
		if it.Table != "sessions" || it.Title == "" || it.StartsAt == "" || it.Room == "" || it.Score <= 0 {
			t.Errorf("item %+v is incomplete", it)
		}
		if i > 0 && it.Score > out.Items[i-1].Score {
			t.Errorf("items are not best first: %v after %v", it.Score, out.Items[i-1].Score)
		}
	}
}

func TestSearchFilters(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.Items
	args := map[string]any{"table": "sessions", "query": "machine learning", "conference_id": "aidata26",
		"from": "2026-06-09T00:00:00+02:00", "to": "2026-06-10T00:00:00+02:00", "format": "workshop"}
	if res := call(t, cs, "search", args, &out); res.IsError {
		t.Fatal(text(res))
	}
	if len(out.Items) == 0 {
		t.Fatal("no workshop on the first day")
	}
	for _, it := range out.Items {
		if it.Format != "workshop" || !strings.HasPrefix(it.StartsAt, "2026-06-09") {
			t.Errorf("item %s (%s, %s) escapes the filter", it.ID, it.Format, it.StartsAt)
		}
	}
}

func TestWhatsOnListsTheWindowInTimeOrder(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.Schedule
	res := call(t, cs, "whats_on", map[string]any{"conference_id": "aidata26", "from": "2026-06-09T08:00:00+02:00", "to": "2026-06-09T20:00:00+02:00"}, &out)
	if res.IsError {
		t.Fatal(text(res))
	}
	if len(out.Sessions) < 2 {
		t.Fatalf("%d sessions on the first day", len(out.Sessions))
	}
	from, to := time.Date(2026, 6, 9, 6, 0, 0, 0, time.UTC), time.Date(2026, 6, 9, 18, 0, 0, 0, time.UTC)
	var last time.Time
	for _, s := range out.Sessions {
		at, err := time.Parse(time.RFC3339, s.StartsAt)
		if err != nil {
			t.Fatalf("session %s starts at %q: %v", s.ID, s.StartsAt, err)
		}
		if at.Before(from) || !at.Before(to) {
			t.Errorf("session %s starts at %s, outside the window", s.ID, at)
		}
		if at.Before(last) {
			t.Errorf("session %s at %s comes after one at %s", s.ID, at, last)
		}
		last = at
	}
}

func TestWhatsOnDefaultsToTheNextTwoHours(t *testing.T) {
	cs := session(t, serve(t), operatorToken)
	var out mcpserver.Schedule
	if res := call(t, cs, "whats_on", map[string]any{"conference_id": "aidata26"}, &out); res.IsError {
		t.Fatal(text(res))
	}
	if out.From != "2026-06-09T09:00:00Z" || out.To != "2026-06-09T11:00:00Z" {
		t.Fatalf("window %s – %s", out.From, out.To)
	}
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
		if !res.IsError || !strings.Contains(text(res), c.want) {
			t.Errorf("%s %v: error %v, %q; want an error saying %q", c.tool, c.args, res.IsError, text(res), c.want)
		}
	}
}

func TestNoTokenIsRefused(t *testing.T) {
	url := serve(t)
	for _, token := range []string{"", "wrong"} {
		if _, err := connect(t, url, token); err == nil {
			t.Errorf("token %q: connected", token)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d, want 401", resp.StatusCode)
	}
}

func TestDirectusUserSeesOnlyWhatTheyCanRead(t *testing.T) {
	cs := session(t, serve(t), "alice")
	var list mcpserver.ConferenceList
	if res := call(t, cs, "list_conferences", nil, &list); res.IsError {
		t.Fatal(text(res))
	}
	if len(list.Conferences) != 1 || list.Conferences[0].ID != "aidata26" {
		t.Fatalf("alice sees %+v", list.Conferences)
	}
	res := call(t, cs, "ask", map[string]any{"question": "Which sessions cover carbon accounting?", "conference_id": "climate26"}, nil)
	if !res.IsError || !strings.Contains(text(res), "may not read") {
		t.Fatalf("ask on climate26: error %v, %q", res.IsError, text(res))
	}
	for tool, args := range map[string]map[string]any{
		"search":   {"table": "sessions", "query": "carbon", "conference_id": "climate26"},
		"whats_on": {"conference_id": "climate26"},
	} {
		if res := call(t, cs, tool, args, nil); !res.IsError || !strings.Contains(text(res), "may not read") {
			t.Errorf("%s on climate26: error %v, %q", tool, res.IsError, text(res))
		}
	}
	var out mcpserver.Items
	if res := call(t, cs, "search", map[string]any{"table": "speakers", "query": "MLOps", "conference_id": "aidata26"}, &out); res.IsError {
		t.Fatalf("search on aidata26: %s", text(res))
	}
}
