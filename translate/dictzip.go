package translate

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// dictzip reads a dictd dictionary (.dict.dz): gzip with a table of
// independently compressed chunks in its header, so an entry is read by
// inflating only the chunks it spans. It is safe for concurrent use.
type dictzip struct {
	f      *os.File
	chunk  int     // uncompressed size of every chunk but the last
	starts []int64 // where each compressed chunk begins in the file
	sizes  []int   // compressed size of each chunk

	mu    sync.Mutex
	cache map[int][]byte // recently inflated chunks
}

// maxCached bounds the inflated chunks kept (about 58 KB each).
const maxCached = 16

// Gzip header flags (RFC 1952).
const (
	fhcrc    = 1 << 1
	fextra   = 1 << 2
	fname    = 1 << 3
	fcomment = 1 << 4
)

func openDictzip(path string) (*dictzip, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	d, err := readChunkTable(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// readChunkTable reads the gzip header's "RA" field: version, chunk
// length, chunk count and each chunk's compressed size.
func readChunkTable(f *os.File) (*dictzip, error) {
	head := make([]byte, 1<<16+64)
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	head = head[:n]
	if len(head) < 22 || head[0] != 0x1f || head[1] != 0x8b || head[3]&fextra == 0 {
		return nil, errors.New("not a dictzip file")
	}
	xlen := int(binary.LittleEndian.Uint16(head[10:]))
	extra := head[12:min(len(head), 12+xlen)]
	if len(extra) < 10 || extra[0] != 'R' || extra[1] != 'A' {
		return nil, errors.New("no dictzip chunk table")
	}
	d := &dictzip{f: f, chunk: int(binary.LittleEndian.Uint16(extra[6:])), cache: map[int][]byte{}}
	count := int(binary.LittleEndian.Uint16(extra[8:]))
	if len(extra) < 10+2*count || d.chunk == 0 {
		return nil, errors.New("truncated dictzip chunk table")
	}
	pos := 12 + xlen
	for _, flag := range []byte{fname, fcomment} {
		if head[3]&flag != 0 {
			end := bytes.IndexByte(head[pos:], 0)
			if end < 0 {
				return nil, errors.New("truncated gzip header")
			}
			pos += end + 1
		}
	}
	if head[3]&fhcrc != 0 {
		pos += 2
	}
	at := int64(pos)
	for i := range count {
		size := int(binary.LittleEndian.Uint16(extra[10+2*i:]))
		d.starts, d.sizes = append(d.starts, at), append(d.sizes, size)
		at += int64(size)
	}
	return d, nil
}

// read returns size bytes of the uncompressed text from offset.
func (d *dictzip) read(offset, size int) ([]byte, error) {
	var out []byte
	first := offset / d.chunk
	for i := first; len(out) < offset-first*d.chunk+size; i++ {
		if i >= len(d.sizes) {
			return nil, fmt.Errorf("entry at %d+%d is past the dictionary's end", offset, size)
		}
		c, err := d.inflate(i)
		if err != nil {
			return nil, err
		}
		out = append(out, c...)
	}
	from := offset - first*d.chunk
	return out[from : from+size], nil
}

// inflate returns chunk i uncompressed.
func (d *dictzip) inflate(i int) ([]byte, error) {
	d.mu.Lock()
	c, ok := d.cache[i]
	d.mu.Unlock()
	if ok {
		return c, nil
	}
	raw := make([]byte, d.sizes[i])
	if _, err := d.f.ReadAt(raw, d.starts[i]); err != nil {
		return nil, fmt.Errorf("read chunk %d: %w", i, err)
	}
	buf := make([]byte, d.chunk)
	n, err := io.ReadFull(flate.NewReader(bytes.NewReader(raw)), buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("inflate chunk %d: %w", i, err)
	}
	c = buf[:n]
	d.mu.Lock()
	if len(d.cache) >= maxCached {
		clear(d.cache)
	}
	d.cache[i] = c
	d.mu.Unlock()
	return c, nil
}
