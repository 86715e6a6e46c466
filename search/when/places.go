package when

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/erleah/erleah-agent/search/terms"
)

// roomKey is a word sequence that names one or more rooms.
type roomKey struct {
	words []string
	rooms []string
	cue   bool // counts only after a cue ("in the lab")
}

// roomCues are the words that announce a room.
var roomCues = []string{"in", "at", "inside", "room", "hall"}

// plainWords are room words that are also ordinary words, or formats and
// times: alone they name a room only after a cue.
var plainWords = []string{
	"lab", "labs", "studio", "exhibition", "hall", "room", "stage", "main", "foyer", "lounge",
	"theatre", "theater", "auditorium", "library", "garden", "terrace", "lobby", "cafe",
	"kitchen", "classroom", "arena", "forum", "gallery", "atrium", "plaza", "park", "ballroom",
	"salon", "pavilion", "space", "hub", "area", "zone", "center", "centre", "office", "deck",
	"dome", "tent", "booth", "corner", "conference", "meeting", "community", "expo", "lecture",
	"seminar", "track", "floor", "level", "north", "south", "east", "west", "upper", "lower",
	"ground", "big", "small", "grand", "great", "open", "online", "virtual", "workshop",
	"workshops", "keynote", "panel", "talk", "talks", "session", "sessions", "morning",
	"afternoon", "evening", "lunch", "next", "now", "today", "tomorrow", "the", "any",
}

// roomKeys lists, longest first, the word sequences that name the rooms: each
// full name; its head, before any "(", "-", "," or ":" ("Einstein" of
// "Einstein (Floor 2)"); and the head's first word, when no other room's head
// starts with it, the words after it are no designators ("Exhibition" of
// "Exhibition Hall", but not "Lab" of "Lab 2") and the programme's entries
// do not use it for their topics ("quay" of "Quay Lab" at a port
// conference); and a head of two words or more without the designator
// that ends it, when no other room has those words ("Wet Lab" of "Wet
// Lab 1").
func roomKeys(rooms []string, uses func(string) int) []roomKey {
	heads := make([][]string, len(rooms))
	for i, r := range rooms {
		heads[i] = wordsOf(headOf(r))
	}
	var keys []roomKey
	add := func(written []string, room string) { // as written and as typed without accents ("Tōtara" → totara)
		if len(written) == 0 {
			return
		}
		for _, words := range [][]string{written, wordsOf(terms.Unaccented(strings.Join(written, " ")))} {
			cue := len(words) == 1 && plainWord(words[0])
			i := slices.IndexFunc(keys, func(k roomKey) bool { return slices.Equal(k.words, words) })
			if i < 0 {
				keys = append(keys, roomKey{words: words, cue: cue})
				i = len(keys) - 1
			}
			keys[i].rooms = addOnce(keys[i].rooms, room)
			keys[i].cue = keys[i].cue && cue
		}
	}
	for i, r := range rooms {
		add(wordsOf(r), r)
		add(heads[i], r)
		if len(heads[i]) > 1 && firstWordUnique(heads, i) && !slices.ContainsFunc(heads[i][1:], designator) && (uses == nil || uses(heads[i][0]) < 2) {
			add(heads[i][:1], r)
		}
		if n := len(heads[i]); n > 2 && designator(heads[i][n-1]) && onlyIn(heads, i, heads[i][:n-1]) {
			add(heads[i][:n-1], r) // "the wet lab" of "Wet Lab 1", the only one
		}
		for _, alias := range roomAliases(heads, i) {
			add(alias, r)
		}
		if q := qualifier(r); len(q) > 1 && !slices.ContainsFunc(q, designator) && !slices.ContainsFunc(rooms, func(o string) bool { return o != r && containsSeq(wordsOf(o), q) }) {
			add(q, r) // "Main Stage" of "Grand Ballroom (Main Stage)", but not "Floor 2"
		}
		for j := 1; j < len(heads[i]); j++ { // "Studio A" of "Workshop Studio A"
			if tail := heads[i][j:]; roomTail(tail) && onlyIn(heads, i, tail) {
				add(tail, r)
			}
		}
	}
	slices.SortStableFunc(keys, func(a, b roomKey) int { return len(b.words) - len(a.words) })
	return keys
}

// roomNouns are the words rooms of any kind are called by.
var roomNouns = []string{"hall", "stage", "room", "theatre", "theater", "auditorium"}

// roomAliases are the other names of a room called by its word and a room
// noun ("main stage" or "main room" for "Main Hall"), when no other room
// called by a room noun has that word ("Main Foyer" may).
func roomAliases(heads [][]string, i int) [][]string {
	h := heads[i]
	if len(h) != 2 || !slices.Contains(roomNouns, h[1]) || designator(h[0]) {
		return nil
	}
	for j, o := range heads {
		if j != i && slices.Contains(o, h[0]) && slices.ContainsFunc(o, func(w string) bool { return slices.Contains(roomNouns, w) }) {
			return nil
		}
	}
	var out [][]string
	for _, n := range roomNouns {
		if n != h[1] && onlyIn(heads, i, []string{n}) {
			out = append(out, []string{h[0], n})
		}
	}
	return out
}

// qualifier is what a room's name says of it in parentheses: "Main Stage"
// of "Grand Ballroom (Main Stage)".
func qualifier(name string) []string {
	from, to := strings.IndexByte(name, '('), strings.LastIndexByte(name, ')')
	if from < 0 || to < from {
		return nil
	}
	return wordsOf(name[from+1 : to])
}

// headOf cuts a room name before its qualifier: "Einstein (Floor 2)" →
// "Einstein".
func headOf(name string) string {
	if i := strings.IndexAny(name, "(,:|/–—"); i > 0 {
		name = name[:i]
	}
	if i := strings.Index(name, " - "); i > 0 {
		name = name[:i]
	}
	return name
}

// roomTail reports whether the end of a room's name can name it: a word
// and the designator that ends it ("studio a"), or one of the words rooms
// are called by (plainWords), which then needs a cue ("in the ballroom");
// never other words ("a day" or "day" of "Scientist for a Day").
func roomTail(tail []string) bool {
	if len(tail) == 1 {
		return slices.Contains(plainWords, tail[0])
	}
	return len(tail) == 2 && designator(tail[1]) && !designator(tail[0])
}

// onlyIn reports whether no room head but heads[i] holds the words seq.
func onlyIn(heads [][]string, i int, seq []string) bool {
	for j, h := range heads {
		if j != i && containsSeq(h, seq) {
			return false
		}
	}
	return true
}

func containsSeq(h, seq []string) bool {
	for k := 0; k+len(seq) <= len(h); k++ {
		if slices.Equal(h[k:k+len(seq)], seq) {
			return true
		}
	}
	return false
}

func firstWordUnique(heads [][]string, i int) bool {
	for j, h := range heads {
		if j != i && len(h) > 0 && h[0] == heads[i][0] {
			return false
		}
	}
	return true
}

// plainWord reports whether a one-word room key is too ordinary to name a
// room without a cue: a plain word or a designator.
func plainWord(w string) bool { return designator(w) || slices.Contains(plainWords, w) }

// designator reports whether a word only tells rooms of a kind apart: a
// number or one or two characters, as in "Hall 1", "Room B".
func designator(w string) bool { return len(w) <= 2 || strings.Trim(w, "0123456789") == "" }

// matchRooms consumes the rooms the message names, with their cues ("in
// Einstein", "room b", "at hall 1"), and returns them.
func matchRooms(s *scan, rooms []string, uses func(string) int) []string {
	var got []string
	for _, k := range roomKeys(rooms, uses) {
		ws := s.words()
		for i := 0; i < len(ws); i++ {
			if !s.seqAt(ws, i, k.words) {
				continue
			}
			start, cued := s.cueStart(ws, i, roomCues...)
			if k.cue && !cued {
				continue
			}
			s.consume(start, s.roomEnd(ws, i+len(k.words)-1, start))
			got = addOnce(got, k.rooms...)
			i += len(k.words) - 1
		}
	}
	return got
}

// roomEnd extends a room match ending at word last over a closing
// parenthesis it opened and a trailing "room".
func (s *scan) roomEnd(ws []word, last, start int) int {
	end := ws[last].b
	if end < len(s.text) && s.text[end] == ')' && strings.Contains(string(s.text[start:end]), "(") {
		end++
	}
	if last+1 < len(ws) && ws[last+1].s == "room" && s.joined(ws, last) {
		end = ws[last+1].b
	}
	return end
}

// trackStop are the words of a track name that do not distinguish it.
var trackStop = []string{"and", "or", "the", "of", "for", "in", "on", "a", "an", "to", "with"}

// trackGeneric are words of a track name that name no track alone: "day"
// of "MySQL Day" is not what "the postgres day track" names.
var trackGeneric = []string{"day", "days"}

// trackCues are the words before a track reference that go with it.
var trackCues = []string{"in", "on", "from", "of", "for", "at"}

// matchTracks consumes the tracks the message names: next to the word
// "track" ("the devops track", "track: DevOps", "the security and privacy
// tracks"), or in full inside quotes. Topic words alone are no track.
func matchTracks(s *scan, tracks []string) []string {
	if len(tracks) == 0 {
		return nil
	}
	names := make([][]string, len(tracks))
	for i, t := range tracks {
		names[i] = wordsOf(t)
	}
	var got []string
	ws := s.words()
	for i, w := range ws {
		if (w.s == "track" || w.s == "tracks") && s.text[w.a] != mask {
			got = addOnce(got, trackAt(s, ws, i, names, tracks)...)
		}
	}
	for i, t := range tracks {
		if len(names[i]) == 0 {
			continue
		}
		s.each(quotedPattern(string(fold(t))), func(match) bool {
			got = addOnce(got, t)
			return true
		})
	}
	return got
}

// trackAt reads the track names just before (or else just after) the word
// "track" at ws[i], consuming them with it.
func trackAt(s *scan, ws []word, i int, names [][]string, tracks []string) []string {
	for n := min(8, i); n >= 1; n-- {
		if got, ok := trackRefs(wordRun(s, ws, i-n, i+1), names, tracks); ok {
			start, _ := s.cueStart(ws, i-n, trackCues...)
			s.consume(start, ws[i].b)
			return got
		}
	}
	for n := min(8, len(ws)-i-1); n >= 1; n-- {
		if got, ok := trackRefs(wordRun(s, ws, i+1, i+n+1), names, tracks); ok {
			start, _ := s.cueStart(ws, i, trackCues...)
			s.consume(start, ws[i+n].b)
			return got
		}
	}
	return nil
}

// wordRun returns the words ws[a:b] but the one that is "track" itself,
// or nil when they are not neighbours.
func wordRun(s *scan, ws []word, a, b int) []string {
	var out []string
	for k := a; k < b; k++ {
		if (k > a && !s.joined(ws, k-1)) || s.text[ws[k].a] == mask {
			return nil
		}
		if ws[k].s != "track" && ws[k].s != "tracks" {
			out = append(out, ws[k].s)
		}
	}
	return out
}

// trackRefs reads words as a list of track references joined by "and" or
// "or": each a full track name or distinctive words of one or more tracks.
func trackRefs(seq []string, names [][]string, tracks []string) ([]string, bool) {
	var got []string
	for p := 0; p < len(seq); {
		if seq[p] == "and" || seq[p] == "or" {
			if p == 0 || p == len(seq)-1 {
				return nil, false
			}
			p++
			continue
		}
		n, refs := trackRef(seq[p:], names, tracks)
		if n == 0 {
			return nil, false
		}
		got, p = addOnce(got, refs...), p+n
	}
	return got, len(got) > 0
}

// trackRef reads one track reference at the start of seq: the longest full
// name there, or else the longest run of words that all belong to the same
// tracks. It returns the words used and the tracks named.
func trackRef(seq []string, names [][]string, tracks []string) (int, []string) {
	best, ref := 0, []string(nil)
	for i, name := range names {
		if len(name) > best && len(name) <= len(seq) && slices.Equal(seq[:len(name)], name) {
			best, ref = len(name), []string{tracks[i]}
		}
	}
	if best > 0 {
		return best, ref
	}
	for n := 1; n <= len(seq) && !slices.Contains(trackStop, seq[n-1]); n++ {
		var hits []string
		for i, name := range names {
			if containsAll(name, seq[:n]) {
				hits = append(hits, tracks[i])
			}
		}
		if len(hits) == 0 {
			break
		}
		best, ref = n, hits
	}
	if !slices.ContainsFunc(seq[:best], func(w string) bool { return !slices.Contains(trackGeneric, w) }) {
		return 0, nil
	}
	return best, ref
}

func containsAll(set, words []string) bool {
	for _, w := range words {
		if !slices.Contains(set, w) {
			return false
		}
	}
	return true
}

// quoted caches quotedPattern's expressions, one per track name seen:
// compiling them for every question cost a tenth of an offline turn.
var quoted sync.Map // string → *regexp.Regexp

// quotedPattern matches name between quotes ("the “Open Data” track").
func quotedPattern(name string) *regexp.Regexp {
	if re, ok := quoted.Load(name); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(`["“”'‘’]\s*` + regexp.QuoteMeta(name) + `\s*["“”'‘’]`)
	quoted.Store(name, re)
	return re
}
