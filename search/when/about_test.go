package when_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/when"
)

// berlin runs Sat 24 to Mon 26 October 2026, across the end of summer time
// (03:00 CEST on Sun 25 October becomes 02:00 CET): it opens at 09:00 CEST
// and closes at 17:30 CET.
var (
	berlin    = mustLoad("Europe/Berlin")
	berlinCal = when.Calendar{
		Name: "Harbour Summit 2026", Venue: "Kongresshalle, Am Hafen 3", Location: berlin,
		Days:    days(berlin, time.October, 24, 26),
		Opening: when.Landmark{Title: "Registration and coffee", Start: oct(24, 9, 0), End: oct(24, 10, 0), Format: "other"},
		Closing: when.Landmark{Title: "Closing keynote", Start: oct(26, 16, 30), End: oct(26, 17, 30), Format: "keynote"},
		Hours:   []when.Span{{From: oct(24, 9, 0), To: oct(24, 18, 0)}, {From: oct(25, 9, 0), To: oct(25, 18, 0)}, {From: oct(26, 9, 0), To: oct(26, 17, 30)}},
	}
)

func oct(day, h, m int) time.Time { return time.Date(2026, time.October, day, h, m, 0, 0, berlin) }

func TestAboutAnswersFromTheCalendarAndTheClock(t *testing.T) {
	const runs = "Harbour Summit 2026 runs from Sat 24 to Mon 26 October."
	const local = " Times are local (Europe/Berlin). The clocks go back one hour at 03:00 local time on Sun 25 Oct (CEST to CET); the programme's times after it are CET."
	const opens = " The programme starts at 09:00 on Sat 24 Oct with “Registration and coffee”." + local
	const closes = " The last session, “Closing keynote”, ends at 17:30 on Mon 26 Oct." + local
	for _, c := range []struct {
		msg  string
		now  time.Time
		want string
	}{
		{"When does the conference start?", oct(20, 12, 0), runs + opens + " That is in 4 days."},
		{"when does it all kick off", oct(23, 20, 0), runs + opens + " That is tomorrow."},
		{"what time does the Harbour Summit get going?", oct(23, 20, 0), runs + opens + " That is tomorrow."},
		// The day after the clock change: Monday's 17:30 is CET, and day 2 is Sunday.
		{"when does the summit end?", oct(25, 11, 0), runs + closes + " It is on now: today is day 2 of 3."},
		{"What are the dates?", oct(28, 9, 0), "Harbour Summit 2026 ran from Sat 24 to Mon 26 October. It ended on Mon 26 Oct."},
		{"how long is the conference?", time.Time{}, "Harbour Summit 2026 runs for 3 days, from Sat 24 to Mon 26 October."},
		{"what time does each day finish?", oct(20, 12, 0), runs + " Each day: Sat 24 Oct 09:00–18:00, Sun 25 Oct 09:00–18:00 and Mon 26 Oct 09:00–17:30." + local + " That is in 4 days."},
		{"When is Harbour Summit happening and where exactly?", oct(20, 12, 0), "Harbour Summit 2026 is at Kongresshalle, Am Hafen 3, from Sat 24 to Mon 26 October. That is in 4 days."},
		{"where is the conference being held?", oct(20, 12, 0), "Harbour Summit 2026 is at Kongresshalle, Am Hafen 3, from Sat 24 to Mon 26 October."},
		{"what's the venue address", oct(20, 12, 0), "Harbour Summit 2026 is at Kongresshalle, Am Hafen 3, from Sat 24 to Mon 26 October."},
	} {
		got, rest := when.About(c.msg, c.now, berlinCal)
		assert.Equal(t, c.want, got, "About(%q)", c.msg)
		for _, w := range strings.Fields(strings.Trim(rest, " ?")) {
			assert.Contains(t, []string{"does", "is", "being", "what's", "and"}, w, "About(%q) leaves only how it asks", c.msg)
		}
	}
}

func TestAboutSaysWhatTheRecordLacks(t *testing.T) {
	cal := berlinCal
	cal.Venue = ""
	got, _ := when.About("where is it?", time.Time{}, cal)
	assert.Equal(t, "The programme does not say where Harbour Summit 2026 is held; it runs from Sat 24 to Mon 26 October.", got)
	got, _ = when.About("when is the conference?", time.Time{}, when.Calendar{Name: "Harbour Summit 2026"})
	assert.Empty(t, got, "no days known: nothing to say")
}

// A question about something else at the conference is no question about
// it: either no answer, or words left for the caller to search.
func TestAboutLeavesOtherQuestionsAlone(t *testing.T) {
	for _, msg := range []string{"when does the keynote start?", "what's on?", "does it start tomorrow?", "talks on harbour logistics"} {
		got, _ := when.About(msg, oct(20, 12, 0), berlinCal)
		assert.Empty(t, got, "About(%q)", msg)
	}
	for msg, left := range map[string]string{
		"when does the conference dinner start?": "dinner",
		"is there parking at the venue?":         "parking",
	} {
		_, rest := when.About(msg, oct(20, 12, 0), berlinCal)
		assert.Contains(t, rest, left, "About(%q) leaves what it does not answer", msg)
	}
}

// Whether the clocks change is answered from the time zone database: when,
// which way, and the zone's name or offset; in the past tense once it has
// happened, and with a no where they do not.
func TestAboutTheClocksChanging(t *testing.T) {
	for _, c := range []struct {
		msg  string
		now  time.Time
		cal  when.Calendar
		want string
	}{
		{"do the clocks change this weekend?", oct(20, 12, 0), berlinCal,
			"The clocks go back one hour at 03:00 local time on Sun 25 Oct (CEST to CET); the programme's times after it are CET."},
		{"is there a daylight saving time change?", oct(25, 11, 0), berlinCal,
			"The clocks went back one hour at 03:00 local time on Sun 25 Oct (CEST to CET); the programme's times after it are CET."},
		{"do the clocks go forward?", time.Time{}, when.Calendar{Name: "Chai Days", Location: mustLoad("Asia/Kolkata"), Days: days(mustLoad("Asia/Kolkata"), time.October, 24, 26)},
			"The clocks don't change during Chai Days; all its times are Asia/Kolkata time."},
		{"when do the clocks change?", time.Time{}, when.Calendar{Name: "Wild", Location: mustLoad("America/Santiago"), Days: santiagoDays()},
			"The clocks go back one hour at 00:00 local time on Sun 4 Apr (UTC−03:00 to UTC−04:00); the programme's times after it are UTC−04:00."},
	} {
		got, _ := when.About(c.msg, c.now, c.cal)
		assert.Equal(t, c.want, got, "About(%q)", c.msg)
		assert.True(t, when.AsksClocks(c.msg), c.msg)
	}
	assert.False(t, when.AsksClocks("any talks on time management?"))
	got, _ := when.About("do the clocks change?", time.Time{}, when.Calendar{Name: "No Days", Location: berlin})
	assert.Empty(t, got, "no days known: nothing to say of its clocks")
}

func santiagoDays() []time.Time {
	loc := mustLoad("America/Santiago")
	return []time.Time{time.Date(2027, time.April, 3, 12, 0, 0, 0, loc), time.Date(2027, time.April, 4, 12, 0, 0, 0, loc)}
}

// When a tour or social event ends the programme after its last talk, the
// end is said as the last talk and then the event.
func TestAboutTheEndIsTheLastTalkThenTheEvent(t *testing.T) {
	cal := berlinCal
	cal.LastTalk = cal.Closing
	cal.Closing = when.Landmark{Title: "Harbour boat tour", Start: oct(26, 18, 0), End: oct(26, 20, 0), Format: "other"}
	got, _ := when.About("when does the conference end?", time.Time{}, cal)
	assert.Contains(t, got, "The last talk, “Closing keynote”, ends at 17:30 on Mon 26 Oct; “Harbour boat tour” follows until 20:00.")
	got, _ = when.About("when did the conference end?", oct(30, 9, 0), cal)
	assert.Contains(t, got, "ended at 17:30 on Mon 26 Oct; “Harbour boat tour” followed until 20:00.")
}
