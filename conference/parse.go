package conference

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// MaxBundleBytes bounds the size of a bundle file.
const MaxBundleBytes = 64 << 20

// Problem is one thing wrong with a bundle, with its location, such as
// `sessions[12].speaker_ids[0]: unknown speaker "p99"`.
type Problem struct {
	Path    string
	Message string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// InvalidError reports every problem found in a rejected bundle.
type InvalidError struct {
	Source   string
	Problems []Problem
}

func (e *InvalidError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: invalid bundle (%d problem", e.Source, len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteString("s")
	}
	b.WriteString(")")
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// ErrInvalid matches every *InvalidError with errors.Is.
var ErrInvalid = errors.New("invalid bundle")

// Is makes errors.Is(err, ErrInvalid) true for an *InvalidError.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// LoadFile reads and parses the bundle at path. A bad file is rejected whole
// with an *InvalidError listing every problem.
func LoadFile(path string) (*Bundle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("conference: open bundle: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBundleBytes+1))
	if err != nil {
		return nil, fmt.Errorf("conference: read bundle %s: %w", path, err)
	}
	if len(data) > MaxBundleBytes {
		return nil, &InvalidError{Source: path, Problems: []Problem{{Message: fmt.Sprintf("file larger than %d MiB", MaxBundleBytes>>20)}}}
	}
	return Parse(path, data)
}

// rawBundle defers decoding of each record so that one bad record does not
// hide the problems of the others.
type rawBundle struct {
	Conferences []json.RawMessage `json:"conferences"`
	Sessions    []json.RawMessage `json:"sessions"`
	Exhibitors  []json.RawMessage `json:"exhibitors"`
	Speakers    []json.RawMessage `json:"speakers"`
}

// Parse decodes and validates a bundle. source names the data in errors.
func Parse(source string, data []byte) (*Bundle, error) {
	var raw rawBundle
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, &InvalidError{Source: source, Problems: []Problem{jsonProblem(data, err)}}
	}
	v := &validator{undecoded: map[string]bool{}}
	b := &Bundle{
		Conferences: decodeAll[Conference](v, "conferences", raw.Conferences),
		Sessions:    decodeAll[Session](v, "sessions", raw.Sessions),
		Exhibitors:  decodeAll[Exhibitor](v, "exhibitors", raw.Exhibitors),
		Speakers:    decodeAll[Speaker](v, "speakers", raw.Speakers),
	}
	v.check(b)
	if len(v.problems) > 0 {
		return nil, &InvalidError{Source: source, Problems: v.problems}
	}
	return b, nil
}

// decodeAll decodes each record on its own; a record that does not decode is
// reported and left out of the (rejected) result.
func decodeAll[T any](v *validator, kind string, raws []json.RawMessage) []T {
	out := make([]T, 0, len(raws))
	for i, r := range raws {
		var rec T
		if err := strictObject(r, &rec); err != nil {
			path := fmt.Sprintf("%s[%d]", kind, i)
			v.add(path, "%s", describeJSONError(err))
			v.undecoded[path] = true
			var zero T
			out = append(out, zero)
			continue
		}
		out = append(out, rec)
	}
	return out
}

func strictObject(r json.RawMessage, dst any) error {
	if t := bytes.TrimSpace(r); len(t) == 0 || t[0] != '{' {
		return errors.New("must be a JSON object")
	}
	return json.Unmarshal(r, dst)
}

func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("field %q: expected %s, got JSON %s", te.Field, te.Type, te.Value)
	}
	return err.Error()
}

// jsonProblem locates a syntax or top-level type error by line and column.
func jsonProblem(data []byte, err error) Problem {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := position(data, se.Offset)
		return Problem{Path: fmt.Sprintf("line %d, column %d", line, col), Message: se.Error()}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "bundle"
		}
		return Problem{Path: field, Message: fmt.Sprintf("expected %s, got JSON %s", te.Type, te.Value)}
	}
	return Problem{Message: err.Error()}
}

func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}
