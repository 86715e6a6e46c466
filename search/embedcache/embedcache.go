// Package embedcache keeps embeddings on disk so that a restart does not
// embed a conference again. It wraps any search.Embedder; vectors are keyed
// by the embedder's name and the SHA-256 of the text, and appended to one
// file per embedder. A Cache is safe for concurrent use.
package embedcache

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/erleah/erleah-agent/search"
)

const magic = "ERLEAHV1"

type key [sha256.Size]byte

// Cache holds the vectors of one embedder.
type Cache struct {
	name  string
	path  string
	mu    sync.Mutex
	dim   int
	vecs  map[key][]float32
	inner search.Embedder
}

// Open loads the cache of embedder name from dir, creating it if needed.
// A torn last record (a crash mid-write) is dropped.
func Open(dir, name string) (*Cache, error) {
	c := &Cache{name: name, path: filepath.Join(dir, fileName(name)), vecs: map[key][]float32{}}
	f, err := os.Open(c.path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("embedcache: open %s: %w", c.path, err)
	}
	defer f.Close()
	if err := c.load(bufio.NewReader(f)); err != nil {
		return nil, fmt.Errorf("embedcache: %s: %w", c.path, err)
	}
	return c, nil
}

func fileName(name string) string {
	r := strings.NewReplacer(":", "_", "/", "_", "\\", "_", " ", "_")
	return r.Replace(name) + ".vec"
}

func (c *Cache) load(r io.Reader) error {
	head := make([]byte, len(magic)+4)
	if _, err := io.ReadFull(r, head); err != nil {
		return fmt.Errorf("not a cache file: %w", err)
	}
	if string(head[:len(magic)]) != magic {
		return errors.New("not a cache file")
	}
	c.dim = int(binary.LittleEndian.Uint32(head[len(magic):]))
	rec := make([]byte, sha256.Size+4*c.dim)
	for {
		if _, err := io.ReadFull(r, rec); err != nil {
			return nil // end of file, or a torn record to ignore
		}
		var k key
		copy(k[:], rec)
		c.vecs[k] = search.Floats(rec[sha256.Size:])
	}
}

// Dim is the dimension of the stored vectors, zero when none is stored.
func (c *Cache) Dim() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dim
}

// Wrap returns an embedder that answers from the cache and embeds only
// what it lacks with inner, whose name must be the cache's.
func (c *Cache) Wrap(inner search.Embedder) (search.Embedder, error) {
	if inner.Name() != c.name {
		return nil, fmt.Errorf("embedcache: cache of %s cannot wrap %s", c.name, inner.Name())
	}
	if d := c.Dim(); d != 0 && d != inner.Dim() {
		return nil, fmt.Errorf("embedcache: cache holds %d dimensions, %s gives %d: %w", d, c.name, inner.Dim(), search.ErrDimension)
	}
	c.inner = inner
	return cached{c}, nil
}

type cached struct{ c *Cache }

func (e cached) Name() string                    { return e.c.inner.Name() }
func (e cached) Dim() int                        { return e.c.inner.Dim() }
func (e cached) Calibration() search.Calibration { return e.c.inner.Calibration() }

// Embed answers stored texts from memory and embeds the others in one call.
func (e cached) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c := e.c
	out := make([][]float32, len(texts))
	keys := make([]key, len(texts))
	var missing []string
	seen := map[key]bool{}
	c.mu.Lock()
	for i, t := range texts {
		keys[i] = sha256.Sum256([]byte(c.name + "\x00" + t))
		if v, ok := c.vecs[keys[i]]; ok {
			out[i] = v
		} else if !seen[keys[i]] {
			seen[keys[i]] = true
			missing = append(missing, t)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	vecs, err := c.inner.Embed(ctx, missing)
	if err != nil {
		return nil, err
	}
	if err := c.store(missing, vecs); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range texts {
		if out[i] == nil {
			out[i] = c.vecs[keys[i]]
		}
	}
	return out, nil
}

// store appends new vectors to the file and the map.
func (c *Cache) store(texts []string, vecs [][]float32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dim == 0 && len(vecs) > 0 {
		c.dim = len(vecs[0])
	}
	var buf []byte
	if _, err := os.Stat(c.path); errors.Is(err, os.ErrNotExist) {
		buf = binary.LittleEndian.AppendUint32([]byte(magic), uint32(c.dim))
	}
	for i, t := range texts {
		if len(vecs[i]) != c.dim {
			return fmt.Errorf("embedcache: vector of %d dimensions, want %d: %w", len(vecs[i]), c.dim, search.ErrDimension)
		}
		k := sha256.Sum256([]byte(c.name + "\x00" + t))
		c.vecs[k] = vecs[i]
		buf = search.AppendFloats(append(buf, k[:]...), vecs[i])
	}
	return c.appendFile(buf)
}

func (c *Cache) appendFile(buf []byte) error {
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return fmt.Errorf("embedcache: %w", err)
	}
	f, err := os.OpenFile(c.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("embedcache: %w", err)
	}
	if _, err := f.Write(buf); err != nil {
		f.Close()
		return fmt.Errorf("embedcache: write %s: %w", c.path, err)
	}
	return f.Close()
}
