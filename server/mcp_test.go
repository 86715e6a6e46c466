package server_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/server"
)

// TestMCPMountedBehindLockout checks that /mcp reaches the MCP handler, and
// that the 401s it answers count towards the wrong-token lockout.
func TestMCPMountedBehindLockout(t *testing.T) {
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer ok" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	ts := httptest.NewServer(server.New(server.Options{MCP: mcp, BadTokens: server.Rate{PerSecond: 1e-6, Burst: 2}}))
	defer ts.Close()
	send := func(token string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	for i, want := range []int{http.StatusAccepted, http.StatusUnauthorized, http.StatusUnauthorized, http.StatusTooManyRequests} {
		token := "wrong"
		if i == 0 {
			token = "ok"
		}
		require.Equal(t, want, send(token), "request %d: status", i)
	}
	assert.Equal(t, http.StatusTooManyRequests, send("ok"), "locked-out address with the right token: status")
}
