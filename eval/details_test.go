package eval_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// detailProbe asks for one practical detail that an item's description
// states after its opening sentences ("what do I bring?", "how many places?").
type detailProbe struct {
	ID, Bundle, Message, Item, Detail string
	Conference                        string `json:"conference_id"`
}

// TestDetailProbesFigures measures, on the detail probes written from the
// probe conferences (details/probes.jsonl), how often the answer cites the
// item asked about and how often it also shows the detail, and keeps both
// at the figures EVAL.md reports (twenty-second session: 44 of 48 cited,
// 7 showing the detail at its start and 21 at its end).
func TestDetailProbesFigures(t *testing.T) {
	probes := readDetailProbes(t)
	cited, shown := 0, 0
	agents := map[string]*agent.Agent{}
	for _, p := range probes {
		a := agents[p.Bundle]
		if a == nil {
			b, err := conference.LoadFile("../" + p.Bundle)
			require.NoError(t, err)
			a = agent.New(rules.New(), searchtest.Engine(t, b), agent.Options{})
			agents[p.Bundle] = a
		}
		st, err := a.Run(context.Background(), agent.Request{Message: p.Message, Conference: agent.Conference{ID: p.Conference}}, nil)
		require.NoError(t, err, p.ID)
		if slices.ContainsFunc(st.Citations, func(c agent.Citation) bool { return string(c.Collection)+"/"+c.ID == p.Item }) {
			cited++
			if strings.Contains(strings.ToLower(st.ResponseText), strings.ToLower(p.Detail)) {
				shown++
			}
		}
	}
	t.Logf("detail probes: %d of %d cite the item, %d of them show the detail asked for", cited, len(probes), shown)
	assert.GreaterOrEqual(t, cited, 42, "items cited")
	assert.GreaterOrEqual(t, shown, 19, "details shown")
}

func readDetailProbes(t *testing.T) []detailProbe {
	t.Helper()
	f, err := os.Open("details/probes.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var out []detailProbe
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p detailProbe
		require.NoError(t, json.Unmarshal(sc.Bytes(), &p))
		out = append(out, p)
	}
	require.NoError(t, sc.Err())
	require.Len(t, out, 48)
	return out
}
