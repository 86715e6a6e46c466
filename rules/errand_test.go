package rules_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A question asking where to do an errand ("where can I park?") is
// answered by a place or a service (a session of no talk format, a booth),
// never by a talk about the matter; asking where to learn about it, or for
// a talk, is answered by the talk.
func TestAnErrandIsAnsweredByAPlaceNotATalk(t *testing.T) {
	eng, conf := bundled(t, `{"conferences":[{"id":"ams","name":"Harbour Days","timezone":"Europe/Amsterdam","starts_on":"2026-10-24","ends_on":"2026-10-25"}],
 "sessions":[
  {"id":"parking","conference_id":"ams","title":"Parking policy for port cities","description":"Parking pricing, car parks and parking maximums near the quays.","format":"talk","starts_at":"2026-10-24T10:00:00+02:00","ends_at":"2026-10-24T10:45:00+02:00"},
  {"id":"cloak","conference_id":"ams","title":"Registration and cloakroom","description":"Collect your badge; the cloakroom takes coats and bags all day.","format":"other","starts_at":"2026-10-24T08:00:00+02:00","ends_at":"2026-10-24T09:00:00+02:00"}],
 "exhibitors":[],
 "speakers":[]}`)
	early := time.Date(2026, 10, 24, 6, 0, 0, 0, time.UTC)
	for _, msg := range []string{"where can I park my car?", "is there somewhere I can leave my coat and bags?"} {
		st := ask(t, eng, conf, msg, early)
		assert.NotContains(t, cited(st), "parking", "%s: %s", msg, st.ResponseText)
	}
	st := ask(t, eng, conf, "is there somewhere I can leave my coat and bags?", early)
	assert.Contains(t, cited(st), "cloak", "answer: %s", st.ResponseText)
	for _, msg := range []string{"where can I learn about parking policy?", "where can I park? any talk on parking pricing?", "parking maximums near the quays, anything where I actually get to model them?"} {
		st = ask(t, eng, conf, msg, early)
		assert.Contains(t, cited(st), "parking", "%s: %s", msg, st.ResponseText)
	}
}
