package search

import "context"

// callerRetriesKey marks a context whose caller retries failed searches
// itself.
type callerRetriesKey struct{}

// CallerRetries returns ctx marked so that what serves a search under it
// (an embedding provider's client, an index's driver) tries each request
// once: the caller's retries are the one layer, and a failure comes back
// to it at once instead of after retries of its own.
func CallerRetries(ctx context.Context) context.Context {
	return context.WithValue(ctx, callerRetriesKey{}, true)
}

// RetriedByCaller reports whether ctx was marked by CallerRetries.
func RetriedByCaller(ctx context.Context) bool {
	v, _ := ctx.Value(callerRetriesKey{}).(bool)
	return v
}
