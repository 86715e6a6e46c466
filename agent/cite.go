package agent

import (
	"regexp"
	"strings"

	"github.com/erleah/erleah-agent/search"
)

// citation matches a citation marker such as "[sessions/s012]".
var citation = regexp.MustCompile(`^\[(sessions|exhibitors|speakers)/([^\]\s/\[]+)\]$`)

// maxMarker bounds how much text the guard holds back while it waits for a
// '[' to close.
const maxMarker = 80

// citeGuard filters streamed answer text. Citation markers of retrieved
// items pass and are recorded; markers of anything else are dropped, so an
// answer never cites an item the turn did not retrieve. Other text passes
// unchanged. What the guard emits, concatenated, is the final answer.
type citeGuard struct {
	allowed  map[string]search.Result
	emit     func(string)
	held     strings.Builder // text from a '[' not yet closed
	text     strings.Builder // everything emitted
	cited    []Citation
	seen     map[string]bool
	dropped  []string
	streamed bool
}

func newCiteGuard(allowed map[string]search.Result, emit func(string)) *citeGuard {
	return &citeGuard{allowed: allowed, emit: emit, seen: map[string]bool{}}
}

// write takes the next piece of model output.
func (g *citeGuard) write(s string) {
	g.streamed = true
	var out strings.Builder
	for _, r := range s {
		switch {
		case g.held.Len() == 0 && r != '[':
			out.WriteRune(r)
		case g.held.Len() == 0:
			g.held.WriteRune(r)
		case r == '[' || r == '\n':
			out.WriteString(g.held.String())
			g.held.Reset()
			if r == '[' {
				g.held.WriteRune(r)
			} else {
				out.WriteRune(r)
			}
		default:
			g.held.WriteRune(r)
			if r == ']' {
				out.WriteString(g.resolve(g.held.String()))
				g.held.Reset()
			} else if g.held.Len() > maxMarker {
				out.WriteString(g.held.String())
				g.held.Reset()
			}
		}
	}
	g.send(out.String())
}

// flush emits text still held back at the end of the answer.
func (g *citeGuard) flush() {
	g.send(g.held.String())
	g.held.Reset()
}

func (g *citeGuard) send(s string) {
	if s == "" {
		return
	}
	g.text.WriteString(s)
	g.emit(s)
}

// resolve decides what a complete bracketed text becomes.
func (g *citeGuard) resolve(marker string) string {
	m := citation.FindStringSubmatch(marker)
	if m == nil {
		return marker // brackets that are not a citation
	}
	key := search.Ref{Table: search.Table(m[1]), ID: m[2]}.Key()
	r, ok := g.allowed[key]
	if !ok {
		g.dropped = append(g.dropped, key)
		return ""
	}
	if !g.seen[key] {
		g.seen[key] = true
		g.cited = append(g.cited, Citation{Collection: r.Table, ID: r.ID, Title: r.Title})
	}
	return marker
}
