package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// File keeps lessons in a journal of JSON lines: a change appends the
// lessons it puts and the ids it deletes, synced to disk, so a turn's
// write costs its own lessons, not the whole memory. When the journal has
// grown to twice what it holds, it is rewritten with the live lessons only
// (to a temporary file, synced, then renamed), so a crash leaves the old
// journal or the new one. A last line cut short by a crash is ignored.
// A file written whole as one JSON array (before the journal) is read too.
type File struct {
	path string

	mu      sync.Mutex
	lessons map[string]Lesson
	lineOf  map[string]int64 // the bytes of each live lesson's latest line
	size    int64            // bytes in the journal
	live    int64            // bytes its live lessons' latest lines take
	whole   bool             // the file is one JSON array: the next change rewrites it
}

// NewFile returns a backend storing lessons at path.
func NewFile(path string) *File { return &File{path: path} }

// entry is one line of the journal: a lesson put, or an id deleted.
type entry struct {
	Put    *Lesson `json:"put,omitempty"`
	Delete string  `json:"delete,omitempty"`
}

// Load reads the file; a missing file is an empty memory.
func (f *File) Load(context.Context) ([]Lesson, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lessons, f.lineOf, f.size, f.live, f.whole = map[string]Lesson{}, map[string]int64{}, 0, 0, false
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	f.size = int64(len(data))
	valid, err := f.read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.path, err)
	}
	if valid < int64(len(data)) { // drop the cut line, so that the next change is not appended to it
		if err := os.Truncate(f.path, valid); err != nil {
			return nil, fmt.Errorf("%s: %w", f.path, err)
		}
		f.size = valid
	}
	return f.list(), nil
}

// read replays a journal, or reads a whole-file array; it returns how
// many bytes of data hold whole entries.
func (f *File) read(data []byte) (int64, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		var list []Lesson
		if err := json.Unmarshal(t, &list); err != nil {
			return 0, err
		}
		for _, l := range list {
			f.lessons[l.ID] = l
		}
		f.whole = true
		return int64(len(data)), nil
	}
	var valid int64
	lines := bytes.SplitAfter(data, []byte("\n"))
	for i, line := range lines {
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			if i == len(lines)-1 && !bytes.HasSuffix(line, []byte("\n")) {
				break // the last append, cut short
			}
			if len(bytes.TrimSpace(line)) > 0 {
				return 0, fmt.Errorf("line %d: %w", i+1, err)
			}
		} else {
			f.apply(e, int64(len(line)))
		}
		valid += int64(len(line))
	}
	return valid, nil
}

// apply replays one entry, a line of n bytes.
func (f *File) apply(e entry, n int64) {
	id := e.Delete
	if e.Put != nil {
		id = e.Put.ID
	}
	f.live -= f.lineOf[id]
	delete(f.lineOf, id)
	delete(f.lessons, id)
	if e.Put != nil {
		f.lessons[id], f.lineOf[id] = *e.Put, n
		f.live += n
	}
}

// Put adds or replaces lessons.
func (f *File) Put(_ context.Context, lessons []Lesson) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.init()
	entries := make([]entry, len(lessons))
	for i := range lessons {
		entries[i] = entry{Put: &lessons[i]}
	}
	return f.append(entries)
}

// Delete removes lessons by id.
func (f *File) Delete(_ context.Context, ids []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.init()
	entries := make([]entry, len(ids))
	for i, id := range ids {
		entries[i] = entry{Delete: id}
	}
	return f.append(entries)
}

func (f *File) init() {
	if f.lessons == nil {
		f.lessons, f.lineOf = map[string]Lesson{}, map[string]int64{}
	}
}

// append writes entries to the journal and applies them, or rewrites the
// journal when it has grown to twice its live lessons.
func (f *File) append(entries []entry) error {
	data, lengths, err := encode(entries)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return err
	}
	if f.whole { // never append to an array: rewrite it as a journal
		for i, e := range entries {
			f.apply(e, lengths[i])
		}
		return f.compact()
	}
	if err := appendSynced(f.path, data); err != nil {
		return err
	}
	f.size += int64(len(data))
	for i, e := range entries {
		f.apply(e, lengths[i])
	}
	if f.size > 2*f.live+64<<10 {
		return f.compact()
	}
	return nil
}

// encode writes entries as JSON lines, with each line's length.
func encode(entries []entry) ([]byte, []int64, error) {
	var buf bytes.Buffer
	lengths := make([]int64, len(entries))
	for i, e := range entries {
		line, err := json.Marshal(e)
		if err != nil {
			return nil, nil, err
		}
		buf.Write(append(line, '\n'))
		lengths[i] = int64(len(line) + 1)
	}
	return buf.Bytes(), lengths, nil
}

// appendSynced appends data to the file at path and syncs it.
func appendSynced(path string, data []byte) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	return writeSynced(fh, data)
}

// writeSynced writes data to fh, syncs it to disk and closes it.
func writeSynced(fh *os.File, data []byte) error {
	_, err := fh.Write(data)
	if err == nil {
		err = fh.Sync()
	}
	return errors.Join(err, fh.Close())
}

// compact rewrites the journal with the live lessons only.
func (f *File) compact() error {
	live := f.list()
	entries := make([]entry, len(live))
	for i := range live {
		entries[i] = entry{Put: &live[i]}
	}
	data, lengths, err := encode(entries)
	if err != nil {
		return err
	}
	if err := replaceSynced(f.path, data); err != nil {
		return err
	}
	f.lineOf = make(map[string]int64, len(live))
	for i, l := range live {
		f.lineOf[l.ID] = lengths[i]
	}
	f.size, f.live, f.whole = int64(len(data)), int64(len(data)), false
	return nil
}

// replaceSynced replaces the file at path with data: written to a
// temporary file beside it, synced, then renamed over it.
func replaceSynced(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".reflections-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := writeSynced(tmp, data); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// list returns the live lessons by id.
func (f *File) list() []Lesson {
	list := make([]Lesson, 0, len(f.lessons))
	for _, l := range f.lessons {
		list = append(list, l)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	return list
}
