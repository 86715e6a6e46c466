package agent

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/erleah/erleah-agent/search"
)

// citation matches what a citation marker holds once its brackets are
// removed, loosely: "sessions/s012", " Exhibitors / x ". Near misses are
// read as citations so that an invented one cannot slip through in another
// spelling.
var citation = regexp.MustCompile(`(?i)^\s*(sessions|exhibitors|speakers)\s*/\s*([^\s/\[\]［］【】]+)\s*$`)

// link matches a URL in answer text, with the parentheses of a Markdown
// link around it when there are.
var link = regexp.MustCompile(`(?i)\(?(?:https?://|www\.)[^\s<>()\[\]{}"'` + "`" + `]+\)?`)

// maxMarker bounds how much text the guard holds back while it waits for a
// bracket to close.
const maxMarker = 80

// citeGuard filters streamed answer text, which a model writes from texts
// third parties wrote (exhibitors, speakers) and so can be steered by them.
// Citation markers, however spelt ("[ exhibitors/x ]", "［sessions/s1］"),
// are rewritten as "[table/id]" when they name a retrieved item and dropped
// otherwise, so an answer never cites an item the turn did not retrieve.
// URLs pass only when they are a retrieved item's website (or under it);
// others are removed. Other text passes unchanged. What the guard emits,
// concatenated, is the final answer.
type citeGuard struct {
	allowed  map[string]search.Result
	sites    []string // normalised websites of the retrieved items
	emit     func(string)
	held     strings.Builder // text from an opening bracket not yet closed
	word     strings.Builder // text after the last space, not yet checked for links
	text     strings.Builder // everything emitted
	cited    []Citation
	seen     map[string]bool
	dropped  []string
	removed  []string // URLs taken out
	streamed bool
}

func newCiteGuard(allowed map[string]search.Result, emit func(string)) *citeGuard {
	g := &citeGuard{allowed: allowed, emit: emit, seen: map[string]bool{}}
	for _, r := range allowed {
		if r.Website != "" {
			g.sites = append(g.sites, siteKey(r.Website))
		}
	}
	return g
}

func opens(r rune) bool  { return r == '[' || r == '［' || r == '【' }
func closes(r rune) bool { return r == ']' || r == '］' || r == '】' }

// write takes the next piece of model output.
func (g *citeGuard) write(s string) {
	g.streamed = true
	var out strings.Builder
	for _, r := range s {
		switch {
		case g.held.Len() == 0 && !opens(r):
			out.WriteRune(r)
		case g.held.Len() == 0:
			g.held.WriteRune(r)
		case opens(r) || r == '\n':
			out.WriteString(g.held.String())
			g.held.Reset()
			if opens(r) {
				g.held.WriteRune(r)
			} else {
				out.WriteRune(r)
			}
		default:
			g.held.WriteRune(r)
			if closes(r) {
				out.WriteString(g.resolve(g.held.String()))
				g.held.Reset()
			} else if g.held.Len() > maxMarker {
				out.WriteString(g.held.String())
				g.held.Reset()
			}
		}
	}
	g.words(out.String(), false)
}

// flush emits text still held back at the end of the answer.
func (g *citeGuard) flush() {
	held := g.held.String()
	g.held.Reset()
	g.words(held, true)
}

// words passes text on in whole words, so that a link split across pieces
// is checked whole; at the end everything goes.
func (g *citeGuard) words(s string, end bool) {
	g.word.WriteString(s)
	pending := g.word.String()
	cut := len(pending)
	if !end {
		cut = strings.LastIndexFunc(pending, unicode.IsSpace) + 1
	}
	g.word.Reset()
	g.word.WriteString(pending[cut:])
	g.send(g.links(pending[:cut]))
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
	inner := []rune(marker)
	m := citation.FindStringSubmatch(string(inner[1 : len(inner)-1]))
	if m == nil {
		return marker // brackets that are not a citation
	}
	r, ok := g.lookup(search.Table(strings.ToLower(m[1])), m[2])
	if !ok {
		g.dropped = append(g.dropped, strings.ToLower(m[1])+"/"+m[2])
		return ""
	}
	if !g.seen[r.Key()] {
		g.seen[r.Key()] = true
		g.cited = append(g.cited, Citation{Collection: r.Table, ID: r.ID, Title: r.Title})
	}
	return "[" + r.Key() + "]"
}

// lookup finds a retrieved item by table and id, the id exactly or, failing
// that, in another case.
func (g *citeGuard) lookup(tb search.Table, id string) (search.Result, bool) {
	if r, ok := g.allowed[search.Ref{Table: tb, ID: id}.Key()]; ok {
		return r, true
	}
	for _, r := range g.allowed {
		if r.Table == tb && strings.EqualFold(r.ID, id) {
			return r, true
		}
	}
	return search.Result{}, false
}

// links removes from s every URL that is not a retrieved item's website,
// with the parentheses of a Markdown link around it.
func (g *citeGuard) links(s string) string {
	return link.ReplaceAllStringFunc(s, func(m string) string {
		u, keep := trimLink(m)
		if g.allowedSite(u) {
			return m
		}
		g.removed = append(g.removed, u)
		return keep
	})
}

// trimLink returns the URL of a match, without parentheses and trailing
// punctuation, and what of the match stays when the URL goes: the
// punctuation, and a parenthesis that does not wrap the URL alone.
func trimLink(m string) (url, keep string) {
	open, close := strings.HasPrefix(m, "("), strings.HasSuffix(m, ")")
	u := strings.TrimSuffix(strings.TrimPrefix(m, "("), ")")
	trimmed := strings.TrimRight(u, ".,;:!?")
	keep = u[len(trimmed):]
	if open != close { // "(see https://x)" matched as "https://x)": the parenthesis is the text's
		if open {
			keep = "(" + keep
		} else {
			keep += ")"
		}
	}
	return trimmed, keep
}

func (g *citeGuard) allowedSite(u string) bool {
	k := siteKey(u)
	for _, s := range g.sites {
		if k == s || strings.HasPrefix(k, s+"/") {
			return true
		}
	}
	return false
}

// siteKey normalises a URL for comparison: no scheme, no "www.", lower
// case, no trailing slash.
func siteKey(u string) string {
	u = strings.ToLower(strings.TrimSpace(u))
	for _, p := range []string{"https://", "http://", "www."} {
		u = strings.TrimPrefix(u, p)
	}
	return strings.TrimRight(u, "/")
}
