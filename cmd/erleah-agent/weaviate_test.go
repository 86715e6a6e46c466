package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With SEARCH_BACKEND=weaviate, ask answers from a real Weaviate exactly as
// from the in-memory index: the same citations for the same questions.
func TestAskWithWeaviateAnswersAsInMemory(t *testing.T) {
	url := os.Getenv("WEAVIATE_URL")
	if url == "" {
		t.Skip("set WEAVIATE_URL to run against a real Weaviate (scripts/weaviate/start.sh; scripts/test.sh does it)")
	}
	collection := fmt.Sprintf("AskTest%d", time.Now().UnixNano())
	for q, cites := range map[string]bool{"Any sessions on retrieval-augmented generation?": true, "who sells GPU servers?": true, "is there a sauna?": false} {
		want := askCitations(t, map[string]string{}, q)
		require.Equal(t, cites, len(want) > 0, "in memory, %q cites %v", q, want)
		got := askCitations(t, map[string]string{"SEARCH_BACKEND": "weaviate", "WEAVIATE_URL": url, "WEAVIATE_GRPC_ADDR": os.Getenv("WEAVIATE_GRPC_ADDR"), "WEAVIATE_COLLECTION": collection}, q)
		assert.Equal(t, want, got, "citations for %q", q)
	}
	// ask loaded its bundle into a collection of its own, not serve's.
	resp, err := http.Get(url + "/v1/schema")
	require.NoError(t, err)
	defer resp.Body.Close()
	var schema struct {
		Classes []struct {
			Class string `json:"class"`
		} `json:"classes"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&schema))
	var classes []string
	for _, c := range schema.Classes {
		classes = append(classes, c.Class)
	}
	assert.Contains(t, classes, collection+"Offline", "ask's own collection")
	assert.NotContains(t, classes, collection, "ask wrote into serve's collection")
}

func askCitations(t *testing.T, env map[string]string, question string) []string {
	t.Helper()
	code, out, errb := cli(t, env, "ask", "--json", "--now", "2026-06-09T08:00:00+02:00", question)
	require.Equal(t, 0, code, "ask: %s", errb)
	var reply struct {
		Citations []struct {
			Collection string `json:"collection"`
			ID         string `json:"id"`
		} `json:"citations"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &reply), out)
	cited := []string{}
	for _, c := range reply.Citations {
		cited = append(cited, c.Collection+"/"+c.ID)
	}
	return cited
}
