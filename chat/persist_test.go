package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// memStore is a Store in memory that, like Directus, refuses a second reply
// to the same user message.
type memStore struct {
	mu      sync.Mutex
	msgs    map[string]*Message
	convs   map[string]Conversation
	patches map[string][]map[string]any
	fail    map[string]error         // operation → error
	slow    map[string]time.Duration // message id → how long reading it takes
	// patchOutage fails that many PATCHes from now on (a final write rides
	// it out); finals counts final writes
	patchOutage, finals int
	// lostCreates creates that many messages but answers each with a
	// dropped connection; readOutage fails that many message reads
	lostCreates, readOutage int
	// claims are the reply_claims rows, by id "<reply>:<generation>"
	claims map[string]Lease
	// abandoned, when set, is what Abandoned returns (a stale listing)
	abandoned []Message
}

func newMemStore() *memStore {
	return &memStore{msgs: map[string]*Message{}, convs: map[string]Conversation{}, patches: map[string][]map[string]any{}, fail: map[string]error{}, slow: map[string]time.Duration{}, claims: map[string]Lease{}}
}

func (m *memStore) addUser(conv, id, text string, age time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.convs[conv]; !ok {
		m.convs[conv] = Conversation{ID: conv, Conference: "aidata26"}
	}
	at := time.Now().Add(-age)
	m.msgs[id] = &Message{ID: id, Conversation: conv, Role: "user", Text: text, Status: StatusCompleted, Created: at, Updated: at}
}

// PatchFinal writes as Patch, riding out a patchOutage as DirectusStore's
// final writes do (with the number of requests tested there).
func (m *memStore) PatchFinal(ctx context.Context, id string, f map[string]any) error {
	m.mu.Lock()
	m.patchOutage = 0
	m.finals++
	m.mu.Unlock()
	return m.Patch(ctx, id, f)
}

func (m *memStore) Patch(ctx context.Context, id string, f map[string]any) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail["patch"]; err != nil {
		return err
	}
	if m.patchOutage > 0 {
		m.patchOutage--
		return fmt.Errorf("502 Bad Gateway")
	}
	msg, ok := m.msgs[id]
	if !ok {
		return fmt.Errorf("no message %s", id)
	}
	b, _ := json.Marshal(f)
	var copy map[string]any
	json.Unmarshal(b, &copy)
	m.patches[id] = append(m.patches[id], copy)
	if v, ok := f["status"].(string); ok {
		msg.Status = v
	}
	if v, ok := f["messageText"].(string); ok {
		msg.Text = v
	}
	if v, ok := copy["metadata"].(map[string]any); ok {
		msg.Metadata = v
	}
	if v, ok := f["reply_to"]; ok && v == nil {
		msg.ReplyTo = ""
	}
	msg.Updated = time.Now()
	return nil
}

func (m *memStore) Message(ctx context.Context, id string) (Message, error) {
	m.mu.Lock()
	delay := m.slow[id]
	m.mu.Unlock()
	time.Sleep(delay)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.readOutage > 0 {
		m.readOutage--
		return Message{}, io.ErrUnexpectedEOF
	}
	if msg, ok := m.msgs[id]; ok {
		return *msg, nil
	}
	return Message{}, &directus.Error{Status: 403, Code: directus.CodeForbidden, Method: "GET", Path: "/items/messages/" + id}
}

func (m *memStore) Conversation(ctx context.Context, id string) (Conversation, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail["conversation"]; err != nil {
		return Conversation{}, err
	}
	return m.convs[id], nil
}

func (m *memStore) Recent(ctx context.Context, conv string, before time.Time, n int) ([]Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Message
	for _, msg := range m.msgs {
		if msg.Conversation == conv && msg.Created.Before(before) && msg.Status == StatusCompleted {
			out = append(out, *msg)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out[max(0, len(out)-n):], nil
}

func (m *memStore) Create(ctx context.Context, msg Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail["create"]; err != nil {
		return err
	}
	if err := m.fail["create_"+msg.Role]; err != nil {
		return err
	}
	if _, taken := m.msgs[msg.ID]; taken {
		return ErrDuplicate
	}
	for _, other := range m.msgs {
		if other.ReplyTo != "" && other.ReplyTo == msg.ReplyTo {
			return ErrDuplicate
		}
	}
	msg.Author = memAgent // as Directus records the token's user
	msg.Created, msg.Updated = time.Now(), time.Now()
	m.msgs[msg.ID] = &msg
	if m.lostCreates > 0 {
		m.lostCreates--
		return io.ErrUnexpectedEOF
	}
	return nil
}

func (m *memStore) Unanswered(ctx context.Context, since, until time.Time, limit int) ([]Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	replied := map[string]bool{}
	for _, msg := range m.msgs {
		replied[msg.ReplyTo] = true
	}
	var out []Message
	for _, msg := range m.msgs {
		if msg.Role == "user" && !replied[msg.ID] && !msg.Created.Before(since) && msg.Created.Before(until) {
			out = append(out, *msg)
		}
	}
	return out, nil
}

func (m *memStore) Abandoned(ctx context.Context, before time.Time, limit int) ([]Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.abandoned != nil {
		return m.abandoned, nil
	}
	var out []Message
	for _, msg := range m.msgs {
		if msg.Role == "assistant" && (msg.Status == StatusPending || msg.Status == StatusStreaming) && msg.Updated.Before(before) {
			out = append(out, *msg)
		}
	}
	return out, nil
}

func (m *memStore) OpenBefore(ctx context.Context, conv string, since, before time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail["open"]; err != nil {
		return false, err
	}
	for _, q := range m.msgs {
		if q.Conversation != conv || q.Role != "user" || q.Created.Before(since) || !q.Created.Before(before) {
			continue
		}
		open := true
		for _, r := range m.msgs {
			if r.ReplyTo == q.ID {
				open = r.Status == StatusPending || r.Status == StatusStreaming
			}
		}
		if open {
			return true, nil
		}
	}
	return false, nil
}

// latest is the reply's claim of the highest generation (m.mu held).
func (m *memStore) latest(reply string) (Lease, bool) {
	var cur Lease
	found := false
	for _, l := range m.claims {
		if l.Reply == reply && (!found || l.Generation > cur.Generation) {
			cur, found = l, true
		}
	}
	return cur, found
}

// Lease works like DirectusStore.Lease; the lock between its read and its
// create is released, as between two requests, and the create refuses a
// taken id as the primary key does.
func (m *memStore) Lease(ctx context.Context, reply, owner string, now time.Time, ttl time.Duration) (Lease, error) {
	m.mu.Lock()
	if err := m.fail["lease"]; err != nil {
		m.mu.Unlock()
		return Lease{}, err
	}
	cur, found := m.latest(reply)
	m.mu.Unlock()
	if found && !cur.Expires.Before(now) {
		if cur.Owner != owner {
			return cur, ErrLeaseLost
		}
		m.mu.Lock()
		cur.Expires = now.Add(ttl)
		m.claims[cur.id()] = cur
		m.mu.Unlock()
		return cur, nil
	}
	time.Sleep(time.Millisecond) // the create is another request
	next := Lease{Reply: reply, Generation: cur.Generation + 1, Owner: owner, Expires: now.Add(ttl)}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, taken := m.claims[next.id()]; taken {
		return Lease{}, ErrLeaseLost
	}
	m.claims[next.id()] = next
	return next, nil
}

func (m *memStore) Renew(ctx context.Context, l Lease, now time.Time, ttl time.Duration) (Lease, error) {
	if err := m.Holds(ctx, l); err != nil {
		return l, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail["renew"]; err != nil {
		return l, err
	}
	l.Expires = now.Add(ttl)
	m.claims[l.id()] = l
	return l, nil
}

func (m *memStore) Holds(ctx context.Context, l Lease) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail["holds"]; err != nil {
		return err
	}
	if cur, found := m.latest(l.Reply); !found || cur.Generation != l.Generation || cur.Owner != l.Owner {
		return ErrLeaseLost
	}
	return nil
}

// setClaim writes a claim row as another replica would.
func (m *memStore) setClaim(l Lease) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.claims[l.id()] = l
}

func (m *memStore) replies(user string) []Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Message
	for _, msg := range m.msgs {
		if msg.ReplyTo == user {
			out = append(out, *msg)
		}
	}
	return out
}

func testService(t testing.TB, store Store, model agent.Model, opts Options) *Service {
	t.Helper()
	demo, engine := searchtest.Demo(t)
	if model == nil {
		model = rules.New()
	}
	a := agent.New(model, engine, agent.Options{Fallback: rules.New()})
	opts.Store = store
	if opts.FlushEvery == 0 {
		opts.FlushEvery = 10 * time.Millisecond
	}
	s := New(a, func(id string) (agent.Conference, bool) {
		c, ok := demo.Conference(id)
		return agent.Conference{ID: c.ID, Name: c.Name}, ok
	}, opts)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	})
	return s
}

// waitFor polls until cond holds or fails the test after a few seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, 5*time.Second, 5*time.Millisecond, "timed out waiting for %s", what)
}

// waitFinal waits for the one finished reply to user and returns it.
func waitFinal(t *testing.T, store *memStore, user string) Message {
	t.Helper()
	var reply Message
	waitFor(t, "the reply", func() (ok bool) { reply, ok = finalOf(store, user); return })
	return reply
}

func finalOf(store *memStore, user string) (Message, bool) {
	rs := store.replies(user)
	if len(rs) == 1 && (rs[0].Status == StatusCompleted || rs[0].Status == StatusFailed) {
		return rs[0], true
	}
	return Message{}, false
}
