package rules_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// A question about the conference itself is answered from its record and
// programme, across the end of summer time, without a search: the
// programme's talks cannot say when the conference starts.
func TestQuestionsAboutTheConferenceItself(t *testing.T) {
	eng, conf := harbour(t)
	friday := time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC)
	sunday := time.Date(2026, 10, 25, 8, 0, 0, 0, time.UTC) // 09:00 CET, after the change
	for _, c := range []struct {
		msg  string
		now  time.Time
		want []string
	}{
		{"When does the conference start?", friday, []string{"Harbour Days runs from Sat 24 to Sun 25 October.",
			"The programme starts at 10:00 on Sat 24 Oct with “Cold chain sensors”.", "That is tomorrow."}},
		{"so when does it all kick off?", friday, []string{"starts at 10:00 on Sat 24 Oct"}},
		{"When does it all end?", sunday, []string{"The last session, “Port customs clinic”, ends at 17:30 on Sun 25 Oct.",
			"Times are local (Europe/Amsterdam).", "It is on now: today is day 2 of 2."}},
		{"how long is the conference?", friday, []string{"Harbour Days runs for 2 days, from Sat 24 to Sun 25 October."}},
		{"what time does each day end?", friday, []string{"Each day: Sat 24 Oct 10:00–10:45 and Sun 25 Oct 10:00–17:30."}},
		{"Where is the conference?", friday, []string{"The programme does not say where Harbour Days is held"}},
	} {
		st := ask(t, eng, conf, c.msg, c.now)
		for _, w := range c.want {
			assert.Contains(t, st.ResponseText, w, c.msg)
		}
		assert.Empty(t, st.Tried, "%s: searched", c.msg)
		assert.Empty(t, st.Citations, c.msg)
	}
}

// What is asked of one session, or of an item cited before, is searched
// or looked up as before.
func TestQuestionsAboutASessionAreNotAboutTheConference(t *testing.T) {
	eng, conf := harbour(t)
	friday := time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC)
	citesAt(t, eng, conf, friday, "when does the customs clinic start?", "sun-late")
	history := []agent.Turn{
		{Role: "user", Text: "anything on customs?"},
		{Role: "assistant", Text: "Port customs clinic [sessions/sun-late]", Citations: []agent.Citation{{Collection: "sessions", ID: "sun-late"}}},
	}
	st, err := agent.New(rules.New(), eng, agent.Options{}).Run(context.Background(),
		agent.Request{Message: "when is it?", Conference: conf, Now: friday, History: history}, nil)
	require.NoError(t, err)
	assert.Empty(t, st.About, "a follow-up about the cited session")
	assert.Contains(t, st.ResponseText, "16:30", "the clinic's time: %s", st.ResponseText)
}

// A question asking for a whole part of the programme lists it, citing each
// item; asked with more, it is searched as before.
func TestListingAPartOfTheProgramme(t *testing.T) {
	eng, conf := harbour(t)
	friday := time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC)
	st := ask(t, eng, conf, "who's exhibiting?", friday)
	assert.Equal(t, []string{"e1"}, cited(st), st.ResponseText)
	assert.Contains(t, st.ResponseText, "Harbour Days has 1 exhibitor:\n- Reefer Watch")
	assert.Empty(t, st.Tried, "searched")
	st = ask(t, eng, conf, "what rooms are there?", friday)
	assert.Contains(t, st.ResponseText, "Harbour Days has 2 rooms: Hall 1 and Room B.")
	st = ask(t, eng, conf, "what tracks are there?", friday)
	assert.Contains(t, st.ResponseText, "does not group its sessions into tracks")
	st = ask(t, eng, conf, "list the exhibitors that log container temperature", friday)
	assert.NotEmpty(t, st.Tried, "a listing with a topic is searched")
	assert.Equal(t, []string{"e1"}, cited(st), st.ResponseText)
}

// Asked to book a place, the answer says it cannot and still answers.
func TestAskedToBookTheAnswerSaysItCannot(t *testing.T) {
	eng, conf := harbour(t)
	st := ask(t, eng, conf, "Please book me a seat at the port customs clinic", time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC))
	assert.Contains(t, st.ResponseText, "I can't book or reserve places")
	assert.Equal(t, []string{"sun-late"}, cited(st), st.ResponseText)
}

// "What's next?" late in the day says nothing more is on that day, and
// when the next is.
func TestWhatsNextOnALaterDaySaysSo(t *testing.T) {
	eng, conf := harbour(t)
	st := ask(t, eng, conf, "what's next in Hall 1?", time.Date(2026, 10, 24, 18, 0, 0, 0, time.UTC)) // Saturday 20:00 in Amsterdam
	assert.Contains(t, st.ResponseText, "Nothing more is on in Hall 1 today at Harbour Days; the next is on Sun 25 Oct:")
	assert.Equal(t, []string{"sun-am"}, cited(st), st.ResponseText)
	st = ask(t, eng, conf, "what's next in Hall 1?", time.Date(2026, 10, 24, 7, 0, 0, 0, time.UTC)) // Saturday 09:00
	assert.Contains(t, st.ResponseText, "Here is what is on next, in Hall 1 at Harbour Days:")
}

// "What should I not miss?" lists the keynotes, the programme's own
// headline sessions, and offers to choose by interest.
func TestWhatNotToMissListsTheKeynotes(t *testing.T) {
	b, err := conference.Parse("k.json", []byte(`{"conferences":[{"id":"k","name":"Keynote Days","timezone":"Europe/Amsterdam"}],
 "sessions":[{"id":"k2","conference_id":"k","title":"Closing keynote","format":"keynote","starts_at":"2026-10-25T16:00:00+01:00","ends_at":"2026-10-25T17:00:00+01:00"},
  {"id":"k1","conference_id":"k","title":"Opening keynote","format":"keynote","starts_at":"2026-10-24T09:00:00+02:00","ends_at":"2026-10-24T10:00:00+02:00"},
  {"id":"t1","conference_id":"k","title":"Cold chain sensors","format":"talk","starts_at":"2026-10-24T11:00:00+02:00","ends_at":"2026-10-24T12:00:00+02:00"}]}`))
	require.NoError(t, err)
	st := ask(t, searchtest.Engine(t, b), agent.Conference{ID: "k", Name: "Keynote Days"}, "what are the must-see sessions?", time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC))
	assert.Equal(t, []string{"k1", "k2"}, cited(st), st.ResponseText)
	assert.Contains(t, st.ResponseText, "Tell me what you work on")
}
