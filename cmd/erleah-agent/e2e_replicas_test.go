package main

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/directus"
)

// TestE2ETwoReplicasNeverWriteTheSameReply: two agents on one Directus, one
// turn slot each and a slow model, so replies wait for a slot longer than
// RECONCILE_ABANDON_AFTER while both reconcilers sweep every second. Every
// question gets exactly one reply, completed, and no reply is ever seen
// changed (blanked, reset to pending, streamed again) after it was
// completed: the reply leases in reply_claims keep the other replica out.
func TestE2ETwoReplicasNeverWriteTheSameReply(t *testing.T) {
	d := needDirectus(t)
	env := slowModel(t, 3*time.Second) // a third pending reply waits ~7 s for the slot
	env["MAX_TURNS"], env["TURN_TIMEOUT"], env["MODEL_CALL_TIMEOUT"] = "1", "5s", "4s"
	env["RECONCILE_INTERVAL"], env["RECONCILE_GRACE"], env["RECONCILE_ABANDON_AFTER"] = "1s", "1s", "5500ms"
	d.startAgent(t, env) // B: reconciles only (the Flow points at the last one started)
	d.startAgent(t, env) // A: gets the Flow's deliveries, and reconciles too

	convs := []string{d.conversation(t), d.conversation(t), d.conversation(t)}
	var questions []string
	for i := range 10 {
		questions = append(questions, d.ask(t, convs[i%3], fmt.Sprintf("Any sessions on RAG? (%d)", i)))
		time.Sleep(150 * time.Millisecond)
	}

	// Watch every reply until all are completed: none may change once completed.
	var mu sync.Mutex
	done := map[string]reply{} // reply id → as first seen completed
	bad := map[string]string{} // reply id → what became of it
	check := func() (finished int) {
		var rs []struct {
			reply
			ReplyTo string `json:"reply_to"`
		}
		q := directus.Query{Fields: []string{"id", "status", "messageText", "reply_to", "metadata"},
			Filter: map[string]any{"reply_to": map[string]any{"_in": questions}}, Limit: -1}
		require.NoError(t, d.admin.ReadItems(context.Background(), "messages", q, &rs))
		mu.Lock()
		defer mu.Unlock()
		for _, r := range rs {
			if first, ok := done[r.ID]; ok {
				if r.Status != "completed" || r.Text != first.Text {
					bad[r.ID] = fmt.Sprintf("reply %s was completed (%q) and was then seen %s %q", r.ID, first.Text, r.Status, r.Text)
				}
				continue
			}
			if r.Status == "completed" {
				done[r.ID] = r.reply
			}
		}
		return len(done)
	}
	eventually(t, 180*time.Second, func() string { return fmt.Sprintf("all 10 questions answered (%d are)", len(done)) }, func() bool {
		return check() == len(questions)
	})
	time.Sleep(8 * time.Second) // longer than RECONCILE_ABANDON_AFTER: a late restart would show now
	check()
	require.Empty(t, bad, "finished replies were rewritten")
	restarts := 0
	for _, u := range questions {
		rs := d.replies(t, u)
		require.Len(t, rs, 1, "replies to %s: %+v; want exactly one, completed", u, rs)
		require.Equal(t, "completed", rs[0].Status, "replies to %s: %+v; want exactly one, completed", u, rs)
		if rs[0].Metadata["restarted_by"] != nil {
			restarts++
		}
	}
	var ids []string
	for id := range done {
		ids = append(ids, id)
	}
	var claims []map[string]any
	q := directus.Query{Fields: []string{"id", "owner"}, Filter: map[string]any{"reply": map[string]any{"_in": ids}}, Limit: -1}
	require.NoError(t, d.admin.ReadItems(context.Background(), "reply_claims", q, &claims))
	owners := map[any]int{}
	for _, c := range claims {
		owners[c["owner"]]++
	}
	t.Logf("10 questions, one reply each; %d restarted; claims by owner: %v", restarts, owners)
}
