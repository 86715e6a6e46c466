package weaviatesearch

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/search"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/grpc/status"
)

// rpc is the driver's gRPC connection, used for searches and batch writes:
// vectors travel as bytes there, where GraphQL and REST spell every float in
// text (measured: a filtered top-10 takes 0.8 ms over gRPC and 2.5–4.5 ms
// over GraphQL on the same server).
// https://weaviate.io/developers/weaviate/api/grpc
type rpc struct {
	conn   *grpc.ClientConn
	api    pb.WeaviateClient
	apiKey string
}

// defaultGRPCPort is Weaviate's default GRPC_PORT.
const defaultGRPCPort = "50051"

// grpcTargets are the gRPC addresses of the nodes: addrs when given (one
// per node), else each REST URL's host on Weaviate's default gRPC port;
// useTLS says whether the REST URLs are https (gRPC then uses TLS too).
func grpcTargets(restURLs, addrs []string) (targets []string, useTLS bool, err error) {
	for _, raw := range restURLs {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return nil, false, fmt.Errorf("URL %q is not an absolute URL", raw)
		}
		useTLS = useTLS || u.Scheme == "https"
		targets = append(targets, net.JoinHostPort(u.Hostname(), defaultGRPCPort))
	}
	if len(addrs) == 0 {
		return targets, useTLS, nil
	}
	for _, a := range addrs {
		if _, _, err := net.SplitHostPort(a); err != nil {
			return nil, false, fmt.Errorf("gRPC address %q, want host:port", a)
		}
	}
	return addrs, useTLS, nil
}

// dial makes the gRPC client; it connects lazily, on the first call. With
// several nodes, calls are spread over those that answer (round robin), so
// a stopped node is passed over.
func dial(targets []string, useTLS bool, apiKey string) (*rpc, error) {
	creds := insecure.NewCredentials()
	if useTLS {
		creds = credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12})
	}
	opts := []grpc.DialOption{grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256 << 20))}
	target := targets[0]
	if len(targets) > 1 {
		nodes := manual.NewBuilderWithScheme("weaviate-nodes")
		var state resolver.State
		for _, t := range targets {
			host, _, _ := net.SplitHostPort(t)
			state.Addresses = append(state.Addresses, resolver.Address{Addr: t, ServerName: host})
		}
		nodes.InitialState(state)
		target = nodes.Scheme() + ":///weaviate"
		opts = append(opts, grpc.WithResolvers(nodes), grpc.WithDefaultServiceConfig(`{"loadBalancingConfig":[{"round_robin":{}}]}`))
	}
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		return nil, fmt.Errorf("gRPC client for %s: %w", strings.Join(targets, ", "), err)
	}
	return &rpc{conn: conn, api: pb.NewWeaviateClient(conn), apiKey: apiKey}, nil
}

func (r *rpc) close() error { return r.conn.Close() }

// rpcPauses are the waits before each new try of a gRPC call that found the
// server unavailable or overloaded, for the calls nobody above retries:
// writes and the listings of index sync. A search on an attendee's turn is
// tried once here: the agent tries a failed search again itself, within the
// turn's budget (one layer of retries, and an outage is said soon).
var rpcPauses = []time.Duration{100 * time.Millisecond, 400 * time.Millisecond}

// call runs f with the API key attached, retrying as rpcPauses says when
// retry is set and the server is unavailable or overloaded (every call is
// idempotent).
func (r *rpc) call(ctx context.Context, retry bool, f func(context.Context) error) error {
	ctx = r.authed(ctx)
	for attempt := 0; ; attempt++ {
		err := f(ctx)
		if err == nil || !retry || !retryableRPC(ctx, err) || attempt == len(rpcPauses) {
			return rpcError(ctx, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rpcPauses[attempt]):
		}
	}
}

// authed is ctx carrying the API key, if any.
func (r *rpc) authed(ctx context.Context) context.Context {
	if r.apiKey == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+r.apiKey)
}

// ping reads one object of the collection, once.
func (r *rpc) ping(ctx context.Context, class string) error {
	_, err := r.api.Search(r.authed(ctx), searchRequest(&pb.SearchRequest{Collection: class, Limit: 1}))
	return rpcError(ctx, err)
}

// searchRequest completes req as every search sends it: the current API's
// reply shape, and quorum consistency.
func searchRequest(req *pb.SearchRequest) *pb.SearchRequest {
	req.Uses_123Api, req.Uses_125Api, req.Uses_127Api = true, true, true
	req.ConsistencyLevel = quorum()
	return req
}

func retryableRPC(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	switch status.Code(err) {
	case codes.Unavailable, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}

// rpcError turns a gRPC status into the driver's errors: the caller's own
// cancellation as itself, anything else as an *Error naming the code.
func rpcError(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	return &Error{Message: fmt.Sprintf("gRPC %s: %s", st.Code(), st.Message()), Code: st.Code()}
}

// quorum is the consistency of every search and write: a majority of the
// shard's replicas, so a write is read back by any later search and one
// node of three may be down.
func quorum() *pb.ConsistencyLevel {
	q := pb.ConsistencyLevel_CONSISTENCY_LEVEL_QUORUM
	return &q
}

// search runs one gRPC search, retried (index sync's listings).
func (r *rpc) search(ctx context.Context, req *pb.SearchRequest) ([]*pb.SearchResult, error) {
	return r.query(ctx, true, req)
}

// searchFor runs one gRPC search for a caller: retried, unless the caller
// asks for one try (search.TryOnce: a turn's search, which the agent
// retries), so that there is one layer of retries.
func (r *rpc) searchFor(ctx context.Context, req *pb.SearchRequest) ([]*pb.SearchResult, error) {
	return r.query(ctx, !search.TriesOnce(ctx), req)
}

func (r *rpc) query(ctx context.Context, retry bool, req *pb.SearchRequest) ([]*pb.SearchResult, error) {
	req = searchRequest(req)
	var reply *pb.SearchReply
	err := r.call(ctx, retry, func(ctx context.Context) error {
		var err error
		reply, err = r.api.Search(ctx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	return reply.Results, nil
}

// batch writes objects in one gRPC batch; the first object error fails it.
func (r *rpc) batch(ctx context.Context, objs []*pb.BatchObject) error {
	var reply *pb.BatchObjectsReply
	err := r.call(ctx, true, func(ctx context.Context) error {
		var err error
		reply, err = r.api.BatchObjects(ctx, &pb.BatchObjectsRequest{Objects: objs, ConsistencyLevel: quorum()})
		return err
	})
	if err != nil {
		return err
	}
	if len(reply.Errors) > 0 {
		e := reply.Errors[0]
		id := ""
		if int(e.Index) < len(objs) {
			id = objs[e.Index].Uuid
		}
		return fmt.Errorf("object %s: %w", id, &Error{Message: e.Error})
	}
	return nil
}
