package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// decoded is what decodeReply learnt besides the value: the top-level keys
// present with a non-null value (to tell a missing field from a zero one)
// and the keys it ignored, as paths ("queries[0].relaxation").
type decoded struct {
	present map[string]bool
	ignored []string
}

// aliases maps the prototype's field names to ours, per reply type. An
// alias is used only when our own name is absent.
var aliases = map[reflect.Type]map[string]string{
	reflect.TypeFor[planReply](): {"planned_queries": "queries"},
	reflect.TypeFor[Decision](): {"planned_queries": "new_queries", "queries": "new_queries",
		"message": "user_message"},
}

// decodeReply decodes text as exactly one JSON object into dst, a pointer to
// a struct. A surrounding Markdown code fence is tolerated, since models
// often add one. Keys dst does not know, at any depth, are ignored and
// listed: a harmless extra key ("confidence", the prototype's "query_mode")
// must not cost a good reply. Values of known keys are decoded strictly.
func decodeReply(text string, dst any) (decoded, error) {
	body := stripFence(strings.TrimSpace(text))
	if !strings.HasPrefix(body, "{") {
		return decoded{}, errors.New("reply is not a JSON object")
	}
	dec := json.NewDecoder(strings.NewReader(body))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return decoded{}, fmt.Errorf("reply is not valid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return decoded{}, errors.New("reply has data after the JSON object")
	}
	var d decoded
	clean, err := cleanValue(raw, reflect.TypeOf(dst).Elem(), "", &d.ignored)
	if err != nil {
		return d, fmt.Errorf("reply is not valid JSON for this step: %w", err)
	}
	d.present = presentKeys(clean)
	strict := json.NewDecoder(bytes.NewReader(clean))
	strict.DisallowUnknownFields()
	if err := strict.Decode(dst); err != nil {
		return d, fmt.Errorf("reply is not valid JSON for this step: %w", err)
	}
	return d, nil
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// cleanValue returns raw without the keys typ does not know, renaming
// aliases, and appends the dropped keys' paths to ignored. Values that are
// not the shape typ expects are left for the strict decode to reject.
func cleanValue(raw json.RawMessage, typ reflect.Type, path string, ignored *[]string) (json.RawMessage, error) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if reflect.PointerTo(typ).Implements(unmarshaler) {
		return raw, nil
	}
	trimmed := bytes.TrimSpace(raw)
	switch {
	case typ.Kind() == reflect.Struct && bytes.HasPrefix(trimmed, []byte("{")):
		return cleanObject(raw, typ, path, ignored)
	case typ.Kind() == reflect.Slice && bytes.HasPrefix(trimmed, []byte("[")):
		return cleanArray(raw, typ.Elem(), path, ignored)
	}
	return raw, nil
}

func cleanArray(raw json.RawMessage, elem reflect.Type, path string, ignored *[]string) (json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	for i, it := range items {
		c, err := cleanValue(it, elem, path+"["+strconv.Itoa(i)+"]", ignored)
		if err != nil {
			return nil, err
		}
		items[i] = c
	}
	return json.Marshal(items)
}

func cleanObject(raw json.RawMessage, typ reflect.Type, path string, ignored *[]string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	if path != "" {
		path += "."
	}
	known := jsonFields(typ)
	renameAliases(m, aliases[typ], path, ignored)
	for _, k := range sortedKeys(m) {
		ft, ok := fieldType(known, k)
		if !ok {
			*ignored = append(*ignored, path+k)
			delete(m, k)
			continue
		}
		c, err := cleanValue(m[k], ft, path+k, ignored)
		if err != nil {
			return nil, err
		}
		m[k] = c
	}
	return json.Marshal(m)
}

// renameAliases gives an alias's value our name when ours is absent; an
// alias beside our own name is ignored.
func renameAliases(m map[string]json.RawMessage, as map[string]string, path string, ignored *[]string) {
	for alias, ours := range as {
		v, ok := m[alias]
		if !ok {
			continue
		}
		delete(m, alias)
		if _, taken := m[ours]; taken {
			*ignored = append(*ignored, path+alias)
			continue
		}
		m[ours] = v
	}
}

// jsonFields maps the JSON names of typ's fields (embedded structs'
// included) to their types.
func jsonFields(typ reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for _, f := range reflect.VisibleFields(typ) {
		if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// fieldType finds a key's field as encoding/json does: exactly, else
// case-insensitively.
func fieldType(known map[string]reflect.Type, key string) (reflect.Type, bool) {
	if t, ok := known[key]; ok {
		return t, true
	}
	for name, t := range known {
		if strings.EqualFold(name, key) {
			return t, true
		}
	}
	return nil, false
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// presentKeys lists the top-level keys of a JSON object whose value is not
// null.
func presentKeys(obj json.RawMessage) map[string]bool {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(obj, &m)
	out := map[string]bool{}
	for k, v := range m {
		if string(bytes.TrimSpace(v)) != "null" {
			out[k] = true
		}
	}
	return out
}

// stripFence removes a ```json … ``` fence around text, if there is one.
func stripFence(text string) string {
	if !strings.HasPrefix(text, "```") {
		return text
	}
	nl := strings.IndexByte(text, '\n')
	if nl < 0 {
		return text
	}
	body := strings.TrimSpace(text[nl+1:])
	return strings.TrimSpace(strings.TrimSuffix(body, "```"))
}
