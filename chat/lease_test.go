package chat

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
				assert.NoError(t, err, "Lease")
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), wins.Load(), "won; want exactly one winner")
	assert.Equal(t, int32(7), lost.Load(), "lost; want exactly one winner")
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
			_, err := s.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	reply := waitFinal(t, store, "u1")
	time.Sleep(50 * time.Millisecond)
	store.mu.Lock()
	defer store.mu.Unlock()
	require.Len(t, store.claims, 1, "claims %v; want one generation", store.claims)
	var owner string
	for _, l := range store.claims {
		owner = l.Owner
	}
	require.Equal(t, owner, reply.Metadata["accepted_by"], "the reply was written by someone else than who holds it")
	finals := 0
	for _, p := range store.patches[reply.ID] {
		if p["status"] == StatusCompleted || p["status"] == StatusFailed {
			finals++
		}
	}
	assert.Equal(t, 1, finals, "final writes of the reply")
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
	n, err := b.Reconcile(context.Background())
	require.NoError(t, err, "Reconcile")
	require.Zero(t, n, "Reconcile; want nothing restarted")
	time.Sleep(50 * time.Millisecond)
	store.mu.Lock()
	defer store.mu.Unlock()
	assert.Empty(t, store.patches["r1"], "B wrote the reply A holds")
	assert.NotContains(t, store.claims, "r1:2", "B took a new generation of a live lease")
}

// Once the holder's lease has expired (the fake clock is past it), the
// other replica takes it over (generation 2) and answers the reply.
func TestAnExpiredLeaseIsTakenOver(t *testing.T) {
	store := newMemStore()
	abandonedReply(store)
	store.setClaim(Lease{Reply: "r1", Generation: 1, Owner: "A", Expires: time.Now().Add(20 * time.Second)})
	later := func() time.Time { return time.Now().Add(time.Minute) } // A's lease is over
	b := testService(t, store, nil, Options{Instance: "B", AbandonAfter: time.Minute, Now: later})
	n, err := b.Reconcile(context.Background())
	require.NoError(t, err, "Reconcile")
	require.Equal(t, 1, n, "Reconcile; want the reply restarted")
	m := waitFinal(t, store, "u1")
	require.Equal(t, StatusCompleted, m.Status, "after the takeover: %+v", m)
	require.Equal(t, "B", m.Metadata["restarted_by"], "after the takeover: %+v", m)
	store.mu.Lock()
	defer store.mu.Unlock()
	require.Contains(t, store.claims, "r1:2", "claims %v; want generation 2 held by B", store.claims)
	assert.Equal(t, "B", store.claims["r1:2"].Owner, "claims %v; want generation 2 held by B", store.claims)
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
	n, err := b.Reconcile(context.Background())
	require.NoError(t, err, "Reconcile")
	require.Zero(t, n, "Reconcile; want nothing restarted")
	time.Sleep(50 * time.Millisecond)
	m := store.get("r1")
	assert.Equal(t, StatusCompleted, m.Status, "the completed reply became %+v", m)
	assert.Equal(t, "The answer.", m.Text, "the completed reply became %+v", m)
	store.mu.Lock()
	defer store.mu.Unlock()
	assert.Empty(t, store.patches["r1"], "the completed reply was written")
}

// A replica whose lease is taken over while its turn runs (its renewal
// finds a newer generation) stops the turn and writes no final fields.
func TestALostLeaseStopsTheFinalWrite(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", 0)
	model := newGatedModel()
	a := testService(t, store, model, Options{Instance: "A", LeaseTTL: 150 * time.Millisecond})
	acc, err := a.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
	require.NoError(t, err)
	<-model.started
	store.setClaim(Lease{Reply: acc.AssistantID, Generation: 2, Owner: "B", Expires: time.Now().Add(time.Minute)})
	waitFor(t, "the turn to stop", func() bool { return !a.inflight.has(acc.AssistantID) })
	close(model.gate)
	time.Sleep(100 * time.Millisecond)
	m := store.get(acc.AssistantID)
	assert.Equal(t, StatusPending, m.Status, "the reply after A lost its lease: %+v; want it left as it was (pending) for B", m)
	store.mu.Lock()
	defer store.mu.Unlock()
	assert.Empty(t, store.patches[acc.AssistantID], "A wrote the reply after losing its lease")
}

// A held lease is renewed while a slow turn runs, past its first TTL, and
// the turn completes.
func TestALeaseIsRenewedDuringALongTurn(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", 0)
	model := newGatedModel()
	a := testService(t, store, model, Options{Instance: "A", LeaseTTL: 90 * time.Millisecond})
	_, err := a.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
	require.NoError(t, err)
	<-model.started
	time.Sleep(300 * time.Millisecond) // more than three TTLs
	close(model.gate)
	m := waitFinal(t, store, "u1")
	assert.Equal(t, StatusCompleted, m.Status, "the long turn ended %+v", m)
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
	_, err := b.Accept(context.Background(), Delivery{MessageID: "u2", ConversationID: "c1", Role: "user"})
	require.NoError(t, err)
	waitFor(t, "the delivery to end", func() bool { return !b.inflight.has(replyID("u2")) })
	require.Empty(t, store.replies("u2"), "the later question was answered while the earlier was open")
	n, _ := b.Reconcile(context.Background()) // taken up, and left again
	require.Equal(t, 1, n, "Reconcile took up; want the later question")
	waitFor(t, "the delivery to end", func() bool { return !b.inflight.has(replyID("u2")) })
	require.Empty(t, store.replies("u2"), "the later question was answered while the earlier was open")
	store.mu.Lock()
	store.msgs["r1"].Status = StatusCompleted
	store.mu.Unlock()
	n, _ = b.Reconcile(context.Background())
	require.Equal(t, 1, n, "Reconcile took up; want the later question")
	m := waitFinal(t, store, "u2")
	assert.Equal(t, StatusCompleted, m.Status, "the later question got %+v", m)
}

// A replica that loses the lease race to one that then dies before writing
// anything must try again once the lease expires: it does not keep the
// message as "being answered here", so its reconciler answers it.
func TestLostLeaseIsRetriedWhenTheHolderDies(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", time.Minute)
	dead := Lease{Reply: replyID("u1"), Generation: 1, Owner: "dead", Expires: time.Now().Add(300 * time.Millisecond)}
	store.mu.Lock()
	store.claims[dead.id()] = dead
	store.mu.Unlock()
	a := testService(t, store, nil, Options{Instance: "A", ReconcileGrace: time.Second})
	_, err := a.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
	require.NoError(t, err)
	waitFor(t, "the delivery to give up", func() bool { _, seen := a.seen.known("u1"); return !seen })
	time.Sleep(400 * time.Millisecond) // the dead holder's lease expires
	n, err := a.Reconcile(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the reconciler takes the message up")
	reply := waitFinal(t, store, "u1")
	assert.Equal(t, StatusCompleted, reply.Status)
}

// A reply whose creation Directus wrote but whose answer was lost (the
// connection dropped), followed by a read that fails too, is answered
// within seconds by the same delivery tried again, not after AbandonAfter:
// one reply, completed.
func TestALostCreateAnswerIsTriedAgainAndTakenUp(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", 0)
	store.lostCreates, store.readOutage = 1, 1
	a := testService(t, store, nil, Options{Instance: "A", AbandonAfter: time.Hour})
	_, err := a.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
	require.NoError(t, err)
	reply := waitFinal(t, store, "u1")
	assert.Equal(t, StatusCompleted, reply.Status)
	assert.Equal(t, "A", reply.Metadata["accepted_by"])
	assert.Zero(t, store.readOutage, "the retry read the message again")
}

// A reply accepted by another process, or one already handed back, is not
// taken up by a delivery tried again: only the reconciler restarts it.
func TestOnlyOnesOwnUnstartedReplyIsTakenUp(t *testing.T) {
	for name, md := range map[string]map[string]any{
		"accepted elsewhere": {"accepted_by": "B"},
		"handed back":        {"accepted_by": "A", "handed_back": true},
		"restarted":          {"accepted_by": "A", "restarted_by": "A", "attempts": 1},
	} {
		t.Run(name, func(t *testing.T) {
			store := newMemStore()
			store.addUser("c1", "u1", "Any k8s workshops?", 0)
			store.put(Message{ID: replyID("u1"), Conversation: "c1", Role: "assistant", Status: StatusPending, ReplyTo: "u1", Author: memAgent, Metadata: md}, 0)
			a := testService(t, store, nil, Options{Instance: "A", AbandonAfter: time.Hour})
			_, err := a.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
			require.NoError(t, err)
			waitFor(t, "the delivery to end", func() bool { return !a.inflight.has(replyID("u1")) })
			assert.Equal(t, StatusPending, store.get(replyID("u1")).Status)
			store.mu.Lock()
			defer store.mu.Unlock()
			assert.Empty(t, store.patches[replyID("u1")], "the reply was written")
		})
	}
}
