package llm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

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
	if err != nil {
		t.Fatal(err)
	}
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
	if err != nil {
		t.Fatal(err)
	}
	inner, err := llm.NewEmbedder(context.Background(), spec, llm.Config{OpenAIKey: "k", OpenAIBaseURL: srv.URL + "/v1", Retry: fastRetry}, cache.Dim(), 16, search.Calibration{})
	if err != nil {
		t.Fatal(err)
	}
	emb, err := cache.Wrap(inner)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := search.NewEngine(emb, memsearch.New(emb.Dim()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Load(context.Background(), b); err != nil {
		t.Fatal(err)
	}
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
		if r.Model != "embed-test" || len(inputs) > 16 {
			t.Fatalf("embedding request for model %q with %d inputs", r.Model, len(inputs))
		}
		for _, in := range inputs {
			if i > 0 { // the first request probes the dimension
				sent[in.(string)]++
			}
		}
	}
	for text := range distinct {
		if sent[text] != 1 {
			t.Fatalf("text embedded %d times, want once: %q", sent[text], text)
		}
	}
	if full := len(sent)/16 + 1; n > 1+full+2 { // whole batches: documents, then the calibration questions
		t.Fatalf("%d embedding requests for %d texts", n, len(sent))
	}
	rs, err := eng.Search(context.Background(), "climate26", search.Query{Table: search.Sessions, Mode: search.Master, Text: b.Sessions[3].Title, Limit: 3})
	if err != nil || len(rs) == 0 {
		t.Fatalf("search through provider embeddings: %v", err)
	}
	n, _ = loadThroughCache(t, srv, dir, b)
	if n != 0 {
		t.Fatalf("a restart made %d embedding requests; the cache should answer everything", n)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || filepath.Ext(entries[0].Name()) != ".vec" {
		t.Fatalf("cache directory holds %v", entries)
	}
}

func TestOllamaEmbeddings(t *testing.T) {
	srv := llmtest.NewOllama(t)
	spec, _ := llm.ParseSpec("ollama:embed-test")
	e, err := llm.NewEmbedder(context.Background(), spec, llm.Config{OllamaURL: srv.URL}, 0, 0, search.Calibration{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.Embed(context.Background(), []string{"a", "", "b"})
	if err != nil || len(vs) != 3 || len(vs[1]) != llmtest.Dim || vs[1][0] != 0 {
		t.Fatalf("Embed: %v %v", err, vs)
	}
	if got, want := fmt.Sprint(vs[0][:3]), fmt.Sprint(llmtest.Vector("a")[:3]); got != want {
		t.Fatalf("vector %s, want %s", got, want)
	}
	if n := len(srv.Of("embeddings")); n != 3 { // probe + one request per non-empty text
		t.Fatalf("%d requests", n)
	}
}

func TestCacheRefusesAnotherEmbedder(t *testing.T) {
	c, _ := embedcache.Open(t.TempDir(), "openai:a")
	srv := llmtest.NewOllama(t)
	spec, _ := llm.ParseSpec("ollama:b")
	e, _ := llm.NewEmbedder(context.Background(), spec, llm.Config{OllamaURL: srv.URL}, 0, 0, search.Calibration{})
	if _, err := c.Wrap(e); err == nil {
		t.Fatal("a cache of one model wrapped another")
	}
}
