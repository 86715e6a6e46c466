package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/rules"
)

func TestAcceptAnswersIntoTheAssistantMessage(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Who can help me deploy ML models on-prem?", 0)
	s := testService(t, store, nil, Options{Evaluate: true}) // evaluation runs beside the delivery
	acc, err := s.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
	require.NoError(t, err, "Accept")
	require.Equal(t, "accepted", acc.Status, "Accept = %+v", acc)
	require.Len(t, acc.AssistantID, 36, "Accept = %+v", acc)
	reply := waitFinal(t, store, "u1")
	require.Equal(t, acc.AssistantID, reply.ID, "reply %+v", reply)
	require.Equal(t, StatusCompleted, reply.Status, "reply %+v", reply)
	require.Contains(t, reply.Text, "[exhibitors/", "reply %+v", reply)
	store.mu.Lock()
	patches := slices.Clone(store.patches[reply.ID])
	store.mu.Unlock()
	seen := map[string]bool{}
	var last map[string]any // the final write; the evaluation may follow it
	for _, p := range patches {
		if p["status"] == StatusCompleted {
			last = p
		}
		if p["thinking_output"] != nil {
			seen["thinking"] = true
		}
		if p["status"] == StatusStreaming {
			seen["streaming"] = true
		}
	}
	meta, _ := last["metadata"].(map[string]any)
	require.True(t, seen["thinking"], "writes %v; final %v", seen, last)
	require.True(t, seen["streaming"], "writes %v; final %v", seen, last)
	require.Equal(t, StatusCompleted, last["status"], "writes %v; final %v", seen, last)
	require.NotNil(t, meta["trace_id"], "writes %v; final %v", seen, last)
	require.NotNil(t, meta["citations"], "writes %v; final %v", seen, last)
	require.Equal(t, "on", meta["reflection"], "metadata does not record the reflection mode: %v", meta)
	traceID, _ := meta["trace_id"].(string)
	waitFor(t, "the evaluation in the trace", func() bool {
		tr, ok := s.Traces().Get(traceID)
		return ok && tr.State.Evaluation != nil
	})
	// The background evaluation is added to the metadata after the final
	// write, which it must not race: the whole metadata, scores included.
	waitFor(t, "the evaluation in the metadata", func() bool {
		store.mu.Lock()
		defer store.mu.Unlock()
		ps := store.patches[reply.ID]
		md, _ := ps[len(ps)-1]["metadata"].(map[string]any)
		ev, _ := md["evaluation"].(map[string]any)
		return ev["quality_score"] != nil && md["citations"] != nil && ps[len(ps)-2]["status"] == StatusCompleted
	})
}

func TestDuplicateDeliveriesGiveOneReply(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "k8s workshops?", 0)
	s := testService(t, store, nil, Options{})
	var wg sync.WaitGroup
	results := make(chan Accepted, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc, _ := s.Accept(context.Background(), Delivery{MessageID: "u1", Role: "user"})
			results <- acc
		}()
	}
	wg.Wait()
	close(results)
	accepted, ids := 0, map[string]bool{}
	for r := range results {
		if r.Status == "accepted" {
			accepted++
		}
		ids[r.AssistantID] = true
	}
	require.Equal(t, 1, accepted, "accepted; want one")
	require.Len(t, ids, 1, "distinct ids; want one")
	reply := waitFinal(t, store, "u1")
	later, _ := s.Accept(context.Background(), Delivery{MessageID: "u1"})
	require.Equal(t, "duplicate", later.Status, "a later delivery: %+v", later)
	// Another replica delivered it too: the store refuses its second reply,
	// and that replica writes nothing into the first one.
	store.mu.Lock()
	writes := len(store.patches[reply.ID])
	store.mu.Unlock()
	other := testService(t, store, nil, Options{})
	acc, _ := other.Accept(context.Background(), Delivery{MessageID: "u1"})
	waitFor(t, "the other replica's delivery to end", func() bool { return !other.inflight.has(acc.AssistantID) })
	require.Len(t, store.replies("u1"), 1, "replies")
	after, _ := finalOf(store, "u1")
	store.mu.Lock()
	defer store.mu.Unlock()
	assert.Len(t, store.patches[reply.ID], writes, "the other replica touched the reply: now %+v", after)
	assert.Equal(t, reply.ID, after.ID, "the other replica touched the reply: now %+v", after)
	assert.Equal(t, StatusCompleted, after.Status, "the other replica touched the reply: now %+v", after)
	assert.Equal(t, reply.Text, after.Text, "the other replica touched the reply: now %+v", after)
}

func TestNonUserMessagesAreIgnored(t *testing.T) {
	store := newMemStore()
	s := testService(t, store, nil, Options{})
	acc, err := s.Accept(context.Background(), Delivery{MessageID: "a1", Role: "assistant"})
	require.NoError(t, err)
	assert.Equal(t, "ignored", acc.Status, "%+v", acc)
	_, err = s.Accept(context.Background(), Delivery{})
	assert.ErrorIs(t, err, ErrInvalid, "no message id")
	_, err = New(nil, nil, Options{}).Accept(context.Background(), Delivery{MessageID: "x"})
	assert.ErrorIs(t, err, ErrNoStore, "without a store")
}

// gate answers only after a turn's message was let through, to observe order.
type gate struct {
	mu      sync.Mutex
	started []string
	release map[string]chan struct{}
}

func (g *gate) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	if call.Step == agent.StepPlan {
		msg := call.Plan.Message
		g.mu.Lock()
		g.started = append(g.started, msg)
		ch := g.release[msg]
		g.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return agent.Completion{}, ctx.Err()
		}
	}
	return rules.New().Complete(ctx, call)
}

func TestConversationIsAnsweredInOrder(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "first: k8s?", 2*time.Second)
	store.addUser("c1", "u2", "second: RAG?", time.Second)
	store.addUser("c2", "u3", "other conversation: yoga?", time.Second)
	g := &gate{release: map[string]chan struct{}{"first: k8s?": make(chan struct{}), "second: RAG?": make(chan struct{}), "other conversation: yoga?": make(chan struct{})}}
	s := testService(t, store, g, Options{})
	for _, d := range []Delivery{{MessageID: "u1", ConversationID: "c1"}, {MessageID: "u2", ConversationID: "c1"}, {MessageID: "u3", ConversationID: "c2"}} {
		s.Accept(context.Background(), d) // every trigger names the conversation
	}
	waitFor(t, "two turns to start", func() bool { g.mu.Lock(); defer g.mu.Unlock(); return len(g.started) == 2 })
	g.mu.Lock()
	started := slices.Clone(g.started)
	g.mu.Unlock()
	require.NotContains(t, started, "second: RAG?", "the second message of c1 started before the first finished")
	close(g.release["first: k8s?"])
	waitFor(t, "the second message", func() bool { g.mu.Lock(); defer g.mu.Unlock(); return len(g.started) == 3 })
	close(g.release["second: RAG?"])
	close(g.release["other conversation: yoga?"])
	for _, u := range []string{"u1", "u2", "u3"} {
		waitFor(t, "reply to "+u, func() bool { _, ok := finalOf(store, u); return ok })
	}
	first, _ := finalOf(store, "u1")
	second, _ := finalOf(store, "u2")
	assert.True(t, first.Updated.Before(second.Updated), "the replies of one conversation completed out of order")
}

// The Flow delivers two messages of a conversation one after the other, and
// reading the first from Directus is slow: the second must still wait.
func TestSlowReadDoesNotLetALaterMessageOvertake(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "first: k8s?", 2*time.Second)
	store.addUser("c1", "u2", "second: RAG?", time.Second)
	store.slow["u1"] = 300 * time.Millisecond
	g := &gate{release: map[string]chan struct{}{"first: k8s?": make(chan struct{}), "second: RAG?": make(chan struct{})}}
	s := testService(t, store, g, Options{})
	for _, id := range []string{"u1", "u2"} {
		s.Accept(context.Background(), Delivery{MessageID: id, ConversationID: "c1", Role: "user"})
	}
	waitFor(t, "a turn to start", func() bool { g.mu.Lock(); defer g.mu.Unlock(); return len(g.started) == 1 })
	time.Sleep(100 * time.Millisecond) // room for a wrongly started second turn
	g.mu.Lock()
	started := slices.Clone(g.started)
	g.mu.Unlock()
	require.Equal(t, []string{"first: k8s?"}, started, "turns started; want only the first message's")
	close(g.release["first: k8s?"])
	close(g.release["second: RAG?"])
	for _, u := range []string{"u1", "u2"} {
		waitFor(t, "reply to "+u, func() bool { _, ok := finalOf(store, u); return ok })
	}
}

func TestReconcilerAnswersMissedAndRestartsAbandoned(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "missed", "k8s workshops?", time.Minute) // a failed Flow delivery
	store.addUser("c1", "recent", "RAG sessions?", time.Second)  // still within the grace period
	store.addUser("c2", "crashed", "Who works on fraud detection?", time.Hour)
	store.Create(context.Background(), Message{ID: "a-crashed", Conversation: "c2", Role: "assistant", Status: StatusStreaming, ReplyTo: "crashed"})
	store.msgs["a-crashed"].Updated = time.Now().Add(-10 * time.Minute) // the agent died mid-turn
	store.addUser("c3", "hopeless", "yoga?", time.Hour)
	store.Create(context.Background(), Message{ID: "a-hopeless", Conversation: "c3", Role: "assistant", Status: StatusPending, ReplyTo: "hopeless",
		Metadata: map[string]any{"attempts": float64(3)}})
	store.msgs["a-hopeless"].Updated = time.Now().Add(-10 * time.Minute)

	s := testService(t, store, nil, Options{})
	n, err := s.Reconcile(context.Background())
	require.NoError(t, err, "Reconcile")
	require.Equal(t, 2, n, "Reconcile took up messages, want the missed one and the abandoned one")
	waitFor(t, "the missed message's reply", func() bool { _, ok := finalOf(store, "missed"); return ok })
	waitFor(t, "the restarted reply", func() bool { m, ok := finalOf(store, "crashed"); return ok && m.ID == "a-crashed" })
	require.Empty(t, store.replies("recent"), "a message within the grace period was taken up")
	m, _ := store.Message(context.Background(), "a-hopeless")
	require.Equal(t, StatusFailed, m.Status, "a reply abandoned three times: %+v", m)
	require.Equal(t, agent.Apology, m.Text, "a reply abandoned three times: %+v", m)
	n, _ = s.Reconcile(context.Background())
	assert.Zero(t, n, "a second pass took up more")
}

func TestShutdownHandsBackUnfinishedTurns(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "k8s?", 0)
	g := &gate{release: map[string]chan struct{}{"k8s?": make(chan struct{})}}
	s := testService(t, store, g, Options{})
	s.Accept(context.Background(), Delivery{MessageID: "u1"})
	waitFor(t, "the turn to start", func() bool { g.mu.Lock(); defer g.mu.Unlock(); return len(g.started) == 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	require.Error(t, s.Shutdown(ctx), "shutdown with a stuck turn reported a clean finish")
	r := store.replies("u1")
	require.Len(t, r, 1, "reply after shutdown: %+v", r)
	require.Equal(t, StatusPending, r[0].Status, "reply after shutdown: %+v", r)
	require.Equal(t, true, r[0].Metadata["handed_back"], "reply after shutdown: %+v", r)
	_, err := s.Accept(context.Background(), Delivery{MessageID: "u2"})
	assert.ErrorIs(t, err, ErrShuttingDown, "accepting after shutdown")
}

func TestFailedCreateIsLeftForTheReconciler(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "k8s?", time.Minute)
	store.fail["create"] = errors.New("directus unreachable")
	s := testService(t, store, nil, Options{})
	acc, _ := s.Accept(context.Background(), Delivery{MessageID: "u1"})
	waitFor(t, "the delivery to end", func() bool { return !s.inflight.has(acc.AssistantID) })
	require.Empty(t, store.replies("u1"), "a reply appeared although creating it failed")
	again, _ := s.Accept(context.Background(), Delivery{MessageID: "u1"})
	require.Equal(t, "accepted", again.Status, "a new delivery after the failed one: %+v; want it taken, not a duplicate", again)
	waitFor(t, "that delivery to end", func() bool { return !s.inflight.has(again.AssistantID) })
	delete(store.fail, "create")
	n, _ := s.Reconcile(context.Background())
	require.Equal(t, 1, n, "the reconciler took up messages, want the message whose reply could not be created")
	waitFor(t, "the reply", func() bool { _, ok := finalOf(store, "u1"); return ok })
}

// Persisted turns beyond the interactive queue are not refused: they wait
// for a slot, up to their own bound, taken at the door before any goroutine
// or Directus read; beyond it the delivery is refused (the Flow is told to
// come back) and the reconciler answers the message later.
func TestPersistedTurnsWaitAndTheBacklogIsLeftToTheReconciler(t *testing.T) {
	const n, places = 40, 32 // MaxTurns 1, QueueSize 1: 16×2 places to wait (the running turn gave its back)
	store := newMemStore()
	open := make(chan struct{})
	g := &gate{release: map[string]chan struct{}{}}
	var ids []string
	for i := range n {
		id, text := fmt.Sprintf("u%02d", i), fmt.Sprintf("question %d: k8s?", i)
		store.addUser(fmt.Sprintf("c%02d", i), id, text, time.Minute)
		g.release[text] = open
		ids = append(ids, id)
	}
	s := testService(t, store, g, Options{MaxTurns: 1, QueueSize: 1})
	accepted := 0
	for i, id := range ids {
		acc, err := s.Accept(context.Background(), Delivery{MessageID: id, ConversationID: fmt.Sprintf("c%02d", i), Role: "user"})
		if err == nil && acc.Status == "accepted" {
			accepted++
		} else {
			require.ErrorIs(t, err, ErrOverloaded, "Accept %s = %+v; want accepted or overloaded", id, acc)
		}
		if i == 0 {
			waitFor(t, "the first turn to run", func() bool { return len(store.replies(id)) == 1 })
			time.Sleep(20 * time.Millisecond) // it holds the slot now, its place given back
		}
	}
	require.Equal(t, places+1, accepted, "deliveries accepted; want %d (one running, %d waiting), the rest refused at the door", places+1, places)
	claimed := func() (k int) {
		for _, id := range ids {
			k += len(store.replies(id))
		}
		return k
	}
	waitFor(t, "the replies of the running and the waiting turns", func() bool { return claimed() == accepted })
	close(open)
	waitFor(t, "the accepted turns", func() bool {
		done := 0
		for _, id := range ids {
			if m, ok := finalOf(store, id); ok && m.Status == StatusCompleted {
				done++
			}
		}
		return done == accepted
	})
	k, err := s.Reconcile(context.Background())
	require.NoError(t, err, "Reconcile")
	require.Equal(t, n-accepted, k, "Reconcile took up; want the %d refused at the door", n-accepted)
	for _, id := range ids {
		waitFor(t, "reply to "+id, func() bool { m, ok := finalOf(store, id); return ok && m.Status == StatusCompleted })
	}
}

// A turn that ended here but whose final write was lost (Directus down at
// that moment) leaves its reply streaming; the reconciler of the same
// process must restart it, however recently it saw the message.
func TestReconcilerRestartsAReplyWhoseFinalWriteWasLost(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", time.Minute)
	s := testService(t, store, nil, Options{})
	_, err := s.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
	require.NoError(t, err)
	reply := waitFinal(t, store, "u1")
	waitFor(t, "the turn to end", func() bool { return !s.inflight.has(reply.ID) })
	store.mu.Lock()
	lost := store.msgs[reply.ID]
	lost.Status, lost.Updated = StatusStreaming, time.Now().Add(-10*time.Minute) // as if the final PATCH never landed
	store.mu.Unlock()
	n, err := s.Reconcile(context.Background())
	require.NoError(t, err, "Reconcile")
	require.Equal(t, 1, n, "Reconcile took up; want the reply left streaming")
	waitFor(t, "the restarted reply", func() bool {
		m, ok := finalOf(store, "u1")
		return ok && m.Status == StatusCompleted && m.ID == reply.ID
	})
}

// A question stored from the developer's stream whose reply could not be
// created is answered by the reconciler, not taken for one in progress.
func TestStreamQuestionWhoseReplyFailedIsReconciled(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "earlier", "hello", time.Hour) // makes the conversation
	store.Create(context.Background(), Message{ID: "a-earlier", Conversation: "c1", Role: "assistant", Status: StatusCompleted, ReplyTo: "earlier"})
	store.fail["create_assistant"] = fmt.Errorf("502 Bad Gateway")
	s := testService(t, store, nil, Options{ReconcileGrace: time.Millisecond})
	_, err := s.Ask(context.Background(), Question{Message: "Any k8s workshops?", ConferenceID: "aidata26", ConversationID: "c1"}, nil)
	require.Error(t, err, "Ask succeeded without its reply")
	store.mu.Lock()
	delete(store.fail, "create_assistant")
	var question string
	for _, m := range store.msgs {
		if m.Role == "user" && m.Text == "Any k8s workshops?" {
			question = m.ID
		}
	}
	store.mu.Unlock()
	require.NotEmpty(t, question, "the question was not stored")
	time.Sleep(5 * time.Millisecond)
	n, err := s.Reconcile(context.Background())
	require.NoError(t, err, "Reconcile")
	require.Equal(t, 1, n, "Reconcile took up; want the stored question")
	waitFor(t, "its reply", func() bool { r, ok := finalOf(store, question); return ok && r.Status == StatusCompleted })
}

// Directus fails a turn's first read and then the first writes of its
// outcome: the reply still ends failed with the apology, not pending.
func TestFailedTurnIsFinalisedThroughABriefOutage(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", 0)
	store.fail["conversation"] = fmt.Errorf("503 Service Unavailable")
	store.patchOutage = 2
	s := testService(t, store, nil, Options{})
	_, err := s.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
	require.NoError(t, err)
	reply := waitFinal(t, store, "u1")
	assert.Equal(t, StatusFailed, reply.Status, "reply %+v; want failed with the apology", reply)
	assert.Equal(t, agent.Apology, reply.Text, "reply %+v; want failed with the apology", reply)
	store.mu.Lock()
	defer store.mu.Unlock()
	assert.Equal(t, 1, store.finals, "final writes")
}

// A reply left streaming by a crash whose question was then deleted
// (Directus sets its reply_to to null) is ended failed with the reason,
// not skipped for good.
func TestReplyWhoseQuestionVanishedEndsFailed(t *testing.T) {
	store := newMemStore()
	old := time.Now().Add(-time.Hour)
	store.mu.Lock()
	store.msgs["a1"] = &Message{ID: "a1", Conversation: "c1", Role: "assistant", Status: StatusStreaming, Created: old, Updated: old}
	store.mu.Unlock()
	s := testService(t, store, nil, Options{})
	_, err := s.Reconcile(context.Background())
	require.NoError(t, err)
	store.mu.Lock()
	defer store.mu.Unlock()
	ps := store.patches["a1"]
	require.NotEmpty(t, ps, "patches of the orphaned reply")
	assert.Equal(t, StatusFailed, ps[len(ps)-1]["status"], "patches of the orphaned reply: %v", ps)
	assert.Contains(t, fmt.Sprint(ps[len(ps)-1]["metadata"]), "question was deleted", "patches of the orphaned reply: %v", ps)
}

// A delivery replayed after a restart is told the id of the reply that
// exists: reply ids are derived from the question's id.
func TestReplayAfterRestartNamesTheExistingReply(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", 0)
	first := testService(t, store, nil, Options{})
	acc1, err := first.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
	require.NoError(t, err)
	waitFor(t, "the reply", func() bool { _, ok := finalOf(store, "u1"); return ok })
	restarted := testService(t, store, nil, Options{})
	acc2, err := restarted.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user"})
	require.NoError(t, err, "after a restart the replay")
	require.Equal(t, acc1.AssistantID, acc2.AssistantID, "after a restart the replay got %+v", acc2)
	rs := store.replies("u1")
	require.Len(t, rs, 1, "replies %+v; want the one reply, %s", rs, acc1.AssistantID)
	assert.Equal(t, acc1.AssistantID, rs[0].ID, "replies %+v; want the one reply", rs)
}

// TestTheReplyKeepsItsClaimAndItsTrace: the completed reply's metadata
// keeps who accepted it (Directus replaces a JSON field whole), and the
// turn takes the delivery's trace id, so the webhook's log and the turn's
// join; a restart keeps the first acceptor beside who restarted it.
func TestTheReplyKeepsItsClaimAndItsTrace(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", time.Minute)
	s := testService(t, store, nil, Options{Instance: "host-1"})
	_, err := s.Accept(context.Background(), Delivery{MessageID: "u1", ConversationID: "c1", Role: "user", TraceID: "hook-trace"})
	require.NoError(t, err)
	reply := waitFinal(t, store, "u1")
	require.Equal(t, "host-1", reply.Metadata["accepted_by"], "completed metadata %v; want accepted_by host-1 and the delivery's trace id", reply.Metadata)
	require.Equal(t, "hook-trace", reply.Metadata["trace_id"], "completed metadata %v; want accepted_by host-1 and the delivery's trace id", reply.Metadata)
	// host-2 restarts it once host-1's lease has expired (its clock a
	// minute on): a lease live elsewhere would stop it (lease_test.go).
	restarted := testService(t, store, nil, Options{Instance: "host-2", Now: func() time.Time { return time.Now().Add(time.Minute) }})
	restarted.limit.Reserve() // as the reconciler does
	restarted.start(Delivery{MessageID: "u1", ConversationID: "c1", assistantID: reply.ID, restart: true, attempts: 1, meta: reply.Metadata})
	waitFor(t, "the restarted reply", func() bool {
		m, ok := finalOf(store, "u1")
		return ok && m.Metadata["restarted_by"] == "host-2"
	})
	m, _ := finalOf(store, "u1")
	assert.Equal(t, "host-1", m.Metadata["accepted_by"], "after a restart: %v; want the first acceptor kept beside restarted_by and attempts", m.Metadata)
	assert.Equal(t, "1", fmt.Sprint(m.Metadata["attempts"]), "after a restart: %v; want the first acceptor kept beside restarted_by and attempts", m.Metadata)
}

// Deliveries of one conversation that arrive out of order (the Flow sends
// them concurrently) are answered in question order within seconds: the
// later question waits for the earlier one and is delivered again, without
// waiting for the reconciler's grace.
func TestOutOfOrderDeliveriesAreAnsweredInOrderSoon(t *testing.T) {
	store := newMemStore()
	store.addUser("c1", "u1", "Any k8s workshops?", 2*time.Second)
	store.addUser("c1", "u2", "And GPU talks?", time.Second)
	s := testService(t, store, nil, Options{ReconcileGrace: time.Hour})
	for _, u := range []string{"u2", "u1"} { // the later question first
		_, err := s.Accept(context.Background(), Delivery{MessageID: u, Role: "user"})
		require.NoError(t, err)
	}
	first, second := waitFinal(t, store, "u1"), waitFinal(t, store, "u2")
	assert.Equal(t, StatusCompleted, first.Status)
	assert.Equal(t, StatusCompleted, second.Status)
	assert.False(t, second.Created.Before(first.Updated), "u2's reply was created at %v, before u1's finished at %v", second.Created, first.Updated)
}
