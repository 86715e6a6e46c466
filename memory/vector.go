package memory

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// Vector is an embedding as lessons keep it: in JSON, the base64 of its
// little-endian float32 values, a third of the text a list of numbers
// takes (a file or Directus item rewritten on every change stays small).
// A list of numbers is read too.
type Vector []float32

// MarshalJSON writes v as a base64 string.
func (v Vector) MarshalJSON() ([]byte, error) {
	buf := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
	}
	return json.Marshal(base64.StdEncoding.EncodeToString(buf))
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
	out := make(Vector, len(raw)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	*v = out
	return nil
}
