package mcpserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Access is what the MCP server asks Directus about a user's token.
type Access interface {
	// User returns the id of the token's holder; an error wrapping
	// ErrBadToken when Directus does not accept the token.
	User(ctx context.Context, token string) (string, error)
	// CanRead reports whether the token's holder may read a conference.
	CanRead(ctx context.Context, token, conference string) (bool, error)
}

// ErrBadToken is what Access.User wraps when a token is not accepted.
var ErrBadToken = errors.New("token not accepted")

// operator is the TokenInfo user id of the API_TOKEN's holder.
const operator = "operator"

// tokenKey is where a Directus user's TokenInfo keeps the token, to check
// that user's access later with the user's own token.
const tokenKey = "directus_token"

// verify checks a bearer token for auth.RequireBearerToken: the API token
// makes the operator; a token Directus accepts makes that user; anything
// else is auth.ErrInvalidToken (401).
func (t *tools) verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	if t.opts.APIToken != "" && sameSecret(token, t.opts.APIToken) {
		return &auth.TokenInfo{UserID: operator}, nil
	}
	if t.opts.Access == nil || token == "" {
		return nil, fmt.Errorf("%w: missing or wrong bearer token", auth.ErrInvalidToken)
	}
	id, err := t.opts.Access.User(ctx, token)
	switch {
	case errors.Is(err, ErrBadToken):
		return nil, fmt.Errorf("%w: Directus did not accept the bearer token", auth.ErrInvalidToken)
	case err != nil:
		t.log.Warn("mcp: checking a Directus token failed", "err", err)
		return nil, errors.New("Directus could not be reached to check the token; please try again")
	}
	return &auth.TokenInfo{UserID: "directus:" + id, Extra: map[string]any{tokenKey: token}}, nil
}

// sameSecret compares in constant time (hashing first so lengths leak nothing).
func sameSecret(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(ha[:], hb[:]) == 1 && a != ""
}

// caller is who is calling a tool: the operator, or a Directus user with
// their token.
type caller struct {
	operator bool
	token    string
}

func callerOf(req *mcp.CallToolRequest) caller {
	var ti *auth.TokenInfo
	if req != nil && req.Extra != nil {
		ti = req.Extra.TokenInfo
	}
	if ti == nil {
		return caller{}
	}
	if ti.UserID == operator {
		return caller{operator: true}
	}
	tok, _ := ti.Extra[tokenKey].(string)
	return caller{token: tok}
}

// mayRead reports whether c may read conference id.
func (t *tools) mayRead(ctx context.Context, c caller, id string) (bool, error) {
	switch {
	case c.operator:
		return true, nil
	case c.token == "" || t.opts.Access == nil:
		return false, nil
	}
	return t.opts.Access.CanRead(ctx, c.token, id)
}

// conference checks that id names a conference the service serves and the
// caller may read; the error is the tool's plain message.
func (t *tools) conference(ctx context.Context, req *mcp.CallToolRequest, id string) error {
	if id == "" {
		return errors.New("conference_id is required; list_conferences gives the ids")
	}
	if _, ok := t.opts.Conference(id); !ok {
		return fmt.Errorf("unknown conference %q; list_conferences gives the ids", id)
	}
	ok, err := t.mayRead(ctx, callerOf(req), id)
	switch {
	case err != nil:
		t.log.Warn("mcp: checking conference access failed", "conference", id, "err", err)
		return errors.New("could not check your access to that conference; please try again")
	case !ok:
		return fmt.Errorf("you may not read conference %q", id)
	}
	return nil
}
