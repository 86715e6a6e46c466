package rules

import (
	"regexp"
	"strings"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/terms"
)

// placeAsked finds the verb of a question that asks where to do something:
// "where can I charge my laptop?", "is there somewhere I can leave my
// coat?", "where do we pick up badges?"; an adverb before the verb is
// passed over ("where I actually get to build one").
var placeAsked = regexp.MustCompile(`(?i)\b(?:where|somewhere|anywhere)\s+(?:(?:can|could|do|should|may|might|would)\s+)?(?:i|we)\s+(?:(?:can|could|should|may|might)\s+)?(?:(?:actually|really|just|also|still|even|ever|finally|possibly|quickly)\s+)?([\p{L}]+)`)

// takingPart are verbs of learning, meeting or taking part: a talk, a
// workshop or a person can be where one does them ("where can I learn
// about…", "where do I meet…").
var takingPart = wordSet("get go start begin spend head focus look learn hear find see watch attend catch meet ask discuss talk read study explore try join network listen practise practice pitch present speak chat connect")

// errandAsked reports whether a question asks where to do something that is
// not taking part ("charge my laptop", "park", "leave my bag") and names no
// kind of programme item or person: a place or service answers it, and a
// talk about the matter does not.
func errandAsked(question string) bool {
	m := placeAsked.FindStringSubmatch(question)
	if m == nil || takingPart[strings.ToLower(m[1])] {
		return false
	}
	for _, w := range terms.Words(question) {
		if sessionCues[w] || speakerCues[w] {
			return false
		}
	}
	return true
}

// aPlace reports whether a result can be where an errand is done: an
// exhibitor's booth, or a session of no talk format (registration, a
// meal, a cloakroom); a talk, a panel or a workshop is about something.
func aPlace(r search.Result) bool {
	return r.Table == search.Exhibitors || r.Table == search.Sessions && service(r.Session)
}

// service reports whether a session is of no talk format: registration, a
// meal, a cloakroom, a social event ("other", or none given).
func service(s *search.Slot) bool {
	return s != nil && (s.Format == "" || s.Format == conference.FormatOther)
}

// forErrand narrows fits to places when the question is an errand.
func forErrand(in *agent.RespondInput, fits func(search.Result) bool) func(search.Result) bool {
	if !errandAsked(asked(in.Message, in.Reading)) {
		return fits
	}
	return func(r search.Result) bool { return aPlace(r) && fits(r) }
}
