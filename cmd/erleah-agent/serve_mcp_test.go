package main

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		require.Fail(t, "a wrong token connected")
	}
	cs, err := connect("op-token")
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_conferences"})
	require.NoError(t, err, "list_conferences")
	require.False(t, res.IsError, "list_conferences: %+v", res)
	m, ok := res.StructuredContent.(map[string]any)
	require.True(t, ok, "list_conferences: %#v", res.StructuredContent)
	assert.NotEmpty(t, m["conferences"].([]any), "list_conferences: %#v", res.StructuredContent)
}
