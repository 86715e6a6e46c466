package memory

import (
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

// File keeps lessons in one JSON file, rewritten whole (write to a
// temporary file, then rename) on every change, so a crash leaves the old
// file or the new one, never half of one.
type File struct {
	path string

	mu      sync.Mutex
	lessons map[string]Lesson
}

// NewFile returns a backend storing lessons at path.
func NewFile(path string) *File { return &File{path: path} }

// Load reads the file; a missing file is an empty memory.
func (f *File) Load(context.Context) ([]Lesson, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lessons = map[string]Lesson{}
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var list []Lesson
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", f.path, err)
	}
	for _, l := range list {
		f.lessons[l.ID] = l
	}
	return list, nil
}

// Put adds or replaces lessons.
func (f *File) Put(_ context.Context, lessons []Lesson) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.init()
	for _, l := range lessons {
		f.lessons[l.ID] = l
	}
	return f.write()
}

// Delete removes lessons by id.
func (f *File) Delete(_ context.Context, ids []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.init()
	for _, id := range ids {
		delete(f.lessons, id)
	}
	return f.write()
}

func (f *File) init() {
	if f.lessons == nil {
		f.lessons = map[string]Lesson{}
	}
}

func (f *File) write() error {
	list := make([]Lesson, 0, len(f.lessons))
	for _, l := range f.lessons {
		list = append(list, l)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	data, err := json.MarshalIndent(list, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.path), ".reflections-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), f.path)
}
