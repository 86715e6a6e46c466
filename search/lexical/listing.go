package lexical

import (
	"regexp"
	"strings"
)

// What a question asking for a whole part of the programme asks for:
// "who's exhibiting?", "list the speakers", "what tracks are there?".
const (
	ListExhibitors = "exhibitors"
	ListSpeakers   = "speakers"
	ListTracks     = "tracks"
	ListRooms      = "rooms"
	// ListHighlights asks what not to miss: "what are the must-see sessions?".
	ListHighlights = "highlights"
)

// listed are the words naming each part of the programme a question may ask
// for whole, most specific first: "who is speaking" asks for speakers, "what
// stages are there" for rooms.
var listed = []struct {
	kind string
	re   *regexp.Regexp
}{
	{ListHighlights, regexp.MustCompile(`\b(?:must[\s-](?:see|attend)|highlights?|unmissable|(?:not|never)\s+to\s+(?:be\s+)?miss(?:ed)?|(?:should(?:n't)?|shouldnt|must|can't|cannot)\s+(?:i\s+|we\s+)?(?:not\s+)?miss|(?:best|top)\s+(?:sessions|talks))\b`)},
	{ListExhibitors, regexp.MustCompile(`\b(?:exhibitors?|exhibiting|sponsors?|vendors?|booths|stands|(?:companies|firms|brands|organi[sz]ations)\s+(?:are\s+)?(?:exhibiting|here|(?:have|has|with)\s+(?:a\s+)?(?:booth|stand)s?))\b`)},
	{ListSpeakers, regexp.MustCompile(`\b(?:speakers|presenters|panell?ists|who(?:'|’)?s\s+(?:speaking|presenting)|who\s+(?:is|are)\s+(?:speaking|presenting))\b`)},
	{ListTracks, regexp.MustCompile(`\btracks\b`)},
	{ListRooms, regexp.MustCompile(`\b(?:rooms|halls|stages)\b`)},
}

// listAsking is how such a question asks, which searches for nothing.
var listAsking = regexp.MustCompile(`\b(?:list|show|see|give|sessions|talks|i|we|things|ones|what|which|are|is|the|should|go|to|names?|full|complete|whole|entire|all|every|overview|line-?up|here|attending|there|this\s+year|this\s+time|(?:being\s+)?used|in\s+use)\b`)

// Listing reports which part of the programme a message asks for whole
// (ListExhibitors…, "" for none), and the words of the message that are not
// part of that asking: the caller decides whether they ask for something
// more ("list the exhibitors that sell coffee machines" leaves "sell coffee
// machines").
func Listing(message string) (kind, rest string) {
	text := strings.ToLower(message)
	for _, l := range listed {
		if l.re.MatchString(text) {
			rest := l.re.ReplaceAllString(text, " ")
			return l.kind, strings.Join(strings.Fields(listAsking.ReplaceAllString(rest, " ")), " ")
		}
	}
	return "", message
}
