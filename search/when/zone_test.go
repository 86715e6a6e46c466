package when_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/when"
)

func utc(m time.Month, d, h, min int) time.Time { return time.Date(2026, m, d, h, min, 0, 0, time.UTC) }

func TestParseTodayIsTheConferencesLocalToday(t *testing.T) {
	// 17:30 UTC on Tue 20 Oct is 01:30 on Wed 21 Oct in Singapore.
	now := utc(time.October, 20, 17, 30)
	runParse(t, sgCal, []parseCase{
		{msg: "today", now: now, from: utc(time.October, 20, 16, 0), to: utc(time.October, 21, 16, 0), rest: "", label: "today (Wed 21 Oct)"},
		{msg: "this morning", now: now, from: sg(21, 6, 0), to: sg(21, 12, 0), rest: ""},
		{msg: "what's on now", now: now, from: now, ongoing: true, rest: "what's on"},
	})
}

// amsCal runs Sat 24 to Mon 26 Oct 2026 in Amsterdam; summer time ends on
// Sunday 25 Oct at 03:00, when clocks go back to 02:00.
var amsCal = when.Calendar{Location: amsterdam, Days: days(amsterdam, time.October, 24, 26)}

func TestParseAcrossTheEndOfSummerTime(t *testing.T) {
	now := time.Date(2026, 10, 24, 12, 0, 0, 0, amsterdam)
	runParse(t, amsCal, []parseCase{
		// Sun 25 Oct starts at 00:00 CEST (22:00 UTC the day before) and
		// ends at 00:00 CET (23:00 UTC): 25 hours.
		{msg: "tomorrow", now: now, from: utc(time.October, 24, 22, 0), to: utc(time.October, 25, 23, 0), rest: ""},
		{msg: "the afternoon of day 2", now: now, from: utc(time.October, 25, 11, 0), to: utc(time.October, 25, 16, 0), rest: ""},
		{msg: "day 2 before 3am", now: now, from: utc(time.October, 24, 22, 0), to: utc(time.October, 25, 2, 0), rest: ""},
	})
	f := when.Parse("tomorrow", now, amsCal).Filter
	assert.Equal(t, 25*time.Hour, f.To.Sub(f.From), "tomorrow lasts")
}

func TestMatchAfternoonAcrossTheEndOfSummerTime(t *testing.T) {
	now := time.Date(2026, 10, 24, 12, 0, 0, 0, amsterdam)
	f := when.Parse("the afternoon of day 2", now, amsCal).Filter
	for _, c := range []struct {
		start time.Time
		want  bool
	}{
		{time.Date(2026, 10, 25, 14, 0, 0, 0, amsterdam), true},
		{utc(time.October, 25, 13, 59), true},  // 14:59 CET
		{utc(time.October, 25, 11, 0), true},   // 12:00 CET
		{utc(time.October, 25, 10, 59), false}, // 11:59 CET
		{utc(time.October, 25, 16, 0), false},  // 17:00 CET
	} {
		assert.Equal(t, c.want, f.Match(c.start, c.start.Add(time.Hour), "", "", ""), "Match(%v)", c.start)
	}
}

// nyCal runs Sat 7 to Mon 9 Mar 2026 in New York; summer time starts on
// Sunday 8 Mar at 02:00, when clocks go forward to 03:00.
var nyCal = when.Calendar{Location: newYork, Days: days(newYork, time.March, 7, 9)}

func TestParseAcrossTheStartOfSummerTime(t *testing.T) {
	now := utc(time.March, 7, 15, 0) // 10:00 EST on day 1
	runParse(t, nyCal, []parseCase{
		// Sun 8 Mar starts at 00:00 EST (05:00 UTC) and ends at 00:00 EDT
		// (04:00 UTC on the 9th): 23 hours.
		{msg: "day 2", now: now, from: utc(time.March, 8, 5, 0), to: utc(time.March, 9, 4, 0), rest: ""},
		{msg: "sunday morning", now: now, from: utc(time.March, 8, 10, 0), to: utc(time.March, 8, 16, 0), rest: ""},
		{msg: "today", now: now, from: utc(time.March, 7, 5, 0), to: utc(time.March, 8, 5, 0), rest: ""},
	})
	f := when.Parse("tomorrow", now, nyCal).Filter
	assert.Equal(t, 23*time.Hour, f.To.Sub(f.From), "tomorrow lasts")
}

func TestParseWithoutLocationUsesUTC(t *testing.T) {
	cal := when.Calendar{Days: []time.Time{utc(time.May, 4, 0, 0), utc(time.May, 5, 0, 0)}}
	runParse(t, cal, []parseCase{
		{msg: "day 2 afternoon", now: utc(time.May, 4, 9, 0), from: utc(time.May, 5, 12, 0), to: utc(time.May, 5, 17, 0), rest: ""},
	})
}

func TestParseWhenSummerTimeSkipsMidnight(t *testing.T) {
	// In Santiago, Sun 6 Sep 2026 starts at 01:00 (-03), when the clocks
	// jump from 00:00 (-04): the day is 23 hours long.
	santiago := mustLoad("America/Santiago")
	// time.Date cannot make midnight of 6 Sep there, so the days are dates
	// at UTC midnight, which Calendar accepts too.
	cal := when.Calendar{Location: santiago, Days: days(time.UTC, time.September, 5, 7)}
	now := time.Date(2026, 9, 5, 10, 0, 0, 0, santiago)
	runParse(t, cal, []parseCase{
		{msg: "day 2", now: now, from: utc(time.September, 6, 4, 0), to: utc(time.September, 7, 3, 0), rest: ""},
		{msg: "today", now: now, from: utc(time.September, 5, 4, 0), to: utc(time.September, 6, 4, 0), rest: ""},
	})
	f := when.Parse("day 2 morning", now, cal).Filter
	g, why, ok := f.Widen(cal)
	assert.True(t, ok, "Widen = [%v, %v), %q, %v", g.From, g.To, why, ok)
	assert.True(t, g.From.Equal(utc(time.September, 6, 4, 0)), "Widen = [%v, %v), %q, %v", g.From, g.To, why, ok)
	assert.Equal(t, "the whole of Sunday 6 September instead of the morning", why, "Widen")
	widenAll(t, g, cal)
}
