package rules_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// dstBundle is a conference in Amsterdam across the end of summer time
// (Sunday 25 October 2026, 03:00 → 02:00): Saturday's sessions are at
// +02:00, Sunday's at +01:00.
const dstBundle = `{"conferences":[{"id":"ams","name":"Harbour Days","timezone":"Europe/Amsterdam","starts_on":"2026-10-24","ends_on":"2026-10-25"}],
 "sessions":[
  {"id":"sat-am","conference_id":"ams","title":"Cold chain sensors","description":"Temperature sensors for reefer containers.","format":"talk","room":"Hall 1","starts_at":"2026-10-24T10:00:00+02:00","ends_at":"2026-10-24T10:45:00+02:00"},
  {"id":"sun-am","conference_id":"ams","title":"Cold chain audits","description":"Auditing reefer logistics.","format":"workshop","room":"Hall 1","starts_at":"2026-10-25T10:00:00+01:00","ends_at":"2026-10-25T11:30:00+01:00"},
  {"id":"sun-pm","conference_id":"ams","title":"Cold chain insurance","description":"Insuring reefer cargo.","format":"talk","room":"Room B","starts_at":"2026-10-25T14:00:00+01:00","ends_at":"2026-10-25T14:45:00+01:00"},
  {"id":"sun-late","conference_id":"ams","title":"Port customs clinic","description":"Customs declarations for beginners.","format":"workshop","room":"Room B","starts_at":"2026-10-25T16:30:00+01:00","ends_at":"2026-10-25T17:30:00+01:00"}],
 "exhibitors":[{"id":"e1","conference_id":"ams","name":"Reefer Watch","description":"Sensors that log container temperature."}],
 "speakers":[]}`

func harbour(t *testing.T) (*search.Engine, agent.Conference) {
	t.Helper()
	b, err := conference.Parse("dst.json", []byte(dstBundle))
	require.NoError(t, err)
	return searchtest.Engine(t, b), agent.Conference{ID: "ams", Name: "Harbour Days", StartsOn: "2026-10-24"}
}

// bundled is the engine of a bundle of one conference, and that conference
// as a turn names it.
func bundled(t *testing.T, bundle string) (*search.Engine, agent.Conference) {
	t.Helper()
	b, err := conference.Parse("bundle.json", []byte(bundle))
	require.NoError(t, err)
	c := b.Conferences[0]
	return searchtest.Engine(t, b), agent.Conference{ID: c.ID, Name: c.Name, StartsOn: c.StartsOn}
}

func ask(t *testing.T, eng *search.Engine, conf agent.Conference, msg string, now time.Time) *agent.State {
	t.Helper()
	st, err := agent.New(rules.New(), eng, agent.Options{}).Run(context.Background(), agent.Request{Message: msg, Conference: conf, Now: now}, nil)
	require.NoError(t, err)
	return st
}

func cited(st *agent.State) []string {
	var out []string
	for _, c := range st.Citations {
		out = append(out, c.ID)
	}
	return out
}

func TestTimeFiltersAcrossTheEndOfSummerTime(t *testing.T) {
	eng, conf := harbour(t)
	// Saturday 22:30 UTC is already Sunday 00:30 in Amsterdam: "today" is
	// Sunday 25th, a day of 25 hours, whatever the clock's zone.
	sat := time.Date(2026, 10, 24, 22, 30, 0, 0, time.UTC)
	tests := []struct {
		msg  string
		want []string
	}{
		{"cold chain this afternoon", []string{"sun-pm"}},
		{"any workshops today?", []string{"sun-am", "sun-late"}},
		{"cold chain this morning in Hall 1", []string{"sun-am"}},
		{"anything after 4pm?", []string{"sun-late"}},
	}
	for _, tc := range tests {
		st := ask(t, eng, conf, tc.msg, sat)
		assert.Equal(t, tc.want, cited(st), "%q cites (filter %+v)", tc.msg, st.Filter)
	}
}

func TestADayOutsideTheConferenceIsSaidNotSearched(t *testing.T) {
	eng, conf := harbour(t)
	st := ask(t, eng, conf, "anything on cold chain on Monday?", time.Date(2026, 10, 24, 9, 0, 0, 0, time.UTC))
	assert.Empty(t, st.Citations, "answer %q", st.ResponseText)
	assert.Empty(t, st.Tried, "answer %q: searches", st.ResponseText)
	assert.Contains(t, st.ResponseText, "Monday 26 October")
}

func TestNothingFitsCitesNothing(t *testing.T) {
	eng, conf := harbour(t)
	for _, msg := range []string{"is there a sauna at the venue?", "knitting workshops", "GraphQL API design for cold chain"} {
		st := ask(t, eng, conf, msg, time.Time{})
		assert.Empty(t, cited(st), "%q cites: %q", msg, st.ResponseText)
		assert.Contains(t, st.ResponseText, "couldn't find", "%q", msg)
	}
}

func TestAnotherLanguageIsRecognisedAndStillTried(t *testing.T) {
	eng, conf := harbour(t)
	st := ask(t, eng, conf, "Gibt es Vorträge über Reefer Sensoren und Container?", time.Time{})
	require.Equal(t, "de", st.Language, "answer %q", st.ResponseText)
	require.True(t, strings.HasPrefix(st.ResponseText, "I work in English"), "language %q, answer %q", st.Language, st.ResponseText)
	assert.Contains(t, cited(st), "sat-am", "answer %q", st.ResponseText) // the words it shares with English still find it
}

func TestAWidenedFilterIsSaidAndItsFindingsShownAsOutsideIt(t *testing.T) {
	eng, conf := harbour(t)
	sun := time.Date(2026, 10, 25, 8, 0, 0, 0, time.UTC) // Sunday 09:00 in Amsterdam
	st := ask(t, eng, conf, "cold chain workshops this afternoon", sun)
	said := false
	for _, n := range st.ThinkingUpdates {
		said = said || strings.Contains(n.Message, "instead of the afternoon")
	}
	require.True(t, said, "no note says the afternoon was widened: %+v", st.ThinkingUpdates)
	assert.Empty(t, cited(st), "what is outside the afternoon was recommended: %q", st.ResponseText)
	_, outside, ok := strings.Cut(st.ResponseText, "outside this afternoon")
	require.True(t, ok, "the morning's workshop is not named: %q", st.ResponseText)
	assert.Contains(t, outside, "Sun 25 Oct 10:00", "named without its time: %q", st.ResponseText)
}

// A format word ("hands-on", "workshop") filters a question that asks for
// one thing; in a question asking for several it belongs to one need, so it
// stays a search word and the other needs are searched in every format.
func TestAFormatWordInOneNeedOfSeveralIsNotAFilter(t *testing.T) {
	eng, conf := harbour(t)
	one := ask(t, eng, conf, "any hands-on workshops on cold chain audits?", harbourSaturday)
	require.NotNil(t, one.Filter, "a one-need question lost its format filter")
	assert.Equal(t, []string{"workshop"}, one.Filter.Formats)
	assert.Equal(t, []string{"sun-am"}, cited(one), "answer: %s", one.ResponseText)

	several := ask(t, eng, conf, "We need insurance for our reefer cargo. "+
		"Also I'd like to get hands-on with customs declarations for beginners.", harbourSaturday)
	assert.Nil(t, several.Filter, "the format word of one need filtered the whole question")
	assert.Contains(t, cited(several), "sun-pm", "the insurance talk was filtered out: %s", several.ResponseText)
	assert.Contains(t, cited(several), "sun-late", "the hands-on need lost its workshop: %s", several.ResponseText)
}

// "Still on today" holds the session running now and those to come today,
// not the ones already over.
func TestStillOnTodayKeepsWhatIsRunning(t *testing.T) {
	eng, conf := harbour(t)
	ams, err := time.LoadLocation("Europe/Amsterdam")
	require.NoError(t, err)
	sunday := time.Date(2026, 10, 25, 10, 30, 0, 0, ams)
	st := ask(t, eng, conf, "anything about cold chain still going on today?", sunday)
	require.NotNil(t, st.Filter, "no time filter")
	assert.True(t, st.Filter.Ongoing, "filter %+v: want what has not ended", st.Filter)
	assert.ElementsMatch(t, []string{"sun-am", "sun-pm"}, cited(st), "answer: %s", st.ResponseText)
	assert.Contains(t, st.ResponseText, "the rest of today")

	late := ask(t, eng, conf, "anything about cold chain still going on today?", sunday.Add(75*time.Minute))
	assert.Equal(t, []string{"sun-pm"}, cited(late), "at 11:45, after the audits ended: %s", late.ResponseText)
}

// A question about a real thing the conference never mentions gets no
// "closest match": every item lacks what it is about. On the real
// programme (skipped without it), "self-driving cars" has a close match,
// "self-driving car regulation" none.
func TestNoClosestMatchForARealThingTheConferenceLacks(t *testing.T) {
	eng, conf := realProgramme(t)
	at := time.Date(2017, 3, 18, 10, 0, 0, 0, time.UTC)
	cars := ask(t, eng, conf, "Any talk about self-driving cars?", at)
	require.NotEmpty(t, cited(cars), "the control question found nothing: %s", cars.ResponseText)
	rules := ask(t, eng, conf, "Any talk about self-driving car regulation?", at)
	assert.Empty(t, cited(rules), "answer: %s", rules.ResponseText)
	assert.Contains(t, rules.ResponseText, "I couldn't find anything")
}

// harbourSaturday is 08:00 on the first day of the Harbour Days conference.
var harbourSaturday = time.Date(2026, 10, 24, 8, 0, 0, 0, time.UTC)

// Questions as attendees write them, each answered with what it asks for:
// cited is every item cited, some one that must be among them, none that
// nothing is; says and saysNot are in the answer, or not.
func TestQuestionsReadAsAttendeesWriteThem(t *testing.T) {
	eng, conf := harbour(t)
	for _, c := range []struct {
		why, msg      string
		cited         []string
		some          string
		none          bool
		says, saysNot string
	}{
		{why: "a worry is a need, not a self-description answered with a question",
			msg: "I'm really worried about customs declarations.", cited: []string{"sun-late"}},
		{why: "a question that only says who the attendee is searches the field they name",
			msg: "I work on customs declarations at a freight forwarder.", cited: []string{"sun-late"}},
		{why: "who the attendee is without a field is looked for as an audience, and a role the programme lacks finds nothing",
			msg: "I'm a nurse.", none: true, says: "clearly matches “nurse”"},
		{why: "a web or e-mail address is no topic",
			msg: "see https://harbourdays.example/agenda - anything on customs declarations? mail me at ana@example.com", cited: []string{"sun-late"}},
		{why: "a greeting in another language asks nothing either, in no language a detector guesses",
			msg: "Bonjour", none: true, says: "What are you looking for?", saysNot: "I work in English"},
		{why: "nor do thanks",
			msg: "Danke!", none: true, says: "What are you looking for?", saysNot: "I work in English"},
		{why: "what is on at a time holds the session running then",
			msg: "what's on at 10:30 on Sunday?", cited: []string{"sun-am"}},
		{why: "a time and place with nothing on says so without quoting a topic",
			msg: "what's on at 13:00 on Sunday in Hall 1?", says: "I couldn't find anything at Harbour Days for ", saysNot: "clearly matches"},
		{why: "a common word the programme never uses counts for little against an item",
			msg: "Anything on customs problems?", cited: []string{"sun-late"}},
		{why: "a rare thing the programme never mentions still counts in full",
			msg: "Is there a customs sauna?", none: true},
		{why: "nothing fitting a long message quotes what it asks, not its story",
			msg:  "Sommelier at a seaside restaurant group in Porto. Is there anything on wine pairing?",
			none: true, says: "clearly matches “wine pairing”", saysNot: "Sommelier"},
		{why: "nothing fitting a long ask is said without a quote cut short",
			msg:  "Two things on my list: sommeliers keep asking about wine pairing, and our chefs want sourdough baking and cheese ageing ideas. Anything?",
			none: true, says: "clearly matches what you asked for"},
		{why: "what the attendee turns down is kept out, not asked for",
			msg: "Anything on cold chain? No workshops please.", cited: []string{"sat-am", "sun-pm"}, says: "anything but workshops"},
		{why: "a day turned down is kept out too",
			msg: "cold chain talks, but not on Sunday", cited: []string{"sat-am"}},
		{why: "and so is a day turned down in a sentence of its own",
			msg: "Any cold chain talks? I'm afraid I won't be there on Sunday at all.", cited: []string{"sat-am"}, says: "anything but Sun 25 Oct"},
		{why: "what the question and its context turn down both count",
			msg: "Any cold chain sessions, no workshops? I'm afraid I won't be there on Sunday at all.", cited: []string{"sat-am"}},
		{why: "and so does a turn-down addressed to the agent in a sentence of context",
			msg: "Any cold chain sessions? No workshops though, they are always far too basic for us.", cited: []string{"sat-am", "sun-pm"}},
		{why: "every phrase turned down counts",
			msg: "cold chain, but no workshops and not on Saturday", cited: []string{"sun-pm"}},
		{why: "a browse lists what matches, not the best three",
			msg: "list all workshops", cited: []string{"sun-am", "sun-late"}, saysNot: "There may be more"},
		{why: "a need said outright is searched on its own beside the long clause around it",
			msg: "We ship chilled fruit through three ports and the paperwork at every border keeps getting delayed. " +
				"Our biggest worry is insurance. What should I see?", some: "sun-pm"},
	} {
		t.Run(c.why, func(t *testing.T) {
			st := ask(t, eng, conf, c.msg, harbourSaturday)
			if c.cited != nil {
				assert.ElementsMatch(t, c.cited, cited(st), "answer: %s", st.ResponseText)
			}
			if c.some != "" {
				assert.Contains(t, cited(st), c.some, "answer: %s", st.ResponseText)
			}
			if c.none {
				assert.Empty(t, cited(st), "answer: %s", st.ResponseText)
			}
			if c.says != "" {
				assert.Contains(t, st.ResponseText, c.says)
			}
			if c.saysNot != "" {
				assert.NotContains(t, st.ResponseText, c.saysNot)
			}
		})
	}
}

// A browse cut at the answer's limit says so.
func TestABrowseSaysWhenItsListIsCut(t *testing.T) {
	day2 := ask(t, demoEngine(t), agent.Conference{ID: "aidata26", Name: "Applied AI & Data Infrastructure Summit 2026"}, "what's on on day 2?", time.Date(2026, 6, 9, 8, 0, 0, 0, time.UTC))
	assert.Len(t, day2.Citations, agent.AnswerLimit, "answer: %s", day2.ResponseText)
	assert.Contains(t, day2.ResponseText, "There may be more")
}

// A story's negation turns nothing down: only what attendees say in their
// own voice does.
func TestAStorysNegationTurnsNothingDown(t *testing.T) {
	eng, conf := harbour(t)
	for _, msg := range []string{"Last year's fair had no workshops. Any cold chain workshops?", "Last year there were no panels on Sunday. Any cold chain talks?"} {
		st := ask(t, eng, conf, msg, harbourSaturday)
		if st.Filter != nil {
			assert.Empty(t, st.Filter.Except, "%s: the story's negation was turned down: %s", msg, st.Filter.Label)
		}
	}
	st := ask(t, eng, conf, "Any cold chain talks? Sadly I won't be there on Sunday at all.", harbourSaturday)
	require.NotNil(t, st.Filter)
	assert.NotEmpty(t, st.Filter.Except, "the attendee's own turn-down was lost")
}

// In a message that tells a story and then asks, the story's time words
// filter nothing: "the cargo is now insured" does not mean sessions
// running now.
func TestAStorysTimeWordsFilterNothing(t *testing.T) {
	eng, conf := harbour(t)
	ams, err := time.LoadLocation("Europe/Amsterdam")
	require.NoError(t, err)
	sunday := time.Date(2026, 10, 25, 9, 0, 0, 0, ams) // before every Sunday session
	st := ask(t, eng, conf, "Our reefer cargo is now insured and our yard runs on paper forms since last year. "+
		"Is there anything on auditing the cold chain?", sunday)
	assert.Nil(t, st.Filter, "the story's time word became a filter")
	assert.Contains(t, cited(st), "sun-am", "answer: %s", st.ResponseText)

	asked := ask(t, eng, conf, "We run reefer depots. What is on now about cold chain?", time.Date(2026, 10, 25, 10, 30, 0, 0, ams))
	require.NotNil(t, asked.Filter, "a time word the question asks with filters")
	assert.True(t, asked.Filter.Ongoing, "filter %+v", asked.Filter)
}

// An exhibitor a story names is not looked up when the question asks for
// something else; when the question only points back at it, it is.
func TestAnEntityInTheStoryIsLookedUpOnlyWhenAskedAbout(t *testing.T) {
	eng, conf := harbour(t)
	lookedUp := func(st *agent.State) bool {
		for _, q := range st.OriginalPlannedQueries {
			if q.Table == search.Exhibitors && q.Mode == search.Master {
				return true
			}
		}
		return false
	}
	story := ask(t, eng, conf, "We bought sensors from Reefer Watch for our whole depot fleet. Is there anything on cold chain audits?", harbourSaturday)
	assert.False(t, lookedUp(story), "the story's exhibitor was looked up: %+v", story.OriginalPlannedQueries)
	assert.NotContains(t, cited(story), "e1", "answer: %s", story.ResponseText)

	back := ask(t, eng, conf, "We bought sensors from Reefer Watch for our whole depot fleet. Where is it?", harbourSaturday)
	assert.True(t, lookedUp(back), "the exhibitor asked about was not looked up: %+v", back.OriginalPlannedQueries)
}

// When the topic is only outside the time asked for, the answer says that
// nothing fits the time, then names what it found outside it with its own
// time, without calling it loosely related and without recommending it.
func TestItemsOutsideTheTimeAskedForAreListedAfterNothingFits(t *testing.T) {
	eng, conf := harbour(t)
	sat := time.Date(2026, 10, 24, 9, 0, 0, 0, time.UTC) // 11:00 in Amsterdam
	st := ask(t, eng, conf, "anything on customs declarations this morning?", sat)
	assert.Empty(t, cited(st), "answer: %s", st.ResponseText)
	nothing, found, ok := strings.Cut(st.ResponseText, "outside ")
	require.True(t, ok, "no items outside the time asked for: %s", st.ResponseText)
	assert.Contains(t, nothing, "couldn't find anything", "answer: %s", st.ResponseText)
	assert.NotContains(t, st.ResponseText, "loosely related", "answer: %s", st.ResponseText)
	assert.Contains(t, found, "Port customs clinic (Workshop · Sun 25 Oct", "answer: %s", st.ResponseText)
	assert.NotContains(t, found, "[sessions/", "answer: %s", st.ResponseText)
}

// What answers the topic outside the time asked for is offered only while
// it is still to come; a speaker counts at the time of their talks.
func TestPastSessionsAreNotOfferedInsteadOfTheTimeAskedFor(t *testing.T) {
	eng, conf := bundled(t, `{"conferences":[{"id":"ams","name":"Harbour Days","timezone":"Europe/Amsterdam","starts_on":"2026-10-24","ends_on":"2026-10-25"}],
 "sessions":[
  {"id":"audit","conference_id":"ams","title":"Cold chain audits","description":"Auditing reefer logistics.","format":"workshop","room":"Hall 1","starts_at":"2026-10-24T10:00:00+02:00","ends_at":"2026-10-24T11:30:00+02:00","speaker_ids":["ana"]},
  {"id":"customs","conference_id":"ams","title":"Port customs clinic","description":"Customs declarations for beginners.","format":"workshop","room":"Room B","starts_at":"2026-10-24T14:00:00+02:00","ends_at":"2026-10-24T15:00:00+02:00"}],
 "exhibitors":[],
 "speakers":[{"id":"ana","conference_id":"ams","name":"Ana Ruiz","job_title":"Auditor","bio":"Ana audits cold chain logistics for reefer fleets.","session_ids":["audit"]}]}`)
	noon := time.Date(2026, 10, 24, 10, 0, 0, 0, time.UTC) // 12:00 in Amsterdam: the audit workshop is over
	st := ask(t, eng, conf, "anything on cold chain audits this afternoon?", noon)
	assert.Empty(t, cited(st), "answer: %s", st.ResponseText)
	assert.Contains(t, st.ResponseText, "already over", "answer: %s", st.ResponseText)
	early := time.Date(2026, 10, 24, 6, 0, 0, 0, time.UTC) // 08:00: still to come
	st = ask(t, eng, conf, "anything on cold chain audits this afternoon?", early)
	assert.Empty(t, cited(st), "answer: %s", st.ResponseText)
	assert.Contains(t, st.ResponseText, "outside this afternoon (Sat 24 Oct):\n- Cold chain audits (Workshop · Sat 24 Oct 10:00", "answer: %s", st.ResponseText)
}

// A speaker meets the time asked for through a talk then on the topic, not
// through any talk of theirs that happens to be then.
func TestASpeakerMeetsTheTimeThroughATalkOnTheTopic(t *testing.T) {
	eng, conf := bundled(t, `{"conferences":[{"id":"ams","name":"Harbour Days","timezone":"Europe/Amsterdam","starts_on":"2026-10-24","ends_on":"2026-10-25"}],
 "sessions":[
  {"id":"audit","conference_id":"ams","title":"Cold chain audits","description":"Auditing reefer logistics.","format":"workshop","room":"Hall 1","starts_at":"2026-10-24T10:00:00+02:00","ends_at":"2026-10-24T11:30:00+02:00","speaker_ids":["ana"]},
  {"id":"safety","conference_id":"ams","title":"Quay safety drills","description":"Crane and forklift safety on the quay.","format":"talk","room":"Room B","starts_at":"2026-10-24T15:00:00+02:00","ends_at":"2026-10-24T15:45:00+02:00","speaker_ids":["ana"]}],
 "exhibitors":[],
 "speakers":[{"id":"ana","conference_id":"ams","name":"Ana Ruiz","job_title":"Auditor","bio":"Ana audits cold chain logistics for reefer fleets.","session_ids":["audit","safety"]}]}`)
	early := time.Date(2026, 10, 24, 6, 0, 0, 0, time.UTC) // 08:00 in Amsterdam
	st := ask(t, eng, conf, "anything on cold chain audits this afternoon?", early)
	assert.NotContains(t, cited(st), "ana", "her afternoon talk is on quay safety: %s", st.ResponseText)
	st = ask(t, eng, conf, "who talks about quay safety this afternoon?", early)
	assert.Contains(t, cited(st), "safety", "answer: %s", st.ResponseText)
}

// A sentence that asks nothing and holds no word of the conference's is
// the attendee's story: with a time asked for, the question is that time.
// One with the conference's words still names the topic.
func TestAStorySentenceIsNoTopic(t *testing.T) {
	eng, conf := harbour(t)
	sat := time.Date(2026, 10, 24, 16, 0, 0, 0, time.UTC) // Saturday 18:00 in Amsterdam
	st := ask(t, eng, conf, "Just landed in Lisbon. Any workshops tomorrow morning?", sat)
	assert.Equal(t, []string{"sun-am"}, cited(st), "answer: %s", st.ResponseText)
	st = ask(t, eng, conf, "Reefer insurance. Anything on Sunday?", sat)
	assert.Equal(t, []string{"sun-pm"}, cited(st), "answer: %s", st.ResponseText)
	citesAt(t, eng, conf, sat, "Can't sleep, jet lag. Any workshops tomorrow morning?", "sun-am")
	citesAt(t, eng, conf, sat, "Trying to plan ahead — any workshops tomorrow morning?", "sun-am")
}

// citesAt asks msg at now and checks that the answer cites exactly want.
func citesAt(t *testing.T, eng *search.Engine, conf agent.Conference, now time.Time, msg string, want ...string) {
	t.Helper()
	st := ask(t, eng, conf, msg, now)
	assert.Equal(t, want, cited(st), "%s\nanswer: %s", msg, st.ResponseText)
}

// A story sentence with the conference's words is the topic only when
// something at the time asked for has them: "customs" is no topic of
// tomorrow morning's workshops, but is of Sunday's.
func TestAStorySentenceNamesATopicOnlyWhenItIsOnThen(t *testing.T) {
	eng, conf := harbour(t)
	sat := time.Date(2026, 10, 24, 16, 0, 0, 0, time.UTC) // Saturday 18:00 in Amsterdam
	citesAt(t, eng, conf, sat, "Customs declarations are new to me. Any workshops tomorrow morning?", "sun-am")
	citesAt(t, eng, conf, sat, "Customs declarations are new to me. Any workshops on Sunday?", "sun-late")
}

// "Before then" bounds the question by a time said in a sentence of its
// own: the time of the attendee's call is the end of the window.
func TestBeforeThenPointsBackAcrossSentences(t *testing.T) {
	eng, conf := harbour(t)
	sun := time.Date(2026, 10, 25, 8, 0, 0, 0, time.UTC) // Sunday 09:00 in Amsterdam
	st := ask(t, eng, conf, "I've got a call at 3pm. Any cold chain sessions I can catch before then?", sun)
	require.NotNil(t, st.Filter, "no filter: %s", st.ResponseText)
	assert.Equal(t, time.Date(2026, 10, 25, 14, 0, 0, 0, time.UTC), st.Filter.To.UTC(), "15:00 in Amsterdam")
	assert.ElementsMatch(t, []string{"sun-am", "sun-pm"}, cited(st), "answer: %s", st.ResponseText)
	noon := time.Date(2026, 10, 25, 11, 0, 0, 0, time.UTC) // 12:00: the morning workshop is over
	citesAt(t, eng, conf, noon, "I've got a call at 3pm. What can I squeeze in before then?", "sun-pm")
}

// What attendees say of where they are or of their own day, and how they
// ask what starts, name no topic: the question is its time or place.
func TestHowAttendeesAskWhatIsOnNamesNoTopic(t *testing.T) {
	eng, conf := harbour(t)
	sat := time.Date(2026, 10, 24, 16, 0, 0, 0, time.UTC) // Saturday 18:00 in Amsterdam
	citesAt(t, eng, conf, sat, "what's on tomorrow morning? trying to work out if I can sleep in lol", "sun-am")
	sun := time.Date(2026, 10, 25, 12, 50, 0, 0, time.UTC) // Sunday 13:50
	citesAt(t, eng, conf, sun, "im sitting in room b, whats on next in here", "sun-pm")
	citesAt(t, eng, conf, sun, "What's kicking off in the next half hour or so?", "sun-pm")
}

// A format or kind of item asked for with a typo is still asked for:
// "worksops" filters to workshops, "vendrs" asks for exhibitors.
func TestAMisspeltAskingWordStillAsks(t *testing.T) {
	eng, conf := harbour(t)
	sat := time.Date(2026, 10, 24, 16, 0, 0, 0, time.UTC) // Saturday 18:00 in Amsterdam
	st := ask(t, eng, conf, "any worksops tomorrow?", sat)
	require.NotNil(t, st.Filter, "no filter: %s", st.ResponseText)
	assert.Equal(t, []string{"workshop"}, st.Filter.Formats)
	assert.ElementsMatch(t, []string{"sun-am", "sun-late"}, cited(st), "answer: %s", st.ResponseText)
	st = ask(t, eng, conf, "which vendrs sell container temperature sensors?", sat)
	assert.Contains(t, cited(st), "e1", "answer: %s", st.ResponseText)
}

// A time or place said of exhibitors constrains nothing (they have booths,
// not slots): "a vendor in hall 1" sets no filter that a pivot to talks
// would inherit.
func TestAPlaceSaidOfExhibitorsFiltersNothing(t *testing.T) {
	eng, conf := harbour(t)
	sat := time.Date(2026, 10, 24, 8, 0, 0, 0, time.UTC)
	st := ask(t, eng, conf, "which vendors in hall 1 sell container temperature sensors?", sat)
	assert.Nil(t, st.Filter, "filter: %+v", st.Filter)
	assert.Contains(t, cited(st), "e1", "answer: %s", st.ResponseText)
}

// A place reads as one: "at Harbour Days in Room B", not "for in Room B".
func TestAPlaceIsSaidAsOne(t *testing.T) {
	eng, conf := harbour(t)
	st := ask(t, eng, conf, "anything on customs declarations in room b?", time.Date(2026, 10, 24, 8, 0, 0, 0, time.UTC))
	assert.Contains(t, st.ResponseText, "at Harbour Days in Room B:", "answer: %s", st.ResponseText)
	assert.NotContains(t, st.ResponseText, "for in", "answer: %s", st.ResponseText)
}

// A long story can put what it asks for fourth: as many needs are searched
// as the plan has room for.
func TestALongStorysLaterNeedIsSearched(t *testing.T) {
	eng, conf := harbour(t)
	st := ask(t, eng, conf, "Our warehouse team moved into a brand new building last spring, the forklift fleet keeps breaking down every single week, "+
		"my manager constantly wants fewer delays and happier drivers, and honestly I need customs declarations for beginners explained.",
		time.Date(2026, 10, 24, 8, 0, 0, 0, time.UTC))
	assert.Contains(t, cited(st), "sun-late", "answer: %s", st.ResponseText)
}

// A sentence saying when the attendee is free sets the question's time,
// though it asks nothing itself; another story's time words set none.
func TestWhenTheAttendeeIsFreeIsTheQuestionsTime(t *testing.T) {
	eng, conf := harbour(t)
	ams, err := time.LoadLocation("Europe/Amsterdam")
	require.NoError(t, err)
	sunday := time.Date(2026, 10, 25, 9, 0, 0, 0, ams)
	st := ask(t, eng, conf, "I'm free from 1pm until 3pm. Anything on cold chain?", sunday)
	require.NotNil(t, st.Filter, "no time filter: %s", st.ResponseText)
	assert.Equal(t, []string{"sun-pm"}, cited(st), "answer: %s", st.ResponseText)
	st = ask(t, eng, conf, "Our reefer fleet grew from 1 to 3 ships last year. Anything on cold chain?", sunday)
	assert.Nil(t, st.Filter, "a story's time words: %+v", st.Filter)
}

// A listing of what is on leaves out the programme's breaks and meals,
// unless the question asks about them or nothing else is on.
func TestBrowsingListsTalksNotBreaks(t *testing.T) {
	const bundle = `{"conferences":[{"id":"c","name":"Pause Days","timezone":"Europe/Paris","starts_on":"2026-05-12","ends_on":"2026-05-12"}],
 "sessions":[
  {"id":"t1","conference_id":"c","title":"Grid batteries","format":"talk","starts_at":"2026-05-12T14:00:00+02:00","ends_at":"2026-05-12T14:45:00+02:00"},
  {"id":"b1","conference_id":"c","title":"Afternoon break","format":"other","starts_at":"2026-05-12T14:45:00+02:00","ends_at":"2026-05-12T15:15:00+02:00"},
  {"id":"t2","conference_id":"c","title":"Heat pumps","format":"talk","starts_at":"2026-05-12T15:15:00+02:00","ends_at":"2026-05-12T16:00:00+02:00"}],
 "exhibitors":[],"speakers":[]}`
	eng, conf := bundled(t, bundle)
	now := time.Date(2026, 5, 12, 11, 0, 0, 0, time.UTC)
	st := ask(t, eng, conf, "what's on this afternoon?", now)
	assert.ElementsMatch(t, []string{"t1", "t2"}, cited(st), "answer %q", st.ResponseText)
	st = ask(t, eng, conf, "what's on after 2pm?", now)
	assert.NotContains(t, cited(st), "b1", "a listing, answer %q", st.ResponseText)
	for _, q := range []string{"when is the break this afternoon?", "is there an afternoon break?"} {
		st = ask(t, eng, conf, q, now)
		assert.Contains(t, cited(st), "b1", "%q asks for the break: answer %q", q, st.ResponseText)
	}
}

// Two short questions in one message are each searched, and the answer
// says which of them the programme has nothing on.
func TestTwoQuestionsInOneAreEachAnswered(t *testing.T) {
	eng, conf := harbour(t)
	st := ask(t, eng, conf, "when is the customs clinic and where is the gala dinner?", time.Date(2026, 10, 24, 8, 0, 0, 0, time.UTC))
	assert.Equal(t, []string{"sun-late"}, cited(st), "answer: %s", st.ResponseText)
	assert.Contains(t, st.ResponseText, "nothing on “gala dinner”", "answer: %s", st.ResponseText)
}

// A speaker the question names comes with every talk of theirs that meets
// its time, not only the one that scores best.
func TestANamedSpeakerComesWithAllTheirTalks(t *testing.T) {
	const bundle = `{"conferences":[{"id":"c","name":"Shelf Days","timezone":"Europe/London","starts_on":"2027-03-25","ends_on":"2027-03-26"}],
	 "sessions":[
	  {"id":"s1","conference_id":"c","title":"Copyright exceptions you are not using","description":"Preservation copying and text mining.","format":"talk","room":"Cathedral Room","starts_at":"2027-03-25T15:15:00Z","ends_at":"2027-03-25T16:15:00Z","speaker_ids":["p1"]},
	  {"id":"s2","conference_id":"c","title":"Orphan works and rights clearance","description":"Diligent search and licensing for digitisation.","format":"talk","room":"Cathedral Room","starts_at":"2027-03-26T13:45:00Z","ends_at":"2027-03-26T14:45:00Z","speaker_ids":["p2","p1"]},
	  {"id":"s3","conference_id":"c","title":"Story sacks for early years","description":"Sensory play.","format":"workshop","room":"Govan Studio","starts_at":"2027-03-26T10:30:00Z","ends_at":"2027-03-26T12:30:00Z","speaker_ids":["p2"]}],
	 "exhibitors":[],
	 "speakers":[{"id":"p1","conference_id":"c","name":"Dr Priya Natarajan","job_title":"Copyright Adviser","bio":"Priya advises staff and researchers on copyright, licensing and digitisation rights across a large university library, and teaches copyright on professional courses. Before that she spent ten years in publishing contracts, negotiating licences for journals, e-books and archives, and she now sits on two national working groups on text and data mining and orphan works.","session_ids":["s1","s2"]},
	  {"id":"p2","conference_id":"c","name":"Catherine Blythe","job_title":"Archivist","bio":"Runs digitisation projects.","session_ids":["s2","s3"]}]}`
	eng, conf := bundled(t, bundle)
	thursday := time.Date(2027, 3, 25, 9, 0, 0, 0, time.UTC)
	st := ask(t, eng, conf, "when does Priya Natarajan speak?", thursday)
	assert.Subset(t, cited(st), []string{"s1", "s2"}, "answer: %s", st.ResponseText)
	st = ask(t, eng, conf, "who is priya natarajan", thursday)
	assert.Contains(t, cited(st), "p1", "the person asked about: %s", st.ResponseText)
	st = ask(t, eng, conf, "is Priya Natarajan speaking tomorrow?", thursday)
	assert.Contains(t, cited(st), "s2", "answer: %s", st.ResponseText)
	assert.NotContains(t, cited(st), "s1", "answer: %s", st.ResponseText)
}

// A price asked that the programme does not give is said so, and no
// closest match stands in for it.
func TestAPriceTheProgrammeLacksIsSaidSo(t *testing.T) {
	eng, conf := harbour(t)
	st := ask(t, eng, conf, "how much is a day ticket for the customs clinic?", harbourSaturday)
	assert.Contains(t, st.ResponseText, "doesn't give prices", "answer: %s", st.ResponseText)
}

// Of a slot the programme repeats each day, the one on now or still to
// come is chosen before other days' that scored higher.
func TestTodaysRepeatIsChosen(t *testing.T) {
	const bundle = `{"conferences":[{"id":"c","name":"Shelf Days","timezone":"UTC","starts_on":"2027-03-25","ends_on":"2027-03-28"}],
	 "sessions":[
	  {"id":"thu","conference_id":"c","title":"Lunch in the hall","description":"Hot lunch, soup and sandwiches among the stands: lunch lunch.","format":"other","starts_at":"2027-03-25T12:00:00Z","ends_at":"2027-03-25T13:00:00Z"},
	  {"id":"fri","conference_id":"c","title":"Lunch in the hall","description":"Buffet lunch among the stands: lunch.","format":"other","starts_at":"2027-03-26T12:00:00Z","ends_at":"2027-03-26T13:00:00Z"},
	  {"id":"sat","conference_id":"c","title":"Lunch in the hall","description":"Buffet.","format":"other","starts_at":"2027-03-27T12:00:00Z","ends_at":"2027-03-27T13:00:00Z"},
	  {"id":"sun","conference_id":"c","title":"Farewell lunch","description":"Packed lunch to take away: lunch.","format":"other","starts_at":"2027-03-28T12:00:00Z","ends_at":"2027-03-28T13:00:00Z"}],
	 "exhibitors":[],"speakers":[]}`
	eng, conf := bundled(t, bundle)
	st := ask(t, eng, conf, "how long is lunch", time.Date(2027, 3, 27, 12, 10, 0, 0, time.UTC))
	assert.Contains(t, cited(st), "sat", "answer: %s", st.ResponseText)
}

// "During lunch" asks what else is on then, unless the question has a
// topic of its own: gluten-free food at lunch is the lunch itself.
func TestALandmarkAnswersATopicDuringItself(t *testing.T) {
	const bundle = `{"conferences":[{"id":"c","name":"Vet Days","timezone":"UTC","starts_on":"2027-10-12","ends_on":"2027-10-12"}],
	 "sessions":[
	  {"id":"lunch","conference_id":"c","title":"Lunch","description":"Hot and cold buffet. Gluten-free, vegetarian and vegan dishes are labelled.","format":"other","starts_at":"2027-10-12T12:30:00Z","ends_at":"2027-10-12T13:45:00Z"},
	  {"id":"demo","conference_id":"c","title":"Lunchtime demo: handheld ultrasound","description":"Point-of-care ultrasound for small animals.","format":"talk","starts_at":"2027-10-12T12:45:00Z","ends_at":"2027-10-12T13:15:00Z"},
	  {"id":"talk","conference_id":"c","title":"Feline dentistry","description":"Extractions and nerve blocks.","format":"talk","starts_at":"2027-10-12T10:00:00Z","ends_at":"2027-10-12T11:00:00Z"}],
	 "exhibitors":[],"speakers":[]}`
	eng, conf := bundled(t, bundle)
	at := time.Date(2027, 10, 12, 9, 0, 0, 0, time.UTC)
	st := ask(t, eng, conf, "is there gluten free food at lunch?", at)
	assert.Equal(t, []string{"lunch"}, cited(st), "answer: %s", st.ResponseText)
	st = ask(t, eng, conf, "anything on during lunch?", at)
	assert.Equal(t, []string{"demo"}, cited(st), "answer: %s", st.ResponseText)
}

// A speaker recommended who works for an exhibitor is no occasion to say
// that no exhibitor fits: their company is here.
func TestASpeakersCompanyHereIsNotSaidMissing(t *testing.T) {
	const bundle = `{"conferences":[{"id":"c","name":"Vet Days","timezone":"UTC","starts_on":"2027-10-12","ends_on":"2027-10-12"}],
	 "sessions":[{"id":"s1","conference_id":"c","title":"Ultrasound-guided cystocentesis","description":"Hands-on scanning stations.","format":"workshop","speaker_ids":["p1"],"starts_at":"2027-10-12T10:00:00Z","ends_at":"2027-10-12T12:00:00Z"}],
	 "exhibitors":[{"id":"e1","conference_id":"c","name":"Emerald Imaging Systems","description":"Portable ultrasound machines.","booth":"A-08"},
	  {"id":"e2","conference_id":"c","name":"Hollybrook Pet Nutrition","description":"Renal diets for cats and dogs.","booth":"A-01"}],
	 "speakers":[{"id":"p1","conference_id":"c","name":"Sam Okafor","job_title":"Applications specialist","company":"Emerald Imaging Systems","bio":"Sam trains practice teams on ultrasound set-up.","session_ids":["s1"]}]}`
	eng, conf := bundled(t, bundle)
	st := ask(t, eng, conf, "which company is sam okafor with", time.Date(2027, 10, 12, 9, 0, 0, 0, time.UTC))
	require.Contains(t, cited(st), "p1", "answer: %s", st.ResponseText)
	assert.NotContains(t, st.ResponseText, "no exhibitors", "answer: %s", st.ResponseText)
}
