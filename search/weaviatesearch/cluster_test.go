package weaviatesearch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/search"
)

// cluster is a Weaviate cluster that start.sh --nodes N started: each
// node's REST URL and gRPC address, and the directory of its nodeI.start
// scripts and nodeI.pid files.
type cluster struct {
	urls, grpcs []string
	dir         string
}

func needCluster(t *testing.T) cluster {
	c := cluster{strings.Fields(os.Getenv("WEAVIATE_URLS")), strings.Fields(os.Getenv("WEAVIATE_GRPC_ADDRS")), os.Getenv("WEAVIATE_DIR")}
	if len(c.urls) < 3 || len(c.grpcs) != len(c.urls) || c.dir == "" {
		t.Skip("needs a 3-node Weaviate: scripts/weaviate/cluster-test.sh")
	}
	return c
}

// pidFile is where node i's pid is.
func (c cluster) pidFile(i int) string { return filepath.Join(c.dir, fmt.Sprintf("node%d.pid", i+1)) }

// open is an Index on the given nodes of a collection replicated on
// three nodes.
func (c cluster) open(t *testing.T, collection string, dim int, nodes ...int) *Index {
	var urls, grpcs []string
	for _, i := range nodes {
		urls, grpcs = append(urls, c.urls[i]), append(grpcs, c.grpcs[i])
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	idx, err := New(ctx, Config{URL: strings.Join(urls, ","), GRPCAddr: strings.Join(grpcs, ","), Collection: collection, Dim: dim, Replicas: 3})
	require.NoError(t, err, "nodes %v", nodes)
	t.Cleanup(func() { idx.Close() })
	return idx
}

// stop stops node i (SIGTERM to its process group) and waits until it is gone.
func (c cluster) stop(t *testing.T, i int) {
	data, err := os.ReadFile(c.pidFile(i))
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	require.NoError(t, err)
	require.NoError(t, syscall.Kill(-pid, syscall.SIGTERM), "stop node %d", i+1)
	require.Eventually(t, func() bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) || zombie(pid) },
		30*time.Second, 100*time.Millisecond, "node %d still runs", i+1)
}

func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && strings.Contains(string(data), ") Z ")
}

// start starts node i again with its nodeI.start script and waits until it
// is ready.
func (c cluster) start(t *testing.T, i int) {
	require.NoError(t, exec.Command("bash", filepath.Join(c.dir, fmt.Sprintf("node%d.start", i+1))).Run(), "start node %d", i+1)
	require.Eventually(t, func() bool {
		resp, err := http.Get(c.urls[i] + "/v1/.well-known/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, 90*time.Second, 300*time.Millisecond, "node %d not ready after its restart", i+1)
}

// answers runs every query and returns what each found: ids and scores
// (rounded to 1e-5), in order.
func answers(t *testing.T, idx *Index, queries []search.VectorQuery) []string {
	out := make([]string, len(queries))
	for i, q := range queries {
		hits, err := idx.Search(context.Background(), q)
		require.NoError(t, err, "query %d", i)
		var b strings.Builder
		for _, h := range hits {
			fmt.Fprintf(&b, "%s=%.5f ", h.ID, math.Round(float64(h.Score)*1e5)/1e5)
		}
		out[i] = b.String()
	}
	return out
}

// TestCluster: a collection replicated on three nodes serves agent
// replicas on node 1, on node 2 and on all three the same answers; with
// node 1 stopped, the others search and write on (the replica given every
// node passes over the stopped one) and answer as before; node 1 rejoins
// and answers with what was written while it was down.
func TestCluster(t *testing.T) {
	c := needCluster(t)
	const dim = 64
	name := fmt.Sprintf("Cluster%08x", rand.Uint32())
	a, b, all := c.open(t, name, dim, 0), c.open(t, name, dim, 1), c.open(t, name, dim, 0, 1, 2)
	t.Cleanup(func() { b.Drop(context.Background()) })
	var queries []search.VectorQuery
	var ents []search.Entity
	for conf := range 3 {
		es := synthetic(fmt.Sprintf("cluster%d", conf), 40, dim)
		require.NoError(t, a.Upsert(context.Background(), es))
		for _, e := range es[:5] {
			for _, mode := range []search.Mode{search.Faceted, search.Master} {
				queries = append(queries, search.VectorQuery{Conference: e.Conference, Table: e.Table, Mode: mode,
					Vector: e.Facets[1].Vector, Limit: 10, FacetFloor: 0.1})
			}
		}
		ents = append(ents, es...)
	}
	before := answers(t, a, queries)
	require.Equal(t, before, answers(t, b, queries), "the replica on node 2 reads what the one on node 1 wrote")
	require.Equal(t, before, answers(t, all, queries), "the replica on every node reads what the one on node 1 wrote")

	c.stop(t, 0)
	assert.Equal(t, before, answers(t, b, queries), "node 1 stopped: the replica on node 2 answers as before")
	assert.Equal(t, before, answers(t, all, queries), "node 1 stopped: the replica on every node answers as before")
	moved := ents[0]
	moved.Facets[1].Vector = ents[1].Facets[1].Vector // entity 0 now also matches entity 1's queries
	require.NoError(t, all.Upsert(context.Background(), []search.Entity{moved}), "a write with node 1 stopped")
	after := answers(t, b, queries)
	require.NotEqual(t, before, after, "the write changed no answer")
	assert.Equal(t, after, answers(t, all, queries), "node 1 stopped: the replica on every node reads the write")

	c.start(t, 0)
	rejoined := time.Now()
	n1 := c.open(t, name, dim, 0)
	var got []string
	assert.Eventually(t, func() bool { got = answers(t, n1, queries); return slices.Equal(after, got) }, 2*time.Minute, time.Second,
		"node 1 rejoined: it answers with the write made while it was down")
	assert.Equal(t, after, got, "node 1 rejoined")
	t.Logf("node 1 answered with the write made while it was down %v after it was ready again", time.Since(rejoined).Round(time.Second))
}
