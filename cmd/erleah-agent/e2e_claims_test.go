package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/directus"
)

// The reconciler's clean-up, as the agent's own user: claims that expired
// more than ClaimRetention ago go when their reply is finished or gone;
// those of a reply still open, and recent ones, stay.
func TestE2EExpiredClaimsOfFinishedRepliesArePruned(t *testing.T) {
	d := needDirectus(t)
	ctx := context.Background()
	conv := d.conversation(t)
	reply := func(status string) string {
		return d.item(t, "messages", map[string]any{"conversation": conv, "role": "assistant", "messageText": "x", "status": status})
	}
	done, failed, open, gone := reply("completed"), reply("failed"), reply("streaming"), fmt.Sprintf("00000000-0000-4000-8000-%012d", time.Now().UnixNano()%1e12)
	old, recent := time.Now().Add(-3*chat.ClaimRetention), time.Now().Add(-time.Minute)
	claim := func(r string, gen int, expires time.Time) string {
		id := r + ":" + string(rune('0'+gen))
		d.item(t, "reply_claims", map[string]any{"id": id, "reply": r, "generation": gen, "owner": "e2e", "expires": expires.UTC().Format(time.RFC3339Nano)})
		return id
	}
	pruned := []string{claim(done, 1, old), claim(done, 2, old), claim(failed, 1, old), claim(gone, 1, old)}
	kept := []string{claim(open, 1, old), claim(failed, 2, recent)}

	n, err := chat.NewDirectusStore(d.agent).PruneClaims(ctx, time.Now().Add(-chat.ClaimRetention), 100)
	require.NoError(t, err, "the agent's user may delete claims")
	assert.GreaterOrEqual(t, n, len(pruned))

	var left []struct {
		ID string `json:"id"`
	}
	all := append(append([]string{}, pruned...), kept...)
	q := directus.Query{Fields: []string{"id"}, Filter: map[string]any{"id": map[string]any{"_in": all}}, Limit: -1}
	require.NoError(t, d.admin.ReadItems(ctx, "reply_claims", q, &left))
	var ids []string
	for _, l := range left {
		ids = append(ids, l.ID)
	}
	assert.ElementsMatch(t, kept, ids, "claims left")
}
