package rules_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// "Where is Forum 2?" is answered with the room as the programme names it
// (its building and level), an honest word that the assistant has no map, and what
// is still to come there; the talk that is over is left out. "What's on in
// Forum 2?" lists the room's day as before.
func TestWhereIsARoom(t *testing.T) {
	eng, conf := bundled(t, `{"conferences":[{"id":"s","name":"RoboMotion","timezone":"Europe/Berlin","starts_on":"2027-06-15","ends_on":"2027-06-15"}],
 "sessions":[
  {"id":"early","conference_id":"s","title":"OPC UA over TSN","description":"Field exchange.","format":"talk","room":"Forum 2 (ICS, Level 1)","starts_at":"2027-06-15T11:00:00+02:00","ends_at":"2027-06-15T11:45:00+02:00"},
  {"id":"late","conference_id":"s","title":"Predictive maintenance on servo drives","description":"Bearing wear from drive current.","format":"talk","room":"Forum 2 (ICS, Level 1)","starts_at":"2027-06-15T16:30:00+02:00","ends_at":"2027-06-15T17:15:00+02:00"},
  {"id":"other","conference_id":"s","title":"Cobots in SMEs","description":"Return on investment.","format":"panel","room":"Forum 1 (ICS, Level 1)","starts_at":"2027-06-15T16:30:00+02:00","ends_at":"2027-06-15T17:15:00+02:00"}],
 "exhibitors":[],"speakers":[]}`)
	at4 := time.Date(2027, 6, 15, 14, 0, 0, 0, time.UTC) // 16:00 in Stuttgart
	st := ask(t, eng, conf, "where is forum 2?", at4)
	assert.Contains(t, st.ResponseText, "“Forum 2 (ICS, Level 1)”")
	assert.Contains(t, st.ResponseText, "can't show you a map")
	assert.Equal(t, []string{"late"}, cited(st), "answer: %s", st.ResponseText)
	st = ask(t, eng, conf, "what's on in forum 2?", at4)
	assert.NotContains(t, st.ResponseText, "map")
	assert.ElementsMatch(t, []string{"early", "late"}, cited(st), "answer: %s", st.ResponseText)
}

// A person asked about by a name the programme never mentions gets a plain
// "not in the programme", not a failed search; a name in a topic question
// ("the Hong Kong Convention") does not.
func TestAPersonTheProgrammeNeverNames(t *testing.T) {
	eng, conf := bundled(t, `{"conferences":[{"id":"s","name":"RoboMotion","timezone":"Europe/Berlin","starts_on":"2027-06-15","ends_on":"2027-06-15"}],
 "sessions":[{"id":"ship","conference_id":"s","title":"Ship recycling yards","description":"Green recycling of ships.","format":"talk","starts_at":"2027-06-15T11:00:00+02:00","ends_at":"2027-06-15T11:45:00+02:00","speaker_ids":["jk"]}],
 "exhibitors":[],"speakers":[{"id":"jk","conference_id":"s","name":"Jan Kowalski","bio":"Runs a yard.","session_ids":["ship"]}]}`)
	at := time.Date(2027, 6, 15, 6, 0, 0, 0, time.UTC)
	for _, msg := range []string{"Do you know if Elon Musk is coming?", "is Dr Aisha Patel speaking here?"} {
		st := ask(t, eng, conf, msg, at)
		assert.Contains(t, st.ResponseText, "is not in the programme of RoboMotion", msg)
		assert.Empty(t, cited(st), msg)
	}
	st := ask(t, eng, conf, "any talk on the Hong Kong Convention for ship recycling?", at)
	assert.NotContains(t, st.ResponseText, "is not in the programme")
	st = ask(t, eng, conf, "is Jan Kowalski speaking?", at)
	assert.Contains(t, cited(st), "jk", "answer: %s", st.ResponseText)
}
