package weaviatesearch

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/erleah/erleah-agent/search"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
)

// The tests in this file need no Weaviate.

func TestObjectIDIsDeterministicUUIDv5(t *testing.T) {
	r := search.Ref{Conference: "c1", Table: search.Sessions, ID: "s1"}
	id := objectID(r, "topic")
	assert.Equal(t, id, objectID(r, "topic"), "same entity and facet, same id")
	assert.Regexp(t, regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`), id)
	others := []string{
		objectID(r, ""),
		objectID(search.Ref{Conference: "c2", Table: search.Sessions, ID: "s1"}, "topic"),
		objectID(search.Ref{Conference: "c1", Table: search.Speakers, ID: "s1"}, "topic"),
		objectID(search.Ref{Conference: "c1", Table: search.Sessions, ID: "s1t"}, "opic"), // same concatenation
	}
	for _, o := range others {
		assert.NotEqual(t, id, o)
	}
}

func TestFilterRendersAsJSONAndGraphQL(t *testing.T) {
	w := and(shardFilter("c\"1", search.Sessions, kindFacet), containsAny(propEntity, []string{"a", "b"}))
	assert.Equal(t, `{operator: And, operands: [{operator: And, operands: [`+
		`{operator: Equal, path: ["conference"], valueText: "c\"1"}, `+
		`{operator: Equal, path: ["table"], valueText: "sessions"}, `+
		`{operator: Equal, path: ["kind"], valueText: "facet"}]}, `+
		`{operator: ContainsAny, path: ["entity"], valueText: ["a", "b"]}]}`, w.gql())
	data, err := json.Marshal(containsNone(propFacet, []string{"x"}))
	require.NoError(t, err)
	assert.JSONEq(t, `{"operator":"ContainsNone","path":["facet"],"valueTextArray":["x"]}`, string(data))
}

func TestVectorsRoundTrip(t *testing.T) {
	e := search.Entity{Ref: search.Ref{Conference: "c", Table: search.Exhibitors, ID: "e"}, Master: []float32{1, -0.5},
		Facets: []search.FacetVector{{Key: "a", Vector: []float32{0.25, 3}}, {Key: "b", Vector: []float32{-1, 0}}}}
	facets, entity := objects("C", &e)
	require.Len(t, facets, 2)
	ent := entity.Properties
	blob := ent.NonRefProperties.Fields[propVectors].GetStringValue()
	require.Len(t, ent.TextArrayProperties, 1)
	assert.Equal(t, propFacetKeys, ent.TextArrayProperties[0].PropName)
	got, err := decodeStored("e", ent.TextArrayProperties[0].Values, blob, 2)
	require.NoError(t, err)
	assert.Equal(t, e.Master, got.master)
	assert.Equal(t, [][]float32{{0.25, 3}, {-1, 0}}, got.facets)
	assert.Equal(t, []string{"a", "b"}, got.keys)
	_, err = decodeStored("e", []string{"a"}, blob, 2)
	assert.Error(t, err, "a blob that does not fit its keys")
}

func TestConfigIsChecked(t *testing.T) {
	for want, cfg := range map[string]Config{ // the error names what is wrong, before any request
		"URL is required":             {Dim: 3},
		"dimension 0":                 {URL: "http://x"},
		"collection name":             {URL: "http://x", Dim: 3, Collection: "entities"},
		"vector index":                {URL: "http://x", Dim: 3, VectorIndex: "ivf"},
		"-1 replicas":                 {URL: "http://x", Dim: 3, Replicas: -1},
		"2 gRPC addresses for 1 URLs": {URL: "http://x", Dim: 3, GRPCAddr: "x:1,y:2"},
		"want host:port":              {URL: "http://x", Dim: 3, GRPCAddr: "x"},
	} {
		_, err := New(context.Background(), cfg)
		assert.ErrorContains(t, err, want)
	}
}

func TestUnreachableServerIsAnError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now
	_, err = New(context.Background(), Config{URL: url, Dim: 3})
	var te *transportError
	assert.ErrorAs(t, err, &te)
	assert.Contains(t, err.Error(), "weaviatesearch: collection ErleahEntities")
}

// failingSearch is a gRPC Weaviate whose searches and batch writes all
// fail with code.
type failingSearch struct {
	pb.UnimplementedWeaviateServer
	code  codes.Code
	calls atomic.Int32
}

func (f *failingSearch) Search(context.Context, *pb.SearchRequest) (*pb.SearchReply, error) {
	f.calls.Add(1)
	return nil, status.Error(f.code, "shard not ready")
}

func (f *failingSearch) BatchObjects(context.Context, *pb.BatchObjectsRequest) (*pb.BatchObjectsReply, error) {
	f.calls.Add(1)
	return nil, status.Error(f.code, "shard not ready")
}

// grpcIndex is an Index whose gRPC calls go to srv (on loopback).
func grpcIndex(t *testing.T, srv pb.WeaviateServer) *Index {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := grpc.NewServer()
	pb.RegisterWeaviateServer(s, srv)
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	g, err := dial([]string{ln.Addr().String()}, false, "")
	require.NoError(t, err)
	t.Cleanup(func() { g.close() })
	return &Index{g: g, class: "C", dim: 2}
}

// A turn's search is tried once (the agent tries it again); a batch write
// is retried while the server is unavailable, and nothing else is.
func TestServerErrorsAreRetriedOnceInAllThenReturned(t *testing.T) {
	for code, writes := range map[codes.Code]int32{codes.Unavailable: int32(len(rpcPauses) + 1), codes.InvalidArgument: 1} {
		srv := &failingSearch{code: code}
		x := grpcIndex(t, srv)
		q := search.VectorQuery{Conference: "c", Table: search.Sessions, Mode: search.Master, Vector: []float32{1, 0}, Limit: 5}
		_, err := x.Search(search.TryOnce(context.Background()), q)
		var we *Error
		require.ErrorAs(t, err, &we)
		assert.Equal(t, code, we.Code)
		assert.Contains(t, err.Error(), "shard not ready")
		assert.Equal(t, int32(1), srv.calls.Swap(0), "search calls after %s, for a caller that retries", code)

		_, err = x.Search(context.Background(), q) // a caller that does not retry (an MCP tool)
		require.ErrorAs(t, err, &we)
		assert.Equal(t, writes, srv.calls.Swap(0), "search calls after %s, for a caller that does not retry", code)

		err = x.write(context.Background(), []search.Entity{{Ref: search.Ref{Conference: "c", Table: search.Sessions, ID: "s1"}, Master: []float32{1, 0}}})
		require.ErrorAs(t, err, &we)
		assert.Equal(t, code, we.Code)
		assert.Equal(t, writes, srv.calls.Load(), "batch calls after %s", code)
	}
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusUnprocessableEntity)
	}))
	defer srv.Close()
	x := &Index{c: client{bases: []string{srv.URL}, http: srv.Client()}, class: "C", dim: 2}
	err := x.Delete(context.Background(), []search.Ref{{Conference: "c", Table: search.Sessions, ID: "s"}})
	assert.Error(t, err)
	assert.Equal(t, int32(1), calls.Load())
}

func TestContextEndsTheRetries(t *testing.T) {
	x := grpcIndex(t, &failingSearch{code: codes.Unavailable})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := x.Refs(ctx, "c", search.Sessions)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "err = %v", err)
}

func TestEmptyIDsFindNothingWithoutAsking(t *testing.T) {
	x := &Index{c: client{bases: []string{"http://127.0.0.1:1"}, http: http.DefaultClient}, class: "C", dim: 2}
	hits, err := x.Search(context.Background(), search.VectorQuery{Conference: "c", Table: search.Sessions,
		Mode: search.Faceted, Vector: []float32{1, 0}, Limit: 5, IDs: []string{}})
	require.NoError(t, err)
	assert.Empty(t, hits)
}

// With several nodes, a request that gets no answer from one goes to the
// next, which requests then keep using.
func TestRESTFailsOverToTheNextNode(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	dead := "http://" + ln.Addr().String()
	require.NoError(t, ln.Close())
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Write([]byte(`{"results":{"matches":0,"limit":10000,"successful":0,"failed":0}}`))
	}))
	defer srv.Close()
	x := &Index{c: client{bases: []string{dead, srv.URL}, http: srv.Client()}, class: "C", dim: 2}
	for range 2 {
		require.NoError(t, x.Delete(context.Background(), []search.Ref{{Conference: "c", Table: search.Sessions, ID: "s"}}))
	}
	assert.Equal(t, int32(2), calls.Load(), "each delete answered by the live node")
	assert.Equal(t, srv.URL, x.c.base(), "requests stay on the node that answered")
}
