package lexical

import (
	"regexp"
	"strings"

	"github.com/erleah/erleah-agent/search/terms"
)

// When a question only says who the attendee is, the field they name is
// what to look for: "I'm a FHIR developer", "I work on ransomware
// response", "my job is claims integration" ask, without saying so, for
// what the conference has on FHIR, ransomware response, claims integration.
// Who they are without a field ("I'm a nurse", "I'm based in Leeds") still
// names nothing to look for.
var fieldOf = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(?:(?:work(?:s|ing)?|focus(?:es|ed|ing)?|speciali[sz](?:e|es|ed|ing)|specialist|expert|experience|background|beginner|new)\s+(?:on|in|with|of|to)|responsible\s+for|in\s+charge\s+of)\s+(.+)$`),
	regexp.MustCompile(`(?i)\b(?:teach(?:es|ing)?|handles?|handling|maintains?|maintaining|stud(?:y|ies|ying|ied)|research(?:es|ing)?)\s+(.+)$`),
	regexp.MustCompile(`(?i)\bmy\s+(?:job|role|work|area|field|focus|specialty|speciality|background)\s+is\s+(?:in\s+)?(.+)$`),
	regexp.MustCompile(`(?i)\b(?:an?|the)\s+(.+?)\s+(?:developer|engineer|specialist|analyst|architect|researcher|scientist|consultant|administrator|admin|expert|officer|designer|technician|tech|coordinator|lead|manager|planner|producer|operator|programmer|student|company|firm|agency|business)s?\b`),
	// What the attendee runs or looks after: "I run a small rural branch".
	regexp.MustCompile(`(?i)^(?:i|we)\s+(?:run|manage|lead|head|chair|coordinate|oversee|look\s+after)\s+(?:an?\s+|the\s+|my\s+|our\s+)?(.+)$`),
	// Last, the role itself, which a programme's audiences name ("school
	// librarians", "ward nurses"): "I'm a school librarian".
	regexp.MustCompile(`(?i)^(?:i\s+am|i'm|im)\s+(?:an?|the)\s+((?:\w+\s+){0,2}\w+)\s*$`),
}

// placeAfter is where someone works, after their field ("FHIR at my
// hospital"): not what they look for.
var placeAfter = regexp.MustCompile(`(?i)\s+(?:at|for|in|with)\s+(?:my|our|a|an|the|this)\b.*$`)

// placeStart opens a place rather than a field ("working in a hospital").
var placeStart = regexp.MustCompile(`(?i)^(?:a|an|the|my|our|this|their|his|her)\b`)

// degree opens how much, not a field ("I'm a bit lost").
var degree = regexp.MustCompile(`(?i)^(?:bit|little|lot|tad|kind|sort)\b`)

// fields returns the fields that self-description clauses name.
func fields(selves []string) []string {
	var out []string
	for _, c := range selves {
		for _, re := range fieldOf {
			m := re.FindStringSubmatch(c)
			if m == nil {
				continue
			}
			if f := strings.TrimSpace(placeAfter.ReplaceAllString(m[1], "")); topical(f) && !placeStart.MatchString(f) && !degree.MatchString(f) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// topical reports whether text has a word that is neither a stop word nor
// a generic one.
func topical(text string) bool {
	for _, w := range terms.Words(text) {
		if !terms.IsStop(w) && !generic[w] {
			return true
		}
	}
	return false
}
