package mcpserver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/mcpserver"
)

// TestDirectusAccess checks the adapter against a fake Directus: alice's
// token reads aidata26 only; other tokens are refused.
func TestDirectusAccess(t *testing.T) {
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		alice := r.Header.Get("Authorization") == "Bearer alice"
		switch {
		case !alice:
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"errors":[{"message":"Invalid user credentials.","extensions":{"code":"INVALID_CREDENTIALS"}}]}`))
		case r.URL.Path == "/users/me":
			_, _ = w.Write([]byte(`{"data":{"id":"u-alice","email":"alice@example.com"}}`))
		case r.URL.Path == "/items/conferences/aidata26":
			_, _ = w.Write([]byte(`{"data":{"id":"aidata26"}}`))
		default:
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"errors":[{"message":"You don't have permission to access this.","extensions":{"code":"FORBIDDEN"}}]}`))
		}
	}))
	defer fake.Close()
	c, err := directus.New(directus.Options{BaseURL: fake.URL, Token: "agent"})
	require.NoError(t, err)
	a := mcpserver.DirectusAccess{Client: c}
	ctx := context.Background()
	id, err := a.User(ctx, "alice")
	require.NoError(t, err, "User(alice)")
	require.Equal(t, "u-alice", id, "User(alice)")
	_, err = a.User(ctx, "mallory")
	require.ErrorIs(t, err, mcpserver.ErrBadToken, "User(mallory)")
	for conf, want := range map[string]bool{"aidata26": true, "climate26": false} {
		ok, err := a.CanRead(ctx, "alice", conf)
		if assert.NoError(t, err, "CanRead(alice, %s)", conf) {
			assert.Equal(t, want, ok, "CanRead(alice, %s)", conf)
		}
	}
}
