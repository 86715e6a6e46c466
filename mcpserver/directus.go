package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/erleah/erleah-agent/directus"
)

// DirectusAccess checks users' tokens against Directus: a token is good when
// GET /users/me accepts it, and its holder may read a conference when GET
// /items/conferences/<id> with that token succeeds.
type DirectusAccess struct{ Client *directus.Client }

// User returns the id of the token's holder.
func (d DirectusAccess) User(ctx context.Context, token string) (string, error) {
	u, err := d.Client.WithToken(token).Me(ctx)
	var de *directus.Error
	if errors.As(err, &de) && (de.Status == http.StatusUnauthorized || de.Status == http.StatusForbidden) {
		return "", fmt.Errorf("%w: %s", ErrBadToken, de.Code)
	}
	if err != nil {
		return "", err
	}
	return u.ID, nil
}

// CanRead reports whether the token's holder may read the conference (a
// missing conference reads as forbidden, as Directus answers both alike).
func (d DirectusAccess) CanRead(ctx context.Context, token, conference string) (bool, error) {
	var item struct {
		ID any `json:"id"`
	}
	err := d.Client.WithToken(token).ReadItem(ctx, "conferences", conference, []string{"id"}, &item)
	var de *directus.Error
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &de) && (de.Status == http.StatusForbidden || de.Status == http.StatusNotFound || de.Status == http.StatusUnauthorized):
		return false, nil
	}
	return false, err
}
