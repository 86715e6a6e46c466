// Package registry is a small versioned key-value store persisted to one
// JSON file: the runtime registries of prompts and models use it so that an
// operator's change takes effect on the next turn, survives a restart and can
// be traced (every value has a version; earlier versions are kept).
//
// A Store is safe for concurrent use. Writes go to a temporary file that
// replaces the old one, so a crash never leaves a half-written file.
package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// MaxHistory is how many earlier versions of each key are kept.
const MaxHistory = 20

// Entry is one value with its version. Version 1 is the default; every Set
// or Reset adds one.
type Entry[V any] struct {
	Key       string    `json:"key"`
	Value     V         `json:"value"`
	Version   int       `json:"version"`
	UpdatedAt time.Time `json:"updated_at"`
	Default   bool      `json:"is_default"`
}

// ErrUnknownKey is returned for a key the store has no default for.
var ErrUnknownKey = errors.New("unknown key")

// Store holds the current value of a fixed set of keys.
type Store[V comparable] struct {
	mu       sync.RWMutex
	path     string
	defaults map[string]V
	validate func(key string, v V) error
	current  map[string]Entry[V]
	history  map[string][]Entry[V]
}

type file[V any] struct {
	Current map[string]Entry[V]   `json:"current"`
	History map[string][]Entry[V] `json:"history"`
}

// Open returns a store of the keys of defaults, loading what path holds
// (path "" keeps everything in memory). A stored change wins over its
// default; a stored entry that was the default follows today's default. A
// stored value that validate rejects (the rules changed since) is replaced
// by its default and reported in the returned warnings.
func Open[V comparable](path string, defaults map[string]V, validate func(string, V) error) (*Store[V], []string, error) {
	s := &Store[V]{path: path, defaults: defaults, validate: validate,
		current: map[string]Entry[V]{}, history: map[string][]Entry[V]{}}
	for k, v := range defaults {
		s.current[k] = Entry[V]{Key: k, Value: v, Version: 1, Default: true}
	}
	if path == "" {
		return s, nil, nil
	}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return s, nil, nil
	case err != nil:
		return nil, nil, fmt.Errorf("registry: read %s: %w", path, err)
	}
	var f file[V]
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, nil, fmt.Errorf("registry: %s is not a registry file: %w", path, err)
	}
	return s, s.load(f), nil
}

func (s *Store[V]) load(f file[V]) []string {
	var warnings []string
	for k, e := range f.Current {
		def, ok := s.defaults[k]
		if !ok {
			warnings = append(warnings, fmt.Sprintf("%s: no longer known, ignored", k))
			continue
		}
		if e.Default {
			e.Value = def // stored as "the default": follow the default of today
		} else if err := s.validate(k, e.Value); err != nil {
			warnings = append(warnings, fmt.Sprintf("%s version %d rejected (%v), default used", k, e.Version, err))
			e = Entry[V]{Key: k, Value: def, Version: e.Version + 1, UpdatedAt: time.Now()}
		}
		e.Key, e.Default = k, e.Value == def
		s.current[k] = e
		s.history[k] = f.History[k]
	}
	slices.Sort(warnings)
	return warnings
}

// Get returns the current entry of key.
func (s *Store[V]) Get(key string) (Entry[V], error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e, ok := s.current[key]
	if !ok {
		return e, fmt.Errorf("registry: %w %q", ErrUnknownKey, key)
	}
	return e, nil
}

// List returns every current entry, sorted by key.
func (s *Store[V]) List() []Entry[V] {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Entry[V], 0, len(s.current))
	for _, e := range s.current {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry[V]) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	return out
}

// History returns the earlier versions of key, oldest first.
func (s *Store[V]) History(key string) []Entry[V] {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.history[key])
}

// Set validates v and makes it the current value of key, persisted before
// Set returns. On any error nothing changes.
func (s *Store[V]) Set(key string, v V) (Entry[V], error) {
	if _, ok := s.defaults[key]; !ok {
		return Entry[V]{}, fmt.Errorf("registry: %w %q", ErrUnknownKey, key)
	}
	if err := s.validate(key, v); err != nil {
		return Entry[V]{}, fmt.Errorf("registry: %s: %w", key, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.current[key]
	e := Entry[V]{Key: key, Value: v, Version: old.Version + 1, UpdatedAt: time.Now(), Default: v == s.defaults[key]}
	hist := append(slices.Clone(s.history[key]), old)
	if len(hist) > MaxHistory {
		hist = hist[len(hist)-MaxHistory:]
	}
	if err := s.persist(key, e, hist); err != nil {
		return Entry[V]{}, err
	}
	s.current[key], s.history[key] = e, hist
	return e, nil
}

// Reset sets key back to its default, as a new version.
func (s *Store[V]) Reset(key string) (Entry[V], error) {
	def, ok := s.defaults[key]
	if !ok {
		return Entry[V]{}, fmt.Errorf("registry: %w %q", ErrUnknownKey, key)
	}
	return s.Set(key, def)
}

// persist writes the store as it will be after the change, atomically.
func (s *Store[V]) persist(key string, e Entry[V], hist []Entry[V]) error {
	if s.path == "" {
		return nil
	}
	f := file[V]{Current: map[string]Entry[V]{}, History: map[string][]Entry[V]{}}
	for k, v := range s.current {
		f.Current[k] = v
		f.History[k] = s.history[k]
	}
	f.Current[key], f.History[key] = e, hist
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("registry: encode: %w", err)
	}
	return writeAtomic(s.path, data)
}

func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("registry: create directory: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".registry-*")
	if err != nil {
		return fmt.Errorf("registry: write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("registry: write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("registry: sync %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("registry: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("registry: replace %s: %w", path, err)
	}
	return nil
}
