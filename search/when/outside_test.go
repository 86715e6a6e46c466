package when_test

import (
	"testing"
	"time"

	"github.com/erleah/erleah-agent/search/when"
)

// weekendCal runs Fri 13 to Sun 15 March 2026 in Singapore.
var weekendCal = when.Calendar{Name: "FOSSASIA Summit", Location: singapore, Days: days(singapore, time.March, 13, 15)}

func mar(day int) time.Time { return time.Date(2026, time.March, day, 0, 0, 0, 0, singapore) }

func TestParseOutsideTheConference(t *testing.T) {
	friday := mar(13).Add(9 * time.Hour)
	const runs = "FOSSASIA Summit runs from Fri 13 to Sun 15 March; "
	runParse(t, weekendCal, []parseCase{
		{msg: "anything on Monday?", now: friday, from: mar(16), to: mar(17), rest: "anything?",
			outside: runs + "Monday 16 March is after it."},
		{msg: "what's on on Thursday", now: friday, from: mar(19), to: mar(20), rest: "what's on",
			outside: runs + "Thursday 19 March is after it."},
		{msg: "12 March", now: friday, from: mar(12), to: mar(13), rest: "",
			outside: runs + "Thursday 12 March is before it."},
		{msg: "day 5", now: friday, from: mar(17), to: mar(18), rest: "",
			outside: "FOSSASIA Summit runs for 3 days, from Fri 13 to Sun 15 March; there is no day 5."},
		{msg: "tomorrow", now: mar(15).Add(20 * time.Hour), from: mar(16), to: mar(17), rest: "",
			outside: runs + "tomorrow (Mon 16 Mar) is after it."},
		{msg: "today", now: mar(10).Add(8 * time.Hour), from: mar(10), to: mar(11), rest: "",
			outside: runs + "today (Tue 10 Mar) is before it."},
		{msg: "this weekend", now: mar(10), from: mar(14), to: mar(16), rest: ""},
		{msg: "weekend workshops", now: mar(10), from: mar(14), to: mar(16), formats: []string{"workshop"}, rest: ""},
		{msg: "any weekend workshops?", now: mar(10), from: mar(14), to: mar(16), formats: []string{"workshop"}, rest: "any?"},
		{msg: "I dread the cutover weekend", now: mar(10), rest: "I dread the cutover weekend"},
		{msg: "what is on all weekend?", now: mar(10), from: mar(14), to: mar(16), rest: "what is on all?"},
		{msg: "rust talks over the weekend", now: mar(10), from: mar(14), to: mar(16), rest: "rust talks"},
		// A conference day already past is still the one meant.
		{msg: "what was on friday", now: mar(15).Add(9 * time.Hour), from: mar(13), to: mar(14), rest: "what was"},
	})
}

func TestParseOutsideNamesAGap(t *testing.T) {
	cal := when.Calendar{Location: singapore, Days: []time.Time{mar(9), mar(10), mar(12)}}
	runParse(t, cal, []parseCase{
		{msg: "wednesday", now: mar(9), from: mar(11), to: mar(12), rest: "",
			outside: "The conference runs from Mon 9 to Thu 12 March; Wednesday 11 March is not one of its days."},
	})
}

func TestParseOutsideOneDayConference(t *testing.T) {
	cal := when.Calendar{Location: singapore, Days: []time.Time{mar(9)}}
	runParse(t, cal, []parseCase{
		{msg: "day 2", now: mar(9), from: mar(10), to: mar(11), rest: "",
			outside: "The conference runs for 1 day, on Mon 9 March; there is no day 2."},
		{msg: "yesterday", now: mar(9), from: mar(8), to: mar(9), rest: "",
			outside: "The conference runs on Mon 9 March; yesterday (Sun 8 Mar) is before it."},
	})
}

// A date no month has is said, not read as another day ("the 31st" of
// the next month that has one).
func TestParseOutsideNoSuchDate(t *testing.T) {
	runParse(t, weekendCal, []parseCase{
		{msg: "talks on the 31st of February", now: mar(10), rest: "talks",
			outside: "FOSSASIA Summit runs from Fri 13 to Sun 15 March; February has no day 31."},
		{msg: "april 31", now: mar(10), rest: "",
			outside: "FOSSASIA Summit runs from Fri 13 to Sun 15 March; April has no day 31."},
	})
}
