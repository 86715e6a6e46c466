package llm

import (
	"context"
	"fmt"
	"strings"

	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/erleah/erleah-agent/search"
)

// DefaultBatch is how many texts go into one embedding request.
const DefaultBatch = 64

// NeuralLevels are the score levels used for neural embedders unless the
// operator measures better ones (EMBEDDER_LEVELS): related texts of
// sentence-embedding models typically score 0.4–0.7, unrelated ones
// 0.05–0.25.
var NeuralLevels = search.Calibration{FacetFloor: 0.25, Threshold: 0.3, Confident: 0.45, Relaxed: 0.25, Loosest: 0.2}

// Embedder is a search.Embedder backed by a provider's embedding model
// through langchaingo, batching texts. It is safe for concurrent use.
type Embedder struct {
	spec   Spec
	impl   *embeddings.EmbedderImpl
	dim    int
	levels search.Calibration
}

// NewEmbedder returns an embedder for "openai:<model>" or "ollama:<model>".
// A dim of zero is found by embedding one probe text; give the dimension a
// cache already knows to start without calling the provider.
func NewEmbedder(ctx context.Context, spec Spec, cfg Config, dim, batch int, levels search.Calibration) (*Embedder, error) {
	var client embeddings.EmbedderClient
	var err error
	switch spec.Provider {
	case OpenAI:
		if err := cfg.Check(spec); err != nil {
			return nil, err
		}
		client, err = openai.New(cfg.openAIOptions(cfg.httpClient(), openai.WithEmbeddingModel(spec.Model))...)
	case Ollama:
		client, err = ollama.New(cfg.ollamaOptions(cfg.httpClient(), spec.Model)...)
	default:
		return nil, fmt.Errorf("llm: embedder %s: want openai:<model> or ollama:<model>", spec)
	}
	if err != nil {
		return nil, fmt.Errorf("llm: create embedder %s: %w", spec, err)
	}
	if batch <= 0 {
		batch = DefaultBatch
	}
	impl, err := embeddings.NewEmbedder(client, embeddings.WithBatchSize(batch), embeddings.WithStripNewLines(true))
	if err != nil {
		return nil, fmt.Errorf("llm: create embedder %s: %w", spec, err)
	}
	if levels == (search.Calibration{}) {
		levels = NeuralLevels
	}
	e := &Embedder{spec: spec, impl: impl, dim: dim, levels: levels}
	if e.dim <= 0 {
		v, err := e.embed(ctx, []string{"dimension probe"})
		if err != nil {
			return nil, err
		}
		e.dim = len(v[0])
	}
	return e, nil
}

// Name returns the embedder's spec, such as "openai:text-embedding-3-small".
func (e *Embedder) Name() string { return e.spec.String() }

// Dim returns the model's vector dimension.
func (e *Embedder) Dim() int { return e.dim }

// Calibration returns the score levels configured for this model.
func (e *Embedder) Calibration() search.Calibration { return e.levels }

// Embed returns unit vectors; empty texts get zero vectors without a request.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var idx []int
	var send []string
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			out[i] = make([]float32, e.dim)
			continue
		}
		idx, send = append(idx, i), append(send, t)
	}
	if len(send) == 0 {
		return out, nil
	}
	vecs, err := e.embed(ctx, send)
	if err != nil {
		return nil, err
	}
	for j, i := range idx {
		if len(vecs[j]) != e.dim {
			return nil, fmt.Errorf("llm: %s returned %d dimensions, want %d: %w", e.spec, len(vecs[j]), e.dim, search.ErrDimension)
		}
		out[i] = vecs[j]
	}
	return out, nil
}

func (e *Embedder) embed(ctx context.Context, texts []string) ([][]float32, error) {
	rec := &record{}
	vecs, err := e.impl.EmbedDocuments(withRecord(ctx, rec), texts)
	if err != nil {
		return nil, classify(ctx, e.spec.String(), "embed", rec, err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("llm: %s returned %d vectors for %d texts", e.spec, len(vecs), len(texts))
	}
	for _, v := range vecs {
		search.Normalise(v)
	}
	return vecs, nil
}
