package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestE2ECatalogFollowsDirectus: a conference created, changed and deleted
// in Directus is served, changed and dropped by the running agent through
// realtime events (the periodic resync is 10 minutes away).
func TestE2ECatalogFollowsDirectus(t *testing.T) {
	d := needDirectus(t)
	a := d.startAgent(t, nil)
	run := time.Now().UnixNano()
	conf, good, bad := fmt.Sprintf("e2e-catalog-%d", run), fmt.Sprintf("cat-%d", run), fmt.Sprintf("bad/%d", run)
	d.item(t, "conferences", map[string]any{"id": conf, "name": "Catalog Test Days", "timezone": "UTC"})
	t.Cleanup(func() {
		d.admin.DeleteItems(context.Background(), "sessions", []string{good, bad})
		d.admin.DeleteItems(context.Background(), "conferences", []string{conf})
	})
	d.item(t, "sessions", map[string]any{"id": bad, "conference": conf, "title": "Zorblaxian beekeeping, the other one"})
	d.item(t, "sessions", map[string]any{"id": good, "conference": conf, "title": "Zorblaxian beekeeping telemetry",
		"description": "Sensors in Zorblaxian beehives report hive temperature and swarming telemetry.", "format": "talk"})
	const bees, pottery = "Any talk on Zorblaxian beekeeping telemetry?", "Anything about quantum pottery glazes?"
	eventually(t, 15*time.Second, saying("the new conference's session to be cited"), func() bool { return a.cites(conf, bees, "sessions/"+good) })
	require.False(t, a.cites(conf, bees, "sessions/"+bad), "an item whose id cannot be cited was served")

	err := d.admin.Do(context.Background(), "PATCH", "/items/sessions/"+good, nil, map[string]any{
		"title": "Quantum pottery glazes", "description": "Glazing techniques for quantum pottery, hands-on."}, nil)
	require.NoError(t, err)
	eventually(t, 15*time.Second, saying("the changed session to be found by its new words"), func() bool {
		return a.cites(conf, pottery, "sessions/"+good) && !a.cites(conf, bees, "sessions/"+good)
	})

	require.NoError(t, d.admin.DeleteItems(context.Background(), "conferences", []string{conf}))
	eventually(t, 15*time.Second, saying("the deleted conference to be dropped"), func() bool {
		code, _ := a.streamAnswer(conf, pottery)
		return code == http.StatusBadRequest
	})
}

// cites asks over the stream and reports whether the answer cites ref.
func (p *agentProc) cites(conf, question, ref string) bool {
	code, answer := p.streamAnswer(conf, question)
	return code == http.StatusOK && strings.Contains(answer, "["+ref+"]")
}

// streamAnswer returns the stream's status and the text of its answer event.
func (p *agentProc) streamAnswer(conf, question string) (int, string) {
	body, _ := json.Marshal(map[string]string{"message": question, "conference_id": conf})
	resp, err := http.Post(p.url+"/v1/chat/stream", "application/json", strings.NewReader(string(body)))
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	event := ""
	for sc := bufio.NewScanner(resp.Body); sc.Scan(); {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			event = name
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok && event == "answer" {
			var a struct{ Text string }
			json.Unmarshal([]byte(data), &a)
			return resp.StatusCode, a.Text
		}
	}
	return resp.StatusCode, ""
}
