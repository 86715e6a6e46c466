package main

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type withBearer struct{ token string }

func (b withBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestServeMountsMCP checks that serve wires /mcp: the operator's token
// connects and lists the conferences; another token is refused.
func TestServeMountsMCP(t *testing.T) {
	url, stop := serveForTest(t, map[string]string{"API_TOKEN": "op-token"})
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	connect := func(token string) (*mcp.ClientSession, error) {
		c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: withBearer{token}}}, nil)
	}
	if cs, err := connect("nope"); err == nil {
		_ = cs.Close()
		t.Fatal("a wrong token connected")
	}
	cs, err := connect("op-token")
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_conferences"})
	if err != nil || res.IsError {
		t.Fatalf("list_conferences: %v %+v", err, res)
	}
	if m, ok := res.StructuredContent.(map[string]any); !ok || len(m["conferences"].([]any)) == 0 {
		t.Fatalf("list_conferences: %#v", res.StructuredContent)
	}
}
