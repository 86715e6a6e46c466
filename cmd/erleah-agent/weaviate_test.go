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

// index --check reports what the shared collection lacks and exits 1;
// --rebuild fills it; a changed bundle is drift again, named per entity.
func TestIndexCheckAndRebuild(t *testing.T) {
	url := os.Getenv("WEAVIATE_URL")
	if url == "" {
		t.Skip("set WEAVIATE_URL to run against a real Weaviate (scripts/weaviate/start.sh; scripts/test.sh does it)")
	}
	collection := weaviateCollection(t, url, "IndexTest")
	env := func(extra ...string) map[string]string {
		e := map[string]string{"SEARCH_BACKEND": "weaviate", "WEAVIATE_URL": url,
			"WEAVIATE_GRPC_ADDR": os.Getenv("WEAVIATE_GRPC_ADDR"), "WEAVIATE_COLLECTION": collection}
		for i := 0; i+1 < len(extra); i += 2 {
			e[extra[i]] = extra[i+1]
		}
		return e
	}
	code, out, errb := cli(t, env(), "index", "--check")
	require.Equal(t, 1, code, "check of an empty collection: %s%s", out, errb)
	assert.Regexp(t, `aidata26: \d+ missing \(`, out)
	assert.Contains(t, errb, "index --rebuild repairs it")

	code, out, errb = cli(t, env(), "index", "--rebuild")
	require.Equal(t, 0, code, "rebuild: %s%s", out, errb)
	assert.Contains(t, out, "aidata26: in sync")
	code, out, errb = cli(t, env(), "index", "--check")
	require.Equal(t, 0, code, "check after the rebuild: %s%s", out, errb)

	var b map[string]any
	require.NoError(t, json.Unmarshal(mustDemo(t), &b))
	sessions := b["sessions"].([]any)
	first := sessions[0].(map[string]any)
	first["title"] = first["title"].(string) + " (moved to a bigger room)"
	edited, err := json.Marshal(b)
	require.NoError(t, err)
	code, out, _ = cli(t, env("DATA_FILE", writeFile(t, "edited.json", string(edited))), "index", "--check")
	require.Equal(t, 1, code, "check after an edit: %s", out)
	assert.Contains(t, out, "1 changed (sessions/"+first["id"].(string)+")")

	code, _, errb = cli(t, map[string]string{}, "index", "--check")
	assert.Equal(t, 2, code, "index with the in-memory backend: %s", errb)
	assert.Contains(t, errb, "SEARCH_BACKEND=memory")
	code, _, errb = cli(t, env(), "index")
	assert.Equal(t, 2, code, "index without a flag: %s", errb)
}

// weaviateCollection names a collection of the test's own in the Weaviate
// at url, deleted when the test ends.
func weaviateCollection(t *testing.T, url, prefix string) string {
	collection := fmt.Sprintf("%s%d", prefix, time.Now().UnixNano())
	t.Cleanup(func() {
		req, _ := http.NewRequest(http.MethodDelete, url+"/v1/schema/"+collection, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	})
	return collection
}
