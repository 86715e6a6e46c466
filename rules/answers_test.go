package rules_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A speaker asked for by surname, without the accents of their name, gets
// their talks and themselves, sure and at once: no reflection round spent
// on "speaking", no "not a sure fit"; a talk named gets its speaker, but
// only when that talk is at the time asked for.
func TestASpeakerOrTalkNamedIsAnsweredAtOnce(t *testing.T) {
	eng, conf := bundled(t, `{"conferences":[{"id":"ams","name":"Harbour Days","timezone":"Europe/Amsterdam","starts_on":"2026-10-24","ends_on":"2026-10-25"}],
 "sessions":[
  {"id":"bridge","conference_id":"ams","title":"OT cyber hygiene for the ship's bridge","description":"Map the bridge network.","format":"workshop","starts_at":"2026-10-24T10:00:00+02:00","ends_at":"2026-10-24T11:30:00+02:00","speaker_ids":["tw"]},
  {"id":"spoof","conference_id":"ams","title":"GPS spoofing tabletop","description":"Tomasz Wiśniewski debriefs the drill.","format":"workshop","starts_at":"2026-10-25T10:00:00+01:00","ends_at":"2026-10-25T11:30:00+01:00","speaker_ids":["tw"]},
  {"id":"reefer","conference_id":"ams","title":"Reefer monitoring","description":"Cold chain sensors on the quay.","format":"talk","starts_at":"2026-10-24T15:00:00+02:00","ends_at":"2026-10-24T15:45:00+02:00","speaker_ids":["lf"]}],
 "exhibitors":[],
 "speakers":[{"id":"tw","conference_id":"ams","name":"Tomasz Wiśniewski","job_title":"OT security lead","bio":"Twelve years as an electro-technical officer.","session_ids":["bridge","spoof"]},
  {"id":"lf","conference_id":"ams","name":"Lucía Fernández","job_title":"Cold chain director","bio":"Runs temperature-controlled logistics.","session_ids":["reefer"]}]}`)
	early := time.Date(2026, 10, 24, 6, 0, 0, 0, time.UTC) // 08:00 in Amsterdam
	st := ask(t, eng, conf, "when is wisniewski speaking?", early)
	assert.Subset(t, cited(st), []string{"bridge", "spoof", "tw"}, "answer: %s", st.ResponseText)
	assert.Zero(t, st.RetryCount, "notes: %v", st.ThinkingUpdates)
	assert.NotContains(t, st.ResponseText, "not a sure fit")
	st = ask(t, eng, conf, "who is giving the reefer monitoring talk?", early)
	assert.Contains(t, cited(st), "lf", "answer: %s", st.ResponseText)
	st = ask(t, eng, conf, "who is giving the reefer monitoring talk this morning?", early)
	assert.NotContains(t, cited(st), "lf", "her talk is in the afternoon: %s", st.ResponseText)
}

// A question searched among talks alone gets, beside the talk that answers
// it, the one exhibitor that answers it as surely; not when it asks when or
// where, nor at a time (exhibitors have neither).
func TestTheExpoIsAddedBesideTalksThatAnswer(t *testing.T) {
	eng, conf := bundled(t, `{"conferences":[{"id":"ams","name":"Harbour Days","timezone":"Europe/Amsterdam","starts_on":"2026-10-24","ends_on":"2026-10-25"}],
 "sessions":[
  {"id":"rfid","conference_id":"ams","title":"RFID tags in the container yard","description":"Reading RFID tags on containers at the gate.","format":"talk","starts_at":"2026-10-24T10:00:00+02:00","ends_at":"2026-10-24T10:45:00+02:00"},
  {"id":"crane","conference_id":"ams","title":"Crane maintenance","description":"Keeping quay cranes running.","format":"talk","starts_at":"2026-10-24T11:00:00+02:00","ends_at":"2026-10-24T11:45:00+02:00"}],
 "exhibitors":[{"id":"tagco","conference_id":"ams","name":"TagCo","description":"RFID tags and gate readers for container yards.","booth":"A-01"},
  {"id":"paint","conference_id":"ams","name":"Hull Paints","description":"Antifouling coatings for hulls.","booth":"B-02"}],
 "speakers":[]}`)
	early := time.Date(2026, 10, 24, 6, 0, 0, 0, time.UTC)
	st := ask(t, eng, conf, "rfid tags in container yards", early)
	assert.Equal(t, []string{"rfid", "tagco"}, cited(st), "answer: %s", st.ResponseText)
	for _, msg := range []string{"when is the rfid tags in container yards talk?", "rfid tags in container yards this morning"} {
		st = ask(t, eng, conf, msg, early)
		assert.NotContains(t, cited(st), "tagco", "%s: %s", msg, st.ResponseText)
		assert.Contains(t, cited(st), "rfid", "%s: %s", msg, st.ResponseText)
	}
}

// "What's first thing tomorrow?" is the first slot whatever it holds: the
// welcome coffee beside registration; "what's in <room> after this" is the
// next session there, not every session the room ever has.
func TestTheFirstSlotAndWhatComesAfterThis(t *testing.T) {
	eng, conf := bundled(t, `{"conferences":[{"id":"ams","name":"Harbour Days","timezone":"Europe/Amsterdam","starts_on":"2026-10-24","ends_on":"2026-10-25"}],
 "sessions":[
  {"id":"reg","conference_id":"ams","title":"Registration","description":"Collect your badge.","format":"other","room":"Foyer","starts_at":"2026-10-24T08:00:00+02:00","ends_at":"2026-10-24T18:00:00+02:00"},
  {"id":"coffee","conference_id":"ams","title":"Welcome coffee","description":"Coffee and pastries.","format":"other","room":"Foyer","starts_at":"2026-10-24T08:00:00+02:00","ends_at":"2026-10-24T09:00:00+02:00"},
  {"id":"key","conference_id":"ams","title":"Opening keynote","description":"Ports in 2040.","format":"keynote","room":"Hall 1","starts_at":"2026-10-24T09:30:00+02:00","ends_at":"2026-10-24T10:30:00+02:00"},
  {"id":"w1","conference_id":"ams","title":"Crane telemetry","description":"Reading crane sensors.","format":"workshop","room":"Studio","starts_at":"2026-10-24T11:00:00+02:00","ends_at":"2026-10-24T12:00:00+02:00"},
  {"id":"w2","conference_id":"ams","title":"Berth planning","description":"Planning berths.","format":"workshop","room":"Studio","starts_at":"2026-10-24T14:00:00+02:00","ends_at":"2026-10-24T15:00:00+02:00"}],
 "exhibitors":[],"speakers":[]}`)
	eve := time.Date(2026, 10, 23, 18, 0, 0, 0, time.UTC) // 20:00 the evening before
	st := ask(t, eng, conf, "what's first thing tomorrow morning", eve)
	assert.ElementsMatch(t, []string{"reg", "coffee"}, cited(st), "answer: %s", st.ResponseText)
	noon := time.Date(2026, 10, 24, 10, 15, 0, 0, time.UTC) // 12:15: the crane workshop is over
	st = ask(t, eng, conf, "what's in the Studio after this", noon)
	assert.Equal(t, []string{"w2"}, cited(st), "answer: %s", st.ResponseText)
}

// A question naming an exhibitor and asking who of it is speaking gets the
// speakers who work there, found by the company's name, not by the word
// "speaking".
func TestWhoFromAnExhibitorIsSpeaking(t *testing.T) {
	eng, conf := bundled(t, `{"conferences":[{"id":"ams","name":"Harbour Days","timezone":"Europe/Amsterdam","starts_on":"2026-10-24","ends_on":"2026-10-25"}],
 "sessions":[
  {"id":"fleet","conference_id":"ams","title":"Fleet interoperability for mobile robots","description":"Mixed fleets on one quay.","format":"talk","starts_at":"2026-10-24T10:00:00+02:00","ends_at":"2026-10-24T10:45:00+02:00","speaker_ids":["mc"]},
  {"id":"crane","conference_id":"ams","title":"Crane maintenance","description":"Keeping quay cranes running.","format":"talk","starts_at":"2026-10-24T11:00:00+02:00","ends_at":"2026-10-24T11:45:00+02:00","speaker_ids":["jd"]}],
 "exhibitors":[{"id":"intralog","conference_id":"ams","name":"Intralog AMR","description":"Autonomous mobile robots for pallets and totes.","booth":"A-01"},
  {"id":"paint","conference_id":"ams","name":"Hull Paints","description":"Antifouling coatings for hulls.","booth":"B-02"}],
 "speakers":[{"id":"mc","conference_id":"ams","name":"Mei Chen","job_title":"Product lead","company":"Intralog AMR","bio":"Builds fleet software.","session_ids":["fleet"]},
  {"id":"jd","conference_id":"ams","name":"Jan de Vries","job_title":"Engineer","company":"Hull Paints","bio":"Coatings chemist.","session_ids":["crane"]}]}`)
	st := ask(t, eng, conf, "Who else from Intralog AMR is speaking?", time.Date(2026, 10, 24, 6, 0, 0, 0, time.UTC))
	assert.Contains(t, cited(st), "mc", "answer: %s", st.ResponseText)
	assert.NotContains(t, cited(st), "jd", "answer: %s", st.ResponseText)
}
