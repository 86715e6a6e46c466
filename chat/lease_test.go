package chat

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/rules"
)

// gatedModel is the rules model whose calls wait until the gate opens (or
// the turn's context ends).
type gatedModel struct {
	inner   agent.Model
	started chan struct{}
	once    sync.Once
	gate    chan struct{}
}

func newGatedModel() *gatedModel {
	return &gatedModel{inner: rules.New(), started: make(chan struct{}), gate: make(chan struct{})}
}

func (m *gatedModel) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	m.once.Do(func() { close(m.started) })
	select {
	case <-m.gate:
	case <-ctx.Done():
		return agent.Completion{}, ctx.Err()
	}
	return m.inner.Complete(ctx, call)
}

// Of many replicas claiming the same reply at once, exactly one wins; the
// others have lost (ErrLeaseLost), which is not an error.
func TestOnlyOneOfConcurrentLeasesWins(t *testing.T) {
	store := newMemStore()
	now := time.Now()
	var wins, lost atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := store.Lease(context.Background(), "r1", string(rune('A'+i)), now, time.Minute)
			switch {
			case err == nil:
				wins.Add(1)
			case errors.Is(err, ErrLeaseLost):
				lost.Add(1)
			default:
				t.Errorf("Lease: %v", err)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || lost.Load() != 7 {
		t.Fatalf("%d won, %d lost; want exactly one winner", wins.Load(), lost.Load())
	}
}

// Two replicas (two Services on one store) get the same message at once:
// one reply, written by one of them; the other logs that another replica
// holds it and writes nothing.
func TestTwoReplicasClaimingOneMessageWriteOneReply(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", 0)
	a := testService(t, store, nil, Options{Instance: "A"})
	b := testService(t, store, nil, Options{Instance: "B"})
	var wg sync.WaitGroup
	for _, s := range []*Service{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	reply := waitFinal(t, store, "u1")
	time.Sleep(50 * time.Millisecond)
	store.mu.Lock()
	defer store.mu.Unlock()
	if len(store.claims) != 1 {
		t.Fatalf("claims %v; want one generation", store.claims)
	}
	var owner string
	for _, l := range store.claims {
		owner = l.Owner
	}
	if reply.Metadata["accepted_by"] != owner {
		t.Fatalf("the reply was written by %v but %s holds it", reply.Metadata["accepted_by"], owner)
	}
	finals := 0
	for _, p := range store.patches[reply.ID] {
		if p["status"] == StatusCompleted || p["status"] == StatusFailed {
			finals++
		}
	}
	if finals != 1 {
		t.Fatalf("%d final writes of the reply; want 1", finals)
	}
}

// abandonedReply stores a question and its reply left pending long ago.
func abandonedReply(store *memStore) {
	store.addUser("c1", "u1", "Any k8s workshops?", time.Hour)
	store.put(Message{ID: "r1", Conversation: "c1", Role: "assistant", Status: StatusPending, ReplyTo: "u1", Author: memAgent,
		Metadata: map[string]any{"accepted_by": "A"}}, time.Hour)
}

// A replica still holds the reply (it waits for a turn slot, say, and
// renews its lease): another replica's reconciler finds it abandoned by its
// date_updated but does not restart it.
func TestALiveLeaseElsewhereIsNotRestarted(t *testing.T) {
	store := newMemStore()
	abandonedReply(store)
	store.setClaim(Lease{Reply: "r1", Generation: 1, Owner: "A", Expires: time.Now().Add(20 * time.Second)})
	b := testService(t, store, nil, Options{Instance: "B", AbandonAfter: time.Minute})
	if n, err := b.Reconcile(context.Background()); err != nil || n != 0 {
		t.Fatalf("Reconcile = %d, %v; want nothing restarted", n, err)
	}
	time.Sleep(50 * time.Millisecond)
	store.mu.Lock()
	defer store.mu.Unlock()
	if ps := store.patches["r1"]; len(ps) != 0 {
		t.Fatalf("B wrote the reply A holds: %v", ps)
	}
	if _, taken := store.claims["r1:2"]; taken {
		t.Fatal("B took a new generation of a live lease")
	}
}

// Once the holder's lease has expired (the fake clock is past it), the
// other replica takes it over (generation 2) and answers the reply.
func TestAnExpiredLeaseIsTakenOver(t *testing.T) {
	store := newMemStore()
	abandonedReply(store)
	store.setClaim(Lease{Reply: "r1", Generation: 1, Owner: "A", Expires: time.Now().Add(20 * time.Second)})
	later := func() time.Time { return time.Now().Add(time.Minute) } // A's lease is over
	b := testService(t, store, nil, Options{Instance: "B", AbandonAfter: time.Minute, Now: later})
	if n, err := b.Reconcile(context.Background()); err != nil || n != 1 {
		t.Fatalf("Reconcile = %d, %v; want the reply restarted", n, err)
	}
	m := waitFinal(t, store, "u1")
	if m.Status != StatusCompleted || m.Metadata["restarted_by"] != "B" {
		t.Fatalf("after the takeover: %+v", m)
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if l, ok := store.claims["r1:2"]; !ok || l.Owner != "B" {
		t.Fatalf("claims %v; want generation 2 held by B", store.claims)
	}
}

// A reply listed as abandoned that is finished by the time the lease is
// taken (the listing is stale) is never reopened: no reset, no new turn.
func TestACompletedReplyIsNeverReopened(t *testing.T) {
	store := newMemStore()
	abandonedReply(store)
	stale := store.get("r1")
	stale.Status = StatusStreaming
	store.abandoned = []Message{stale}
	store.mu.Lock()
	store.msgs["r1"].Status, store.msgs["r1"].Text = StatusCompleted, "The answer."
	store.mu.Unlock()
	b := testService(t, store, nil, Options{Instance: "B", AbandonAfter: time.Minute})
	if n, err := b.Reconcile(context.Background()); err != nil || n != 0 {
		t.Fatalf("Reconcile = %d, %v; want nothing restarted", n, err)
	}
	time.Sleep(50 * time.Millisecond)
	if m := store.get("r1"); m.Status != StatusCompleted || m.Text != "The answer." {
		t.Fatalf("the completed reply became %+v", m)
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if ps := store.patches["r1"]; len(ps) != 0 {
		t.Fatalf("the completed reply was written: %v", ps)
	}
}

// A replica whose lease is taken over while its turn runs (its renewal
// finds a newer generation) stops the turn and writes no final fields.
func TestALostLeaseStopsTheFinalWrite(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", 0)
	model := newGatedModel()
	a := testService(t, store, model, Options{Instance: "A", LeaseTTL: 150 * time.Millisecond})
	acc, err := a.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
	if err != nil {
		t.Fatal(err)
	}
	<-model.started
	store.setClaim(Lease{Reply: acc.AssistantID, Generation: 2, Owner: "B", Expires: time.Now().Add(time.Minute)})
	waitFor(t, "the turn to stop", func() bool { return !a.inflight.has(acc.AssistantID) })
	close(model.gate)
	time.Sleep(100 * time.Millisecond)
	if m := store.get(acc.AssistantID); m.Status != StatusPending {
		t.Fatalf("the reply after A lost its lease: %+v; want it left as it was (pending) for B", m)
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if ps := store.patches[acc.AssistantID]; len(ps) != 0 {
		t.Fatalf("A wrote the reply after losing its lease: %v", ps)
	}
}

// A held lease is renewed while a slow turn runs, past its first TTL, and
// the turn completes.
func TestALeaseIsRenewedDuringALongTurn(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", 0)
	model := newGatedModel()
	a := testService(t, store, model, Options{Instance: "A", LeaseTTL: 90 * time.Millisecond})
	if _, err := a.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"}); err != nil {
		t.Fatal(err)
	}
	<-model.started
	time.Sleep(300 * time.Millisecond) // more than three TTLs
	close(model.gate)
	if m := waitFinal(t, store, "u1"); m.Status != StatusCompleted {
		t.Fatalf("the long turn ended %+v", m)
	}
}

// A conversation's next question is not started while an earlier one is
// open (here: its reply pending, held by another replica); it is left for
// the reconciler, which answers it once the earlier one is done.
func TestALaterQuestionWaitsForAnOpenEarlierOne(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", 2*time.Minute)
	store.put(Message{ID: "r1", Conversation: "c1", Role: "assistant", Status: StatusStreaming, ReplyTo: "u1", Author: memAgent}, time.Minute)
	store.addUser("c1", "u2", "And on Tuesday?", time.Minute)
	b := testService(t, store, nil, Options{Instance: "B", ReconcileGrace: time.Second, AbandonAfter: time.Hour})
	if _, err := b.Accept(context.Background(), Delivery{MessageID: "u2", ConversationID: "c1", Role: "user"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the delivery to end", func() bool { return !b.inflight.has(replyID("u2")) })
	if rs := store.replies("u2"); len(rs) != 0 {
		t.Fatalf("the later question was answered while the earlier was open: %+v", rs)
	}
	if n, _ := b.Reconcile(context.Background()); n != 1 { // taken up, and left again
		t.Fatalf("Reconcile took up %d; want the later question", n)
	}
	waitFor(t, "the delivery to end", func() bool { return !b.inflight.has(replyID("u2")) })
	if rs := store.replies("u2"); len(rs) != 0 {
		t.Fatalf("the later question was answered while the earlier was open: %+v", rs)
	}
	store.mu.Lock()
	store.msgs["r1"].Status = StatusCompleted
	store.mu.Unlock()
	if n, _ := b.Reconcile(context.Background()); n != 1 {
		t.Fatalf("Reconcile took up %d; want the later question", n)
	}
	if m := waitFinal(t, store, "u2"); m.Status != StatusCompleted {
		t.Fatalf("the later question got %+v", m)
	}
}
