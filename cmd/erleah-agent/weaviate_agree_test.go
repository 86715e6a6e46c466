package main

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/eval"
	"github.com/erleah/erleah-agent/search"
)

// On every evaluation case of every set, each table's top 10 (faceted and
// master, the case's message as the query, hybrid as the agent searches)
// is the same list from Weaviate as from the in-memory index.
func TestWeaviateTop10AgreesWithMemory(t *testing.T) {
	url := os.Getenv("WEAVIATE_URL")
	if url == "" {
		t.Skip("set WEAVIATE_URL to run against a real Weaviate (scripts/weaviate/start.sh; scripts/test.sh does it)")
	}
	ctx := context.Background()
	collection := weaviateCollection(t, url, "AgreeTest")
	memCfg, err := loadConfig(map[string]string{"STATE_DIR": t.TempDir()})
	require.NoError(t, err)
	wvCfg, err := loadConfig(map[string]string{"STATE_DIR": t.TempDir(), "SEARCH_BACKEND": "weaviate", "WEAVIATE_URL": url,
		"WEAVIATE_GRPC_ADDR": os.Getenv("WEAVIATE_GRPC_ADDR"), "WEAVIATE_COLLECTION": collection})
	require.NoError(t, err)
	lists, same := 0, 0
	for _, set := range eval.Sets {
		b, err := set.Bundle("")
		if errors.Is(err, os.ErrNotExist) {
			t.Logf("set %s: no bundle here (%v)", set.Name, err)
			continue
		}
		require.NoError(t, err, "set %s", set.Name)
		cases, err := set.Cases()
		require.NoError(t, err, "set %s", set.Name)
		var engines []*search.Engine
		for _, cfg := range []config{memCfg, wvCfg} {
			eng, err := newIndex(ctx, cfg)
			require.NoError(t, err)
			_, err = eng.Load(ctx, b)
			require.NoError(t, err, "set %s", set.Name)
			engines = append(engines, eng)
		}
		for _, c := range cases {
			for _, tb := range search.Tables {
				for _, mode := range []search.Mode{search.Faceted, search.Master} {
					q := search.Query{Table: tb, Mode: mode, Text: c.Message, Limit: 10}
					mem, wv := top(t, engines[0], c.ConferenceID, q), top(t, engines[1], c.ConferenceID, q)
					lists++
					if slices.Equal(mem, wv) {
						same++
					} else {
						t.Errorf("set %s case %s, %s %s: memory %v, Weaviate %v", set.Name, c.ID, mode, tb, mem, wv)
					}
				}
			}
		}
	}
	t.Logf("top-10 lists the same from both drivers: %d of %d", same, lists)
	assert.Positive(t, lists)
}

func top(t *testing.T, eng *search.Engine, conference string, q search.Query) []string {
	rs, err := eng.Search(context.Background(), conference, eng.Resolve(q))
	require.NoError(t, err)
	ids := []string{}
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return ids
}
