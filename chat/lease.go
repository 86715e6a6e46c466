package chat

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/directus"
)

// Claims across replicas. Exactly one process may write a reply at a time,
// and Directus, not process memory, says which: a lease on the reply, kept
// as rows of reply_claims, one per generation, with the id
// "<reply>:<generation>" chosen by the agent. The latest generation holds
// the reply until its expires.
//
// Taking a lease (Store.Lease) reads the reply's latest claim (sort
// -generation, limit 1) and then
//   - none, or expired (expires before now): creates generation+1. The
//     primary key is unique, so of replicas that read the same latest
//     generation exactly one creates the next; the others get Directus's
//     RECORD_NOT_UNIQUE and have lost (ErrLeaseLost);
//   - live and another owner's: lost;
//   - live and this owner's: held (its expiry is extended).
//
// A held lease is renewed every LeaseTTL/3 while the reply is being
// answered (Store.Renew: read the latest claim, then PATCH its expires). A
// renewal that finds a newer generation, or a lease that was not renewed
// before it expired, is lost: the turn is cancelled and its remaining writes
// (partial and final) are dropped. Before the final write the latest claim
// is read again (Store.Holds). Nothing is released at the end: a lease
// simply expires, which is why AbandonAfter must be at least LeaseTTL (a
// reply the reconciler finds abandoned then has no live lease unless its
// holder is still renewing it, i.e. still working on it).
//
// Expiry is judged by the agents' clocks (Options.Now): replicas must keep
// them within a few seconds of each other (NTP), much less than LeaseTTL.

// LeaseTTL is how long a lease lasts without renewal; it is renewed every
// LeaseTTL/3.
const LeaseTTL = 30 * time.Second

// ErrLeaseLost means another replica holds the reply (or took it over).
var ErrLeaseLost = errors.New("chat: another replica holds the reply")

// Lease is one generation of a reply's claim.
type Lease struct {
	Reply      string
	Generation int
	Owner      string
	Expires    time.Time
}

func (l Lease) id() string { return l.Reply + ":" + strconv.Itoa(l.Generation) }

// ClaimRetention is how long after it expired a claim is kept: its reply
// finished long ago, so nothing reads it again but an audit.
const ClaimRetention = time.Hour

// PruneClaims deletes up to limit reply_claims rows that expired before t
// and whose reply is finished (completed or failed) or gone; it returns
// how many. Claims of a reply still pending or streaming stay: the
// reconciler restarts that reply under a new generation. One GET for the
// claims, one for their replies, one DELETE.
func (s *DirectusStore) PruneClaims(ctx context.Context, before time.Time, limit int) (int, error) {
	var claims []claimItem
	q := directus.Query{Fields: []string{"id", "reply"}, Filter: map[string]any{"expires": map[string]any{"_lt": stamp(before)}}, Limit: limit}
	if err := s.c.ReadItems(ctx, "reply_claims", q, &claims); err != nil || len(claims) == 0 {
		return 0, err
	}
	open, err := s.openReplies(ctx, claims)
	if err != nil {
		return 0, err
	}
	var ids []string
	for _, c := range claims {
		if !open[c.Reply] {
			ids = append(ids, c.ID)
		}
	}
	if err := s.c.DeleteItems(ctx, "reply_claims", ids); err != nil {
		return 0, fmt.Errorf("chat: delete expired reply claims: %w", err)
	}
	return len(ids), nil
}

// openReplies reads which of the claims' replies are still pending or
// streaming.
func (s *DirectusStore) openReplies(ctx context.Context, claims []claimItem) (map[string]bool, error) {
	replies := make([]string, 0, len(claims))
	for _, c := range claims {
		replies = append(replies, c.Reply)
	}
	var items []item
	q := directus.Query{Fields: []string{"id"}, Limit: len(replies), Filter: map[string]any{"_and": []any{
		map[string]any{"id": map[string]any{"_in": replies}},
		map[string]any{"status": map[string]any{"_in": []string{StatusPending, StatusStreaming}}},
	}}}
	if err := s.c.ReadItems(ctx, "messages", q, &items); err != nil {
		return nil, fmt.Errorf("chat: read the replies of expired claims: %w", err)
	}
	open := make(map[string]bool, len(items))
	for _, it := range items {
		open[it.ID] = true
	}
	return open, nil
}

// claimFields are the fields of reply_claims.
var claimFields = []string{"id", "reply", "generation", "owner", "expires"}

type claimItem struct {
	ID         string  `json:"id"`
	Reply      string  `json:"reply"`
	Generation int     `json:"generation"`
	Owner      string  `json:"owner"`
	Expires    *string `json:"expires"`
}

// latestClaim reads the reply's claim of the highest generation.
func (s *DirectusStore) latestClaim(ctx context.Context, reply string) (Lease, bool, error) {
	var items []claimItem
	q := directus.Query{Fields: claimFields, Filter: map[string]any{"reply": map[string]any{"_eq": reply}}, Sort: []string{"-generation"}, Limit: 1}
	if err := s.c.ReadItems(ctx, "reply_claims", q, &items); err != nil {
		return Lease{}, false, err
	}
	if len(items) == 0 {
		return Lease{}, false, nil
	}
	it := items[0]
	return Lease{Reply: it.Reply, Generation: it.Generation, Owner: it.Owner, Expires: parseTime(it.Expires)}, true, nil
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// Lease takes (or finds held by owner) the lease on a reply until now+ttl:
// one GET, then one POST (a new generation) or one PATCH (owner's own, live).
// A live lease of someone else's, or a generation created by another
// replica first, is ErrLeaseLost.
func (s *DirectusStore) Lease(ctx context.Context, reply, owner string, now time.Time, ttl time.Duration) (Lease, error) {
	cur, found, err := s.latestClaim(ctx, reply)
	if err != nil {
		return Lease{}, fmt.Errorf("chat: read the reply's lease: %w", err)
	}
	if found && !cur.Expires.Before(now) {
		if cur.Owner != owner {
			return cur, ErrLeaseLost
		}
		cur.Expires = now.Add(ttl)
		if err := s.c.UpdateItem(ctx, "reply_claims", cur.id(), map[string]any{"expires": stamp(cur.Expires)}, nil); err != nil {
			return Lease{}, fmt.Errorf("chat: extend the reply's lease: %w", err)
		}
		return cur, nil
	}
	next := Lease{Reply: reply, Generation: cur.Generation + 1, Owner: owner, Expires: now.Add(ttl)}
	err = s.c.CreateItem(ctx, "reply_claims", map[string]any{"id": next.id(), "reply": reply, "generation": next.Generation,
		"owner": owner, "expires": stamp(next.Expires)}, nil)
	switch {
	case directus.IsUnique(err):
		return Lease{}, ErrLeaseLost
	case err != nil:
		return Lease{}, fmt.Errorf("chat: take the reply's lease: %w", err)
	}
	return next, nil
}

// Renew extends a held lease until now+ttl: one GET (the latest claim must
// still be l's generation and owner, else ErrLeaseLost), one PATCH.
func (s *DirectusStore) Renew(ctx context.Context, l Lease, now time.Time, ttl time.Duration) (Lease, error) {
	if err := s.Holds(ctx, l); err != nil {
		return l, err
	}
	l.Expires = now.Add(ttl)
	if err := s.c.UpdateItem(ctx, "reply_claims", l.id(), map[string]any{"expires": stamp(l.Expires)}, nil); err != nil {
		return l, fmt.Errorf("chat: renew the reply's lease: %w", err)
	}
	return l, nil
}

// Holds checks, with one GET, that l is still the reply's latest claim.
// (Whether it has expired is the caller's to judge: it knows its clock.)
func (s *DirectusStore) Holds(ctx context.Context, l Lease) error {
	cur, found, err := s.latestClaim(ctx, l.Reply)
	switch {
	case err != nil:
		return fmt.Errorf("chat: read the reply's lease: %w", err)
	case !found || cur.Generation != l.Generation || cur.Owner != l.Owner:
		return ErrLeaseLost
	}
	return nil
}

// keeper holds a reply's lease for one delivery: it renews it every ttl/3
// until stopped, and when the lease is lost (a newer generation, or not
// renewed before it expired) it cancels ctx, the context the delivery's
// turn runs on, with ErrLeaseLost as the cause.
type keeper struct {
	s      *Service
	ctx    context.Context
	cancel context.CancelCauseFunc
	stopc  chan struct{}
	once   sync.Once
	done   chan struct{}

	mu    sync.Mutex
	lease Lease
	lost  bool
}

// takeLease takes the reply's lease for this instance and starts keeping
// it, on a context derived from parent (ctx is for the requests). ErrLeaseLost: another replica
// holds it.
func (s *Service) takeLease(ctx, parent context.Context, reply string) (*keeper, error) {
	l, err := s.opts.Store.Lease(ctx, reply, s.instance, s.opts.Now(), s.opts.LeaseTTL)
	if err != nil {
		if !errors.Is(err, ErrLeaseLost) {
			s.directusError("lease", err)
		}
		return nil, err
	}
	k := &keeper{s: s, lease: l, stopc: make(chan struct{}), done: make(chan struct{})}
	k.ctx, k.cancel = context.WithCancelCause(parent)
	go k.loop()
	return k, nil
}

func (k *keeper) loop() {
	defer close(k.done)
	every := k.s.opts.LeaseTTL / 3
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-k.stopc:
			return
		case <-k.ctx.Done():
			return
		case <-t.C:
		}
		k.mu.Lock()
		l := k.lease
		k.mu.Unlock()
		now := k.s.opts.Now()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(k.ctx), every)
		nl, err := k.s.opts.Store.Renew(ctx, l, now, k.s.opts.LeaseTTL)
		cancel()
		switch {
		case err == nil:
			k.mu.Lock()
			k.lease = nl
			k.mu.Unlock()
		case errors.Is(err, ErrLeaseLost):
			k.lose("a newer claim took the reply over")
			return
		default:
			k.s.directusError("lease", err)
			if !k.s.opts.Now().Before(l.Expires) {
				k.lose("the lease expired before it could be renewed")
				return
			}
		}
	}
}

// lose marks the lease lost and cancels the delivery's context.
func (k *keeper) lose(why string) {
	k.mu.Lock()
	k.lost = true
	l := k.lease
	k.mu.Unlock()
	k.s.log.Warn("lost the lease on the reply: the turn stops and writes nothing more", "assistant", l.Reply, "generation", l.Generation, "why", why)
	k.cancel(ErrLeaseLost)
}

// alive reports, without asking Directus, whether the lease is still
// believed held: not lost and not expired by this process's clock.
func (k *keeper) alive() bool {
	if k == nil {
		return true
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return !k.lost && k.s.opts.Now().Before(k.lease.Expires)
}

// check asks Directus whether the lease is still held (before a final
// write): one GET. A lost lease is marked lost.
func (k *keeper) check(ctx context.Context) error {
	if k == nil {
		return nil
	}
	if !k.alive() {
		return ErrLeaseLost
	}
	k.mu.Lock()
	l := k.lease
	k.mu.Unlock()
	err := k.s.opts.Store.Holds(ctx, l)
	if errors.Is(err, ErrLeaseLost) {
		k.lose("a newer claim took the reply over (seen before the final write)")
	}
	return err
}

// stop ends the renewals; the lease is not released, it expires.
func (k *keeper) stop() {
	if k == nil {
		return
	}
	k.once.Do(func() { close(k.stopc) })
	<-k.done
	k.cancel(context.Canceled)
}

// leaseLost reports whether ctx ended because its lease was lost.
func leaseLost(ctx context.Context) bool { return errors.Is(context.Cause(ctx), ErrLeaseLost) }
