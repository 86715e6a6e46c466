package llm_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/llm/llmtest"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/embedcache"
	"github.com/erleah/erleah-agent/search/memsearch"
)

func smallBundle(t *testing.T) *conference.Bundle {
	t.Helper()
	b, err := conference.Demo()
	require.NoError(t, err)
	small := b.Of("climate26")
	return small
}

// loadThroughCache indexes the bundle with an OpenAI embedder behind the
// disk cache in dir and returns how many embedding requests it made.
func loadThroughCache(t *testing.T, srv *llmtest.Server, dir string, b *conference.Bundle) (int, *search.Engine) {
	t.Helper()
	before := len(srv.Of("embeddings"))
	spec, _ := llm.ParseSpec("openai:embed-test")
	cache, err := embedcache.Open(dir, spec.String())
	require.NoError(t, err)
	inner, err := llm.NewEmbedder(context.Background(), spec, llm.Config{OpenAIKey: "k", OpenAIBaseURL: srv.URL + "/v1", Retry: fastRetry}, cache.Dim(), 16, search.Calibration{})
	require.NoError(t, err)
	emb, err := cache.Wrap(inner)
	require.NoError(t, err)
	eng, err := search.NewEngine(emb, memsearch.New(emb.Dim()))
	require.NoError(t, err)
	_, err = eng.Load(context.Background(), b)
	require.NoError(t, err)
	return len(srv.Of("embeddings")) - before, eng
}

func TestOpenAIEmbeddingsAreBatchedAndCachedAcrossRestarts(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	dir := t.TempDir()
	b := smallBundle(t)
	distinct := map[string]bool{}
	for _, d := range search.Documents(b) {
		distinct[d.MasterText] = true
		for _, f := range d.Facets {
			distinct[f.Text] = true
		}
	}
	n, eng := loadThroughCache(t, srv, dir, b)
	sent := map[string]int{}
	for i, r := range srv.Of("embeddings") {
		inputs, _ := r.Body["input"].([]any)
		require.Equal(t, "embed-test", r.Model, "embedding request model")
		require.LessOrEqual(t, len(inputs), 16, "embedding request for model %q: inputs", r.Model)
		for _, in := range inputs {
			if i > 0 { // the first request probes the dimension
				sent[in.(string)]++
			}
		}
	}
	for text := range distinct {
		require.Equal(t, 1, sent[text], "times text embedded, want once: %q", text)
	}
	full := len(sent)/16 + 1
	require.LessOrEqual(t, n, 1+full+2, "embedding requests for %d texts", len(sent)) // whole batches: documents, then the calibration questions
	rs, err := eng.Search(context.Background(), "climate26", search.Query{Table: search.Sessions, Mode: search.Master, Text: b.Sessions[3].Title, Limit: 3})
	require.NoError(t, err, "search through provider embeddings")
	require.NotEmpty(t, rs, "search through provider embeddings")
	n, _ = loadThroughCache(t, srv, dir, b)
	require.Zero(t, n, "a restart made embedding requests; the cache should answer everything")
	entries, _ := os.ReadDir(dir)
	require.Len(t, entries, 1, "cache directory holds %v", entries)
	assert.Equal(t, ".vec", filepath.Ext(entries[0].Name()), "cache directory holds %v", entries)
}

func TestOllamaEmbeddings(t *testing.T) {
	srv := llmtest.NewOllama(t)
	spec, _ := llm.ParseSpec("ollama:embed-test")
	e, err := llm.NewEmbedder(context.Background(), spec, llm.Config{OllamaURL: srv.URL}, 0, 0, search.Calibration{})
	require.NoError(t, err)
	vs, err := e.Embed(context.Background(), []string{"a", "", "b"})
	require.NoError(t, err, "Embed")
	require.Len(t, vs, 3, "Embed: %v", vs)
	require.Len(t, vs[1], llmtest.Dim, "Embed: %v", vs)
	require.Zero(t, vs[1][0], "Embed: %v", vs)
	require.Equal(t, fmt.Sprint(llmtest.Vector("a")[:3]), fmt.Sprint(vs[0][:3]), "vector")
	assert.Len(t, srv.Of("embeddings"), 3, "requests") // probe + one request per non-empty text
}

func TestCacheRefusesAnotherEmbedder(t *testing.T) {
	c, _ := embedcache.Open(t.TempDir(), "openai:a")
	srv := llmtest.NewOllama(t)
	spec, _ := llm.ParseSpec("ollama:b")
	e, _ := llm.NewEmbedder(context.Background(), spec, llm.Config{OllamaURL: srv.URL}, 0, 0, search.Calibration{})
	_, err := c.Wrap(e)
	assert.Error(t, err, "a cache of one model wrapped another")
}

// TestAQueryWhoseCallerRetriesIsEmbeddedOnce: the provider's client
// retries a failed embedding request (loading documents), except when the
// caller retries itself (a turn's search): then one request, and the
// error at once.
func TestAQueryWhoseCallerRetriesIsEmbeddedOnce(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	spec, _ := llm.ParseSpec("openai:embed-test")
	emb, err := llm.NewEmbedder(context.Background(), spec, llm.Config{OpenAIKey: "k", OpenAIBaseURL: srv.URL + "/v1", Retry: fastRetry}, 0, 16, search.Calibration{})
	require.NoError(t, err)
	unavailable := llmtest.Reply{Status: http.StatusServiceUnavailable, Text: `{"error":{"message":"busy"}}`}

	srv.Script("embeddings", unavailable)
	before := len(srv.Of("embeddings"))
	_, err = emb.Embed(context.Background(), []string{"a document"})
	require.NoError(t, err, "one 503, then the client's own retry")
	assert.Equal(t, 2, len(srv.Of("embeddings"))-before, "requests for a document")

	srv.Script("embeddings", unavailable)
	before = len(srv.Of("embeddings"))
	_, err = emb.Embed(search.TryOnce(context.Background()), []string{"a question"})
	require.Error(t, err, "the 503 comes back to the caller, who retries")
	assert.Equal(t, 1, len(srv.Of("embeddings"))-before, "requests for a question whose caller retries")
}
