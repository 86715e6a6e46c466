package memory

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/erleah/erleah-agent/search"
)

// Vector is an embedding as lessons keep it: in JSON, the base64 of its
// little-endian float32 values (search.AppendFloats), a third of the text a
// list of numbers takes, so a lesson written to the journal or to Directus
// stays small. A list of numbers is read too.
type Vector []float32

// MarshalJSON writes v as a base64 string.
func (v Vector) MarshalJSON() ([]byte, error) {
	return json.Marshal(base64.StdEncoding.EncodeToString(search.AppendFloats(make([]byte, 0, 4*len(v)), v)))
}

// UnmarshalJSON reads a base64 string of float32 values, or a list of
// numbers.
func (v *Vector) UnmarshalJSON(b []byte) error {
	var list []float32
	if err := json.Unmarshal(b, &list); err == nil {
		*v = list
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("memory: vector: want base64 float32 values or a list of numbers: %w", err)
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(raw)%4 != 0 {
		return fmt.Errorf("memory: vector: not base64 float32 values")
	}
	*v = search.Floats(raw)
	return nil
}
