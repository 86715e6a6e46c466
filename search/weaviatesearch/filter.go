package weaviatesearch

import (
	"encoding/json"
	"strings"

	"github.com/erleah/erleah-agent/search"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
)

// where is a Weaviate filter. The same value is sent as JSON to the REST API
// (batch deletes) and written in GraphQL syntax into queries (gql).
// https://weaviate.io/developers/weaviate/api/graphql/filters
type where struct {
	Operator       string   `json:"operator"`
	Path           []string `json:"path,omitempty"`
	ValueText      *string  `json:"valueText,omitempty"`
	ValueTextArray []string `json:"valueTextArray,omitempty"`
	Operands       []where  `json:"operands,omitempty"`
}

func equal(prop, value string) where {
	return where{Operator: "Equal", Path: []string{prop}, ValueText: &value}
}

func greater(prop, value string) where {
	return where{Operator: "GreaterThan", Path: []string{prop}, ValueText: &value}
}

func containsAny(prop string, values []string) where {
	return where{Operator: "ContainsAny", Path: []string{prop}, ValueTextArray: values}
}

func containsNone(prop string, values []string) where {
	return where{Operator: "ContainsNone", Path: []string{prop}, ValueTextArray: values}
}

func and(operands ...where) where { return where{Operator: "And", Operands: operands} }

func or(operands ...where) where { return where{Operator: "Or", Operands: operands} }

// shardFilter keeps the objects of one kind in one conference and table:
// the server-side isolation every query starts from.
func shardFilter(conference string, table search.Table, kind string) where {
	return and(equal(propConference, conference), equal(propTable, string(table)), equal(propKind, kind))
}

// gql writes w in GraphQL input syntax: keys bare, the operator an enum.
func (w where) gql() string {
	var b strings.Builder
	w.write(&b)
	return b.String()
}

func (w where) write(b *strings.Builder) {
	b.WriteString("{operator: ")
	b.WriteString(w.Operator)
	if w.Path != nil {
		b.WriteString(", path: ")
		writeStrings(b, w.Path)
	}
	if w.ValueText != nil {
		b.WriteString(", valueText: ")
		b.WriteString(gqlString(*w.ValueText))
	}
	if w.ValueTextArray != nil {
		b.WriteString(", valueText: ") // GraphQL takes a list here, REST a valueTextArray
		writeStrings(b, w.ValueTextArray)
	}
	if w.Operands != nil {
		b.WriteString(", operands: [")
		for i, o := range w.Operands {
			if i > 0 {
				b.WriteString(", ")
			}
			o.write(b)
		}
		b.WriteString("]")
	}
	b.WriteString("}")
}

func writeStrings(b *strings.Builder, ss []string) {
	b.WriteString("[")
	for i, s := range ss {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(gqlString(s))
	}
	b.WriteString("]")
}

// gqlString quotes s as a GraphQL string literal: a JSON string is one.
func gqlString(s string) string {
	q, _ := json.Marshal(s) // a string always encodes
	return string(q)
}

// operators maps the filter's operators onto the gRPC API's.
var operators = map[string]pb.Filters_Operator{
	"Equal": pb.Filters_OPERATOR_EQUAL, "GreaterThan": pb.Filters_OPERATOR_GREATER_THAN,
	"ContainsAny": pb.Filters_OPERATOR_CONTAINS_ANY, "ContainsNone": pb.Filters_OPERATOR_CONTAINS_NONE,
	"And": pb.Filters_OPERATOR_AND, "Or": pb.Filters_OPERATOR_OR,
}

// proto writes w as the gRPC API's filter.
func (w where) proto() *pb.Filters {
	f := &pb.Filters{Operator: operators[w.Operator]}
	if len(w.Path) == 1 {
		f.Target = &pb.FilterTarget{Target: &pb.FilterTarget_Property{Property: w.Path[0]}}
	}
	switch {
	case w.ValueText != nil:
		f.TestValue = &pb.Filters_ValueText{ValueText: *w.ValueText}
	case w.ValueTextArray != nil:
		f.TestValue = &pb.Filters_ValueTextArray{ValueTextArray: &pb.TextArray{Values: w.ValueTextArray}}
	}
	for _, o := range w.Operands {
		f.Filters = append(f.Filters, o.proto())
	}
	return f
}
