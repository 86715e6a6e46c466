package chat

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
)

// Every write of a reply's state keeps what it was claimed with, clears
// thinking notes with an explicit null, and leaves them alone when it does
// not name them.
func TestReplyPatchMergesMetadataAndWritesExplicitNulls(t *testing.T) {
	claim := map[string]any{"accepted_by": "host-1", "attempts": 2}
	encode := func(p replyPatch) map[string]any {
		b, err := json.Marshal(p.fields(claim))
		require.NoError(t, err)
		var out map[string]any
		require.NoError(t, json.Unmarshal(b, &out))
		return out
	}
	back := encode(handedBack("shutdown"))
	assert.Contains(t, back, "thinking_output", "a hand-back must clear the notes: %v", back)
	assert.Nil(t, back["thinking_output"], "a hand-back must clear the notes: %v", back)
	assert.Equal(t, map[string]any{"accepted_by": "host-1", "attempts": float64(2), "handed_back": true, "reason": "shutdown"}, back["metadata"])
	assert.Equal(t, StatusPending, back["status"])
	assert.Equal(t, "", back["messageText"])

	fail := encode(failed("model down"))
	assert.NotContains(t, fail, "thinking_output", "a failure keeps the notes the attendee read: %v", fail)
	assert.Equal(t, map[string]any{"accepted_by": "host-1", "attempts": float64(2), "error": "model down"}, fail["metadata"])

	st := &agent.State{ResponseText: "See [sessions/s1].", ThinkingUpdates: []agent.ThinkingRecord{{Message: "Trying Kubernetes."}}, TraceID: "t1"}
	done := encode(completed(st))
	assert.Equal(t, StatusCompleted, done["status"])
	assert.Len(t, done["thinking_output"], 1, "answer: %v", done)
	md := done["metadata"].(map[string]any)
	assert.Equal(t, "host-1", md["accepted_by"], "answer metadata: %v", md)
	assert.Equal(t, "t1", md["trace_id"], "answer metadata: %v", md)
	assert.Equal(t, map[string]any{"accepted_by": "host-1", "attempts": 2}, claim, "the claim was modified")
}
