package search

import "context"

// tryOnceKey marks a context whose searches are tried once.
type tryOnceKey struct{}

// TryOnce returns ctx marked so that what serves a search under it (an
// embedding provider's client, an index's driver) sends each request once:
// its caller retries itself (a turn's search), or can do without the
// result (a reflection probe), and a failure comes back to it at once
// instead of after retries of its own. Unmarked searches are retried where
// they are served.
func TryOnce(ctx context.Context) context.Context {
	return context.WithValue(ctx, tryOnceKey{}, true)
}

// TriesOnce reports whether ctx was marked by TryOnce.
func TriesOnce(ctx context.Context) bool {
	v, _ := ctx.Value(tryOnceKey{}).(bool)
	return v
}
