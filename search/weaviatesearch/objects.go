package weaviatesearch

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"github.com/erleah/erleah-agent/search"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/protobuf/types/known/structpb"
)

// Property names and kinds of the collection's objects.
const (
	propConference = "conference"
	propTable      = "table"
	propEntity     = "entity"
	propKind       = "kind"
	propFacet      = "facet"
	propFacetKeys  = "facetKeys"
	propVectors    = "vectors"
	propOrder      = "entityHex" // hex of the id: sorts case-insensitively as bytes do
	propHash       = "hash"      // the entity's search.Entity.ContentHash

	kindEntity = "entity" // one per entity: vector = master, all vectors in propVectors
	kindFacet  = "facet"  // one per facet: vector = the facet's, for candidate search
	kindKey    = "key"    // one per facet key outside the schema in a table, no vector
)

// newObject is an object as the gRPC batch API takes it: text properties,
// and the vector (when not nil) as bytes.
func newObject(class, id string, vector []float32, props map[string]string) *pb.BatchObject {
	fields := make(map[string]*structpb.Value, len(props))
	for k, v := range props {
		fields[k] = structpb.NewStringValue(v)
	}
	o := &pb.BatchObject{Uuid: id, Collection: class, Properties: &pb.BatchObject_Properties{NonRefProperties: &structpb.Struct{Fields: fields}}}
	if vector != nil {
		o.VectorBytes = vectorBytes(vector)
	}
	return o
}

// idNamespace is the UUIDv5 namespace of the driver's object ids.
var idNamespace = [16]byte{0x6b, 0x1e, 0x0c, 0x52, 0x2f, 0x3d, 0x4b, 0x8e, 0x9a, 0x51, 0x0e, 0x7c, 0x4d, 0x21, 0x93, 0x6f}

// objectID derives the id of an entity's object (facet "") or of one of its
// facet objects: a UUIDv5 (RFC 9562) of conference, table, id and facet,
// so writing an entity again replaces its objects instead of adding more.
func objectID(r search.Ref, facet string) string {
	h := sha1.New()
	h.Write(idNamespace[:])
	for _, part := range []string{r.Conference, string(r.Table), r.ID, facet} {
		fmt.Fprintf(h, "%d:%s", len(part), part) // length-prefixed: no two tuples share a name
	}
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	var s [36]byte
	hex.Encode(s[0:8], u[0:4])
	hex.Encode(s[9:13], u[4:6])
	hex.Encode(s[14:18], u[6:8])
	hex.Encode(s[19:23], u[8:10])
	hex.Encode(s[24:], u[10:])
	s[8], s[13], s[18], s[23] = '-', '-', '-', '-'
	return string(s[:])
}

// objects returns the entity's objects: its facet objects, and the entity
// object, which carries every vector so a search can score the entity from
// one object, written atomically.
func objects(class string, e *search.Entity) (facets []*pb.BatchObject, entity *pb.BatchObject) {
	out := make([]*pb.BatchObject, 0, len(e.Facets))
	keys := make([]string, len(e.Facets))
	for i, f := range e.Facets {
		keys[i] = f.Key
		out = append(out, newObject(class, objectID(e.Ref, f.Key), f.Vector, map[string]string{
			propConference: e.Conference, propTable: string(e.Table), propEntity: e.ID, propKind: kindFacet, propFacet: f.Key,
		}))
	}
	ent := newObject(class, objectID(e.Ref, ""), e.Master, map[string]string{
		propConference: e.Conference, propTable: string(e.Table), propEntity: e.ID, propKind: kindEntity,
		propOrder: hex.EncodeToString([]byte(e.ID)), propVectors: encodeVectors(e), propHash: e.ContentHash(),
	})
	if len(keys) > 0 {
		ent.Properties.TextArrayProperties = []*pb.TextArrayProperties{{PropName: propFacetKeys, Values: keys}}
	} else {
		ent.Properties.EmptyListProps = []string{propFacetKeys}
	}
	return out, ent
}

// markers returns a key object for each facet key outside the schema that
// the entities use, once per conference and table: searches read them to
// widen the coverage denominator as memsearch does.
func markers(class string, entities []search.Entity) []*pb.BatchObject {
	var out []*pb.BatchObject
	seen := map[string]bool{}
	for _, e := range entities {
		for _, f := range e.Facets {
			id := objectID(search.Ref{Conference: e.Conference, Table: e.Table}, f.Key) // no entity has id ""
			if search.KnownFacet(e.Table, f.Key) || seen[id] {
				continue
			}
			seen[id] = true
			out = append(out, newObject(class, id, nil, map[string]string{
				propConference: e.Conference, propTable: string(e.Table), propKind: kindKey, propFacet: f.Key,
			}))
		}
	}
	return out
}

// encodeVectors packs the master vector and then each facet vector as
// little-endian float32, base64 as Weaviate's blob type wants.
func encodeVectors(e *search.Entity) string {
	dim := len(e.Master)
	buf := make([]byte, 0, 4*dim*(1+len(e.Facets)))
	buf = search.AppendFloats(buf, e.Master)
	for _, f := range e.Facets {
		buf = search.AppendFloats(buf, f.Vector)
	}
	return base64.StdEncoding.EncodeToString(buf)
}

// stored is an entity as read back from its entity object.
type stored struct {
	id     string
	master []float32
	keys   []string
	facets [][]float32
}

// decodeStored rebuilds an entity from its object's properties.
func decodeStored(id string, keys []string, blob string, dim int) (stored, error) {
	raw, err := base64.StdEncoding.DecodeString(blob)
	if err != nil {
		return stored{}, fmt.Errorf("entity %s: vectors: %w", id, err)
	}
	if len(raw) != 4*dim*(1+len(keys)) {
		return stored{}, fmt.Errorf("entity %s: %d vector bytes for %d facets of dimension %d", id, len(raw), len(keys), dim)
	}
	vecs := search.Floats(raw)
	s := stored{id: id, master: vecs[:dim:dim], keys: keys}
	for i := range keys {
		s.facets = append(s.facets, vecs[(i+1)*dim:(i+2)*dim:(i+2)*dim])
	}
	return s, nil
}
