package searchtest

import (
	"context"
	"sync"
	"testing"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/hashembed"
	"github.com/erleah/erleah-agent/search/memsearch"
)

// Engine is an engine with the offline embedder and the in-memory index,
// loaded with b: what tests of the agent and the service search.
func Engine(t testing.TB, b *conference.Bundle) *search.Engine {
	t.Helper()
	eng, err := load(b)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func load(b *conference.Bundle) (*search.Engine, error) {
	emb := hashembed.New(0)
	eng, err := search.NewEngine(emb, memsearch.New(emb.Dim()))
	if err != nil {
		return nil, err
	}
	_, err = eng.Load(context.Background(), b)
	return eng, err
}

var demo struct {
	once   sync.Once
	bundle *conference.Bundle
	engine *search.Engine
	err    error
}

// Demo is the embedded demo bundle and an engine loaded with it, built once
// per test binary and shared: do not load anything else into it.
func Demo(t testing.TB) (*conference.Bundle, *search.Engine) {
	t.Helper()
	demo.once.Do(func() {
		demo.bundle, demo.err = conference.Demo()
		if demo.err == nil {
			demo.engine, demo.err = load(demo.bundle)
		}
	})
	if demo.err != nil {
		t.Fatal(demo.err)
	}
	return demo.bundle, demo.engine
}
