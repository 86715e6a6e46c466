// Package memory keeps what the agent learnt from its reflection rounds
// (Reflection Engine V2): each round is a Lesson — the failure, what was
// tried, whether it recovered — kept per conference, bounded, decaying with
// age and disuse, and recalled when a similar failure recurs. It stores no
// attendee identity: only the searched text, never who asked.
//
// A Bank is safe for concurrent use; a Backend persists it (a file under
// STATE_DIR, or the Directus collection agent_reflections).
package memory

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/search"
)

// Lesson is one reflection round and what came of it.
type Lesson struct {
	ID         string    `json:"id"`
	Conference string    `json:"conference"`
	At         time.Time `json:"at"`
	// Text is the failing search's text; Terms its content words (stems)
	// with their weight in the conference, for similarity.
	Text  string             `json:"text"`
	Terms map[string]float64 `json:"terms"`
	// Vector is Text embedded by Embedder (the search's embedder), for
	// recall by meaning beside the words; empty when it could not be.
	Vector   Vector `json:"vector,omitempty"`
	Embedder string `json:"embedder,omitempty"`
	// Failure is "empty", "weak" or "unknown_terms"; Tables the tables
	// that failed; Unknown the words the conference does not use.
	Failure string   `json:"failure"`
	Tables  []string `json:"tables"`
	Unknown []string `json:"unknown,omitempty"`
	// Strategy and Queries are what the round tried.
	Strategy string         `json:"strategy"`
	Queries  []search.Query `json:"queries"`
	// Recovered says a table the round searched answered after it (the
	// failing one, or the one a pivot moved to); Healed whether the failing
	// table itself did (nil in lessons kept before it was recorded). Gain
	// is how much their best score rose.
	Recovered bool    `json:"recovered"`
	Healed    *bool   `json:"healed,omitempty"`
	Gain      float64 `json:"gain"`
	// Hit, when known (evaluation), says the answer cited a relevant item.
	Hit        *bool    `json:"hit,omitempty"`
	Importance float64  `json:"importance"`
	Confidence float64  `json:"confidence"`
	Tags       []string `json:"tags"`
	Insight    *Insight `json:"insight,omitempty"`
	// Uses counts recalls that were acted on; Helped those after which the
	// turn's search answered.
	Uses   int `json:"uses"`
	Helped int `json:"helped"`
}

// Insight is the evaluator's view of the turn the lesson comes from.
type Insight struct {
	Strengths           []string `json:"strengths,omitempty"`
	Improvements        []string `json:"improvements,omitempty"`
	DecisionAppropriate *bool    `json:"decision_appropriate,omitempty"`
	Confidence          float64  `json:"confidence"`
}

// Cue is a failure to recall lessons for.
type Cue struct {
	Terms   map[string]float64
	Tables  []string
	Failure string
	// Vector is the cue's text embedded by Embedder; Alike the cosine
	// above which two of the conference's texts are more alike than texts
	// that share no word (search.Meaning). Without them (or Alike 0) only
	// the words count.
	Vector   []float32
	Embedder string
	Alike    float64
}

// Recalled is a lesson with how similar its failure is to the cue (0..1).
type Recalled struct {
	Lesson
	Similarity float64 `json:"similarity"`
}

// Backend persists a bank's lessons.
type Backend interface {
	Load(ctx context.Context) ([]Lesson, error)
	Put(ctx context.Context, lessons []Lesson) error
	Delete(ctx context.Context, ids []string) error
}

// Options tune a Bank. Zero values get the defaults shown.
type Options struct {
	PerConference int           // lessons kept per conference (200)
	HalfLife      time.Duration // age at which a lesson weighs half (30 days)
	Now           func() time.Time
}

// Bank holds the lessons of every conference.
type Bank struct {
	opts    Options
	backend Backend

	mu     sync.RWMutex
	byConf map[string][]*Lesson
}

// Open loads a bank from backend (nil keeps it in memory only).
func Open(ctx context.Context, backend Backend, opts Options) (*Bank, error) {
	if opts.PerConference <= 0 {
		opts.PerConference = 200
	}
	if opts.HalfLife <= 0 {
		opts.HalfLife = 30 * 24 * time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	b := &Bank{opts: opts, backend: backend, byConf: map[string][]*Lesson{}}
	if backend == nil {
		return b, nil
	}
	lessons, err := backend.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("memory: load: %w", err)
	}
	for i := range lessons {
		l := lessons[i]
		b.byConf[l.Conference] = append(b.byConf[l.Conference], &l)
	}
	return b, nil
}

// ErrInvalid marks a lesson that cannot be stored.
var ErrInvalid = errors.New("memory: invalid lesson")

// Remember stores lessons, giving each an id and a time when it has none,
// and drops each conference's least valuable lessons beyond its cap.
func (b *Bank) Remember(ctx context.Context, lessons []Lesson) error {
	if len(lessons) == 0 {
		return nil
	}
	for i := range lessons {
		if lessons[i].Conference == "" || len(lessons[i].Terms) == 0 {
			return fmt.Errorf("%w: lesson %d has no conference or no terms", ErrInvalid, i)
		}
		if lessons[i].ID == "" {
			lessons[i].ID = newID()
		}
		if lessons[i].At.IsZero() {
			lessons[i].At = b.opts.Now()
		}
	}
	b.mu.Lock()
	var evicted []string
	for i := range lessons {
		l := lessons[i]
		b.byConf[l.Conference] = append(b.byConf[l.Conference], &l)
		evicted = append(evicted, b.evict(l.Conference)...)
	}
	b.mu.Unlock()
	return b.persist(ctx, lessons, evicted)
}

func (b *Bank) persist(ctx context.Context, put []Lesson, del []string) error {
	if b.backend == nil {
		return nil
	}
	put = slices.DeleteFunc(put, func(l Lesson) bool { return slices.Contains(del, l.ID) })
	if err := b.backend.Put(ctx, put); err != nil {
		return fmt.Errorf("memory: store: %w", err)
	}
	if len(del) > 0 {
		if err := b.backend.Delete(ctx, del); err != nil {
			return fmt.Errorf("memory: evict: %w", err)
		}
	}
	return nil
}

// evict drops a conference's least valuable lessons beyond the cap and
// returns their ids. b.mu must be held.
func (b *Bank) evict(conf string) []string {
	ls := b.byConf[conf]
	if len(ls) <= b.opts.PerConference {
		return nil
	}
	now := b.opts.Now()
	sort.SliceStable(ls, func(i, j int) bool { return b.value(ls[i], now) > b.value(ls[j], now) })
	var out []string
	for _, l := range ls[b.opts.PerConference:] {
		out = append(out, l.ID)
	}
	b.byConf[conf] = ls[:b.opts.PerConference]
	return out
}

// value is what a lesson is worth keeping and trusting: its importance,
// halved every HalfLife of age, raised by recalls that helped and lowered
// by recalls that did not.
func (b *Bank) value(l *Lesson, now time.Time) float64 {
	age := now.Sub(l.At).Hours() / b.opts.HalfLife.Hours()
	useful := float64(1+l.Helped) / float64(1+l.Uses)
	return l.Importance * math.Pow(0.5, max(age, 0)) * useful
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
