package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/chat"
)

// weaviateProxies puts a cuttable proxy in front of the test Weaviate's
// REST and gRPC ports and returns the agent's environment for a collection
// of the test's own, dropped at the end.
func weaviateProxies(t *testing.T) (env map[string]string, cut func(bool)) {
	url, grpcAddr := os.Getenv("WEAVIATE_URL"), os.Getenv("WEAVIATE_GRPC_ADDR")
	if url == "" || grpcAddr == "" {
		t.Skip("set WEAVIATE_URL and WEAVIATE_GRPC_ADDR to run against a real Weaviate (scripts/weaviate/start.sh; scripts/test.sh does it)")
	}
	rest, rpc := newProxy(t, url), newProxy(t, grpcAddr)
	collection := weaviateCollection(t, url, "OutageTest")
	env = map[string]string{"SEARCH_BACKEND": "weaviate", "WEAVIATE_URL": rest.url(),
		"WEAVIATE_GRPC_ADDR": strings.TrimPrefix(rpc.url(), "http://"), "WEAVIATE_COLLECTION": collection}
	return env, func(down bool) { rest.cut(down); rpc.cut(down) }
}

// With Weaviate gone, a turn soon says why (the reply handed back with the
// search-down text and the reason in its metadata, never an answer that
// says nothing fits), and once Weaviate is back the reconciler answers it.
func TestE2EWeaviateOutageIsSaidThenAnswered(t *testing.T) {
	d := needDirectus(t)
	env, cut := weaviateProxies(t)
	env["TURN_TIMEOUT"], env["RECONCILE_ABANDON_AFTER"], env["MODEL_CALL_TIMEOUT"] = "10s", "10s", "5s"
	d.startAgent(t, env)
	conv := d.conversation(t)
	r := d.finished(t, d.ask(t, conv, "Any sessions on RAG?"), 30*time.Second)
	require.Equal(t, "completed", r.Status, "before the outage: %+v", r)
	require.Contains(t, r.Text, "[sessions/", "before the outage: %+v", r)

	cut(true)
	start := time.Now()
	user := d.ask(t, conv, "Any sessions on RAG?")
	var rs []reply
	eventually(t, 30*time.Second, func() string { return fmt.Sprintf("the search-down reply (have %+v)", rs) }, func() bool {
		rs = d.replies(t, user)
		return len(rs) == 1 && rs[0].Text == chat.SearchDown
	})
	said := time.Since(start)
	require.Equal(t, "pending", rs[0].Status, "during the outage: %+v", rs[0])
	assert.Equal(t, true, rs[0].Metadata["handed_back"], "during the outage: %+v", rs[0].Metadata)
	assert.Contains(t, fmt.Sprint(rs[0].Metadata["reason"]), "search unavailable", "during the outage: %+v", rs[0].Metadata)

	cut(false)
	back := time.Now()
	r = d.finished(t, user, 60*time.Second)
	require.Equal(t, "completed", r.Status, "after the outage: %+v", r)
	require.Contains(t, r.Text, "[sessions/", "after the outage: %+v", r)
	t.Logf("with Weaviate unreachable the reply said so %v after the question; answered %v after Weaviate came back",
		said.Round(time.Millisecond), time.Since(back).Round(time.Millisecond))
}
