package memory_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/memory"
)

func idLesson(id, text string) memory.Lesson {
	l := lesson("c1", text, map[string]float64{text: 1}, 1)
	l.ID = id
	return l
}

func texts(t *testing.T, f *memory.File) map[string]string {
	t.Helper()
	ls, err := f.Load(context.Background())
	require.NoError(t, err)
	out := map[string]string{}
	for _, l := range ls {
		out[l.ID] = l.Text
	}
	return out
}

// A change appends to the file; what was written before stays as it was.
func TestTheFileIsAJournalThatChangesAppendTo(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflections.json")
	f := memory.NewFile(path)
	require.NoError(t, f.Put(ctx, []memory.Lesson{idLesson("a", "alpha"), idLesson("b", "beta")}))
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, f.Put(ctx, []memory.Lesson{idLesson("c", "gamma")}))
	require.NoError(t, f.Delete(ctx, []string{"a"}))
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(after, before), "the file was rewritten, not appended to")
	assert.Equal(t, map[string]string{"b": "beta", "c": "gamma"}, texts(t, memory.NewFile(path)))
}

// Lessons rewritten again and again (their uses counted) do not grow the
// file without bound: it is compacted to what is live.
func TestTheJournalIsCompacted(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflections.json")
	f := memory.NewFile(path)
	var ls []memory.Lesson
	for i := range 20 {
		ls = append(ls, idLesson(fmt.Sprint(i), fmt.Sprint("lesson ", i)))
	}
	require.NoError(t, f.Put(ctx, ls))
	one, err := os.Stat(path)
	require.NoError(t, err)
	for i := range 2000 {
		l := ls[i%len(ls)]
		l.Uses = i
		require.NoError(t, f.Put(ctx, []memory.Lesson{l}))
	}
	now, err := os.Stat(path)
	require.NoError(t, err)
	assert.Less(t, now.Size(), 3*one.Size()+64<<10, "2,000 updates of 20 lessons grew the file to %d bytes (20 lessons: %d)", now.Size(), one.Size())
	got, err := memory.NewFile(path).Load(ctx)
	require.NoError(t, err)
	require.Len(t, got, 20)
	for _, l := range got {
		assert.GreaterOrEqual(t, l.Uses, 1980, "lesson %s lost its latest update", l.ID)
	}
}

// A crash in the middle of an append leaves a cut last line: it is left
// out and the rest is read. A damaged line elsewhere is an error that
// names it.
func TestACutLastLineIsIgnoredAndADamagedOneReported(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflections.json")
	f := memory.NewFile(path)
	require.NoError(t, f.Put(ctx, []memory.Lesson{idLesson("a", "alpha")}))
	require.NoError(t, f.Put(ctx, []memory.Lesson{idLesson("b", "beta")}))
	whole, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, whole[:len(whole)-10], 0o644))
	again := memory.NewFile(path)
	assert.Equal(t, map[string]string{"a": "alpha"}, texts(t, again), "after a cut last line")
	require.NoError(t, again.Put(ctx, []memory.Lesson{idLesson("c", "gamma")}))
	assert.Equal(t, map[string]string{"a": "alpha", "c": "gamma"}, texts(t, memory.NewFile(path)), "a change after a cut last line")

	damaged := append([]byte("{not json\n"), whole...)
	require.NoError(t, os.WriteFile(path, damaged, 0o644))
	_, err = memory.NewFile(path).Load(ctx)
	require.ErrorContains(t, err, "line 1")
}

// A memory written whole as one JSON array, as before the journal, is
// read, and the first change rewrites it as a journal.
func TestAWholeFileArrayIsReadAndRewrittenAsAJournal(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflections.json")
	require.NoError(t, os.WriteFile(path, []byte(`[{"id":"a","conference":"c1","text":"alpha"},{"id":"b","conference":"c1","text":"beta"}]`), 0o644))
	f := memory.NewFile(path)
	assert.Equal(t, map[string]string{"a": "alpha", "b": "beta"}, texts(t, f))
	require.NoError(t, f.Delete(ctx, []string{"a"}))
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(raw, []byte(`{"put":`)), "not rewritten as a journal: %s", raw)
	assert.Equal(t, map[string]string{"b": "beta"}, texts(t, memory.NewFile(path)))
}
