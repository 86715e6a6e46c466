// Package catalog keeps the search index in step with the conferences
// stored in Directus, which is the source of truth: it loads every
// conference's sessions, exhibitors and speakers at startup, reloads a
// conference when realtime events say it changed, and resyncs everything
// after a reconnect and periodically, as a safety net for missed events.
//
// A Catalog is safe for concurrent use.
package catalog

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/search"
)

// Index is what the catalog feeds.
type Index interface {
	Load(ctx context.Context, b *conference.Bundle) (search.LoadReport, error)
}

// Catalog mirrors Directus into an index.
type Catalog struct {
	c     *directus.Client
	index Index
	log   *slog.Logger

	mu    sync.RWMutex
	confs map[string]conference.Conference
}

// New returns a catalog reading with c (a token allowed to read the four
// conference collections) and loading into index.
func New(c *directus.Client, index Index, log *slog.Logger) *Catalog {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Catalog{c: c, index: index, log: log, confs: map[string]conference.Conference{}}
}

// Conference describes a loaded conference for the agent.
func (k *Catalog) Conference(id string) (agent.Conference, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	c, ok := k.confs[id]
	return agent.Conference{ID: c.ID, Name: c.Name, Venue: c.Venue, StartsOn: c.StartsOn, EndsOn: c.EndsOn}, ok
}

// Conferences lists the loaded conference ids.
func (k *Catalog) Conferences() []string {
	k.mu.RLock()
	defer k.mu.RUnlock()
	out := make([]string, 0, len(k.confs))
	for id := range k.confs {
		out = append(out, id)
	}
	return out
}

// Sync loads the given conferences (all of them when none is given) from
// Directus into the index. A conference that is no longer in Directus is
// emptied in the index and no longer served.
func (k *Catalog) Sync(ctx context.Context, ids ...string) error {
	b, problems, err := k.read(ctx, ids)
	if err != nil {
		return err
	}
	for _, p := range problems {
		k.log.Warn("conference data problem (that part dropped)", "problem", p)
	}
	gone := k.gone(ids, b)
	for _, id := range gone {
		b.Conferences = append(b.Conferences, conference.Conference{ID: id}) // loads as empty
	}
	if len(b.Conferences) == 0 {
		return nil
	}
	rep, err := k.index.Load(ctx, b)
	if err != nil {
		return fmt.Errorf("catalog: index: %w", err)
	}
	rep.Log(k.log)
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, c := range b.Conferences {
		k.confs[c.ID] = c
	}
	for _, id := range gone {
		delete(k.confs, id)
		k.log.Info("conference removed from Directus; no longer served", "conference", id)
	}
	return nil
}

// Bundle reads every conference from Directus as Sync would load it, with
// the problems found (the parts they name are dropped).
func (k *Catalog) Bundle(ctx context.Context) (*conference.Bundle, []string, error) {
	return k.read(ctx, nil)
}

// gone lists the loaded conferences that were asked for (all, when ids is
// empty) but are not in b.
func (k *Catalog) gone(ids []string, b *conference.Bundle) []string {
	k.mu.RLock()
	defer k.mu.RUnlock()
	var out []string
	for id := range k.confs {
		asked := len(ids) == 0 || slices.Contains(ids, id)
		if asked && !slices.ContainsFunc(b.Conferences, func(c conference.Conference) bool { return c.ID == id }) {
			out = append(out, id)
		}
	}
	return out
}

// Watch keeps the index fresh until ctx ends: it reloads a conference a
// moment after Directus reports a change to it, and everything after each
// reconnect and every resync interval.
func (k *Catalog) Watch(ctx context.Context, resync time.Duration) error {
	p := &pending{ids: map[string]bool{}, wake: make(chan struct{}, 1)}
	go k.debounce(ctx, p, resync)
	subs := []directus.Subscription{}
	for _, coll := range []string{"conferences", "sessions", "exhibitors", "speakers"} {
		field := "conference"
		if coll == "conferences" {
			field = "id"
		}
		subs = append(subs, directus.Subscription{UID: "catalog-" + coll, Collection: coll, Query: map[string]any{"fields": []string{"id", field}}})
	}
	return k.c.Realtime(ctx, directus.RealtimeOptions{
		Subscriptions: subs,
		OnEvent:       func(e directus.Event) { k.onEvent(e, p) },
		OnConnect:     func() { p.add("*") },
		OnDisconnect:  func(err error) { k.log.Warn("catalog realtime disconnected", "err", err) },
		PingInterval:  30 * time.Second, // a silently dead connection is noticed, and the reconnect resyncs
	})
}

// pending is the set of conferences to reload ("*": all of them). Adding
// never blocks and never loses an id.
type pending struct {
	mu   sync.Mutex
	ids  map[string]bool
	wake chan struct{}
}

func (p *pending) add(id string) {
	p.mu.Lock()
	p.ids[id] = true
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default: // a wake-up is queued already
	}
}

// take empties the set and returns what was in it.
func (p *pending) take() map[string]bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	ids := p.ids
	p.ids = map[string]bool{}
	return ids
}

// debounce waits a moment after the first notice, so a burst of changes
// makes one reload, then reloads what was noted; and everything every
// resync interval.
func (k *Catalog) debounce(ctx context.Context, p *pending, resync time.Duration) {
	tick := time.NewTicker(resync)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			p.add("*")
		case <-p.wake:
			select {
			case <-ctx.Done():
				return
			case <-time.After(300 * time.Millisecond):
			}
			k.reload(ctx, p.take())
		}
	}
}

func (k *Catalog) reload(ctx context.Context, ids map[string]bool) {
	if len(ids) == 0 {
		return
	}
	var list []string
	if !ids["*"] {
		list = slices.Collect(maps.Keys(ids))
	}
	if err := k.Sync(ctx, list...); err != nil && ctx.Err() == nil {
		k.log.Warn("catalog reload failed; the next resync retries", "err", err)
	}
}

// onEvent finds which conferences an event touches; deletes carry only
// ids, so they reload everything.
func (k *Catalog) onEvent(e directus.Event, p *pending) {
	if e.Type == "init" {
		return
	}
	if e.Type == "delete" {
		p.add("*")
		return
	}
	for _, id := range conferencesOf(e) {
		p.add(id)
	}
}
