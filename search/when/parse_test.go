package when_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/search/when"
)

// The conference runs Tue 20 to Thu 22 Oct 2026 in Singapore; unless a case
// says otherwise, it is Tue 20 Oct, 10:30 there.

func TestParseDays(t *testing.T) {
	runParse(t, sgCal, []parseCase{
		{msg: "what's on today?", from: sg(20, 0, 0), to: sg(21, 0, 0), rest: "what's on?", label: "today (Tue 20 Oct)"},
		{msg: "anything tomorrow", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: "anything", label: "tomorrow (Wed 21 Oct)"},
		{msg: "what's on tonight", from: sg(20, 17, 0), to: sg(21, 0, 0), rest: "what's on", label: "tonight (Tue 20 Oct)"},
		{msg: "tomorrow night", from: sg(21, 17, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "the day after tomorrow", from: sg(22, 0, 0), to: sg(23, 0, 0), rest: ""},
		{msg: "keynotes on Thursday", from: sg(22, 0, 0), to: sg(23, 0, 0), formats: []string{"keynote"}, rest: "", label: "Thu 22 Oct, keynotes"},
		{msg: "WEDNESDAY", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "talks on wed", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: "talks"},
		{msg: "what is on thursday's programme", from: sg(22, 0, 0), to: sg(23, 0, 0), rest: "what is on programme"},
		{msg: "any workshops on day 2?", from: sg(21, 0, 0), to: sg(22, 0, 0), formats: []string{"workshop"}, rest: "any?", label: "day 2 (Wed 21 Oct), workshops"},
		{msg: "day three", from: sg(22, 0, 0), to: sg(23, 0, 0), rest: ""},
		{msg: "on the second day", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "the 2nd day", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "first day", from: sg(20, 0, 0), to: sg(21, 0, 0), rest: ""},
		{msg: "the last day", from: sg(22, 0, 0), to: sg(23, 0, 0), rest: "", label: "the last day (Thu 22 Oct)"},
		{msg: "final day", from: sg(22, 0, 0), to: sg(23, 0, 0), rest: ""},
		{msg: "21 October", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "October 21", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "on Oct 21st, 2026", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "the 21st of october", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "on the 22nd", from: sg(22, 0, 0), to: sg(23, 0, 0), rest: ""},
		{msg: "I can only come on the 22nd: any security talks that day?", from: sg(22, 0, 0), to: sg(23, 0, 0), rest: "I can only come: any security talks?"},
		{msg: "what happened that day", rest: "what happened that day"},
		{msg: "how to start a weekend coding club", rest: "how to start a weekend coding club"},
		{msg: "Before my flight at 4 I can only stay until about 1pm, anything on telehealth I can still catch today?", now: sg(20, 9, 30),
			from: sg(20, 9, 30), to: sg(20, 13, 0), ongoing: true, rest: "I can only stay, anything on telehealth?"},
		{msg: "I have to leave for my train at quarter past three. Anything on retrofit I can still catch?", now: sg(20, 14, 5),
			from: sg(20, 14, 5), to: sg(20, 15, 15), ongoing: true, rest: "I have to. Anything on retrofit?"},
		{msg: "My flight's at 3 so I have to leave here by 12:30. Anything on retrofit?", now: sg(20, 9, 50),
			from: sg(20, 9, 50), to: sg(20, 12, 30), rest: "so I have to. Anything on retrofit?"},
		{msg: "before my flight at 4, any retrofit?", now: sg(20, 14, 0),
			from: sg(20, 14, 0), to: sg(20, 16, 0), rest: "any retrofit?"},
		{msg: "our train is at 5, any retrofit talks?", now: sg(20, 14, 0),
			from: sg(20, 14, 0), to: sg(20, 17, 0), rest: "any retrofit talks?"},
		{msg: "any retrofit talks I can catch before my 3pm meeting?", now: sg(20, 13, 30),
			from: sg(20, 13, 30), to: sg(20, 15, 0), rest: "any retrofit talks I can catch?"},
		{msg: "I'm free till 3, anything on heat pumps?", now: sg(20, 13, 30),
			from: sg(20, 13, 30), to: sg(20, 15, 0), rest: "I'm, anything on heat pumps?"},
		{msg: "until our 4.30 train, anything on heat pumps?", now: sg(20, 13, 30),
			from: sg(20, 13, 30), to: sg(20, 16, 30), rest: "anything on heat pumps?"},
		{msg: "I've got a 1pm flight out of town, what can I still catch before I leave?", now: sg(20, 9, 20),
			from: sg(20, 9, 20), to: sg(20, 13, 0), ongoing: true, rest: "what?"},
		{msg: "I've only got until 2 today, which talks can I still catch?", now: sg(20, 9, 20),
			from: sg(20, 9, 20), to: sg(20, 14, 0), ongoing: true, rest: "I've only got, which talks?"},
		{msg: "a 3 day flight planning course", rest: "a 3 day flight planning course"},
		{msg: "what time is the evening reception and where is it", rest: "what time is the evening reception and where is it"},
		{msg: "I hack every weekend", rest: "I hack every weekend"},
		{msg: "21st", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "21/10", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "10/21", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "2026-10-21", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "talks on the 18th floor", rest: "talks on the 18th floor"},
		{msg: "does anyone here sell linear axes / 7th axis", rest: "does anyone here sell linear axes / 7th axis"},
		{msg: "anything on heat pumps on the 21st?", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: "anything on heat pumps?"},
		{msg: "the 21st morning", from: sg(21, 6, 0), to: sg(21, 12, 0), rest: ""},
		{msg: "24/7 support", rest: "24/7 support"},
		{msg: "1/2 of the talks", rest: "1/2 of the talks"},
		{msg: "next week", rest: "next week"},
		{msg: "what are the keynotes this year", formats: []string{"keynote"}, rest: "what are the"},
		{msg: "this year's workshops on rust?", formats: []string{"workshop"}, rest: "on rust?"},
		{msg: "who rents out GPUs for a training run next quarter", rest: "who rents out GPUs for a training run next quarter"},
	})
}

func TestParsePartsOfDay(t *testing.T) {
	runParse(t, sgCal, []parseCase{
		{msg: "any maths workshops this arvo?", from: sg(20, 12, 0), to: sg(20, 17, 0), formats: []string{"workshop"}, rest: "any maths?"},
		// "Good" before a part of the day greets; before "on this afternoon" it asks.
		{msg: "anything good on this arvo?", from: sg(20, 12, 0), to: sg(20, 17, 0), rest: "anything good?"},
		{msg: "good afternoon, anything on heat pumps", rest: "good afternoon, anything on heat pumps"},
		// A hyphenated word's "on" is no "on this afternoon".
		{msg: "anything hands-on this afternoon?", from: sg(20, 12, 0), to: sg(20, 17, 0), formats: []string{"workshop"}, rest: "anything?"},
		{msg: "a follow-on this afternoon?", from: sg(20, 12, 0), to: sg(20, 17, 0), rest: "a follow-on?"},
		{msg: "this morning", from: sg(20, 6, 0), to: sg(20, 12, 0), rest: "", label: "this morning (Tue 20 Oct)"},
		{msg: "in the afternoon", from: sg(20, 12, 0), to: sg(20, 17, 0), rest: ""},
		// A part of the day as a kind of session: any day's evening.
		{msg: "evening talks", rest: "talks"},
		{msg: "is there morning yoga?", rest: "is there yoga?"},
		{msg: "any yoga in the mornings?", rest: "any yoga?"},
		{msg: "over lunch", from: sg(20, 11, 30), to: sg(20, 14, 0), rest: "", label: "today lunchtime (Tue 20 Oct)"},
		{msg: "thursday lunchtime", from: sg(22, 11, 30), to: sg(22, 14, 0), rest: "", label: "Thu 22 Oct lunchtime"},
		{msg: "lunchtime sessions", from: sg(20, 11, 30), to: sg(20, 14, 0), rest: "sessions"},
		{msg: "what's on after lunch?", from: sg(20, 13, 0), to: sg(20, 17, 0), rest: "what's on?", label: "today after lunch (Tue 20 Oct)"},
		{msg: "anything before lunch tomorrow?", from: sg(21, 6, 0), to: sg(21, 12, 0), rest: "anything?"},
		{msg: "anything in the morning?", from: sg(20, 6, 0), to: sg(20, 12, 0), rest: "anything?"},
		{msg: "what's on tomorrow morning", from: sg(21, 6, 0), to: sg(21, 12, 0), rest: "what's on", label: "tomorrow morning (Wed 21 Oct)"},
		{msg: "the afternoon of day 2", from: sg(21, 12, 0), to: sg(21, 17, 0), rest: "", label: "the afternoon of day 2 (Wed 21 Oct)"},
		{msg: "day 2 in the evening", from: sg(21, 17, 0), to: sg(22, 0, 0), rest: ""},
		{msg: "thursday afternoon", from: sg(22, 12, 0), to: sg(22, 17, 0), rest: "", label: "the afternoon of Thu 22 Oct"},
		// The morning has ended: the next conference day's.
		{msg: "morning", now: sg(20, 13, 0), from: sg(21, 6, 0), to: sg(21, 12, 0), rest: "", label: "tomorrow morning (Wed 21 Oct)"},
		// "This morning" stays today's even when it has ended.
		{msg: "this morning", now: sg(20, 13, 0), from: sg(20, 6, 0), to: sg(20, 12, 0), rest: ""},
		// Before the conference: its first day.
		{msg: "afternoon", now: sg(18, 9, 0), from: sg(20, 12, 0), to: sg(20, 17, 0), rest: "", label: "the afternoon of Tue 20 Oct"},
		// After the last day's morning, no day is left: today's.
		{msg: "morning", now: sg(22, 20, 0), from: sg(22, 6, 0), to: sg(22, 12, 0), rest: ""},
		{msg: "good morning, anything in Hall 1?", rooms: []string{"Hall 1"}, rest: "good morning, anything?"},
	})
}

func TestParseClockTimes(t *testing.T) {
	runParse(t, sgCal, []parseCase{
		{msg: "at 3pm", from: sg(20, 15, 0), to: sg(20, 15, 15), ongoing: true, rest: "", label: "today at 15:00 (Tue 20 Oct)"},
		{msg: "at 15:00", from: sg(20, 15, 0), to: sg(20, 15, 15), ongoing: true, rest: ""},
		{msg: "at 3", from: sg(20, 15, 0), to: sg(20, 15, 15), ongoing: true, rest: ""},
		{msg: "3:30 p.m. talks", from: sg(20, 15, 30), to: sg(20, 15, 45), ongoing: true, rest: "talks"},
		{msg: "after 4", from: sg(20, 16, 0), to: sg(21, 0, 0), rest: ""},
		{msg: "talks after 4pm about databases", from: sg(20, 16, 0), to: sg(21, 0, 0), rest: "talks about databases", label: "today after 16:00 (Tue 20 Oct)"},
		{msg: "before 11", from: sg(20, 0, 0), to: sg(20, 11, 0), rest: ""},
		{msg: "before noon tomorrow", from: sg(21, 0, 0), to: sg(21, 12, 0), rest: ""},
		{msg: "around 10", from: sg(20, 9, 15), to: sg(20, 10, 45), rest: ""},
		{msg: "at about 11", from: sg(20, 10, 15), to: sg(20, 11, 45), rest: ""},
		{msg: "between 2 and 4 pm", from: sg(20, 14, 0), to: sg(20, 16, 0), rest: "", label: "today 14:00–16:00 (Tue 20 Oct)"},
		{msg: "between 11 and 1pm", from: sg(20, 11, 0), to: sg(20, 13, 0), rest: ""},
		{msg: "from 14:00 to 16:00", from: sg(20, 14, 0), to: sg(20, 16, 0), rest: ""},
		{msg: "2-4pm", from: sg(20, 14, 0), to: sg(20, 16, 0), rest: ""},
		{msg: "tomorrow afternoon after 3", from: sg(21, 15, 0), to: sg(21, 17, 0), rest: ""},
		{msg: "what is on right after lunch tomorrow", from: sg(21, 13, 0), to: sg(21, 17, 0), rest: "what is on"},
		{msg: "just before 11", from: sg(20, 0, 0), to: sg(20, 11, 0), rest: ""},
		{msg: "what is on at half past two", from: sg(20, 14, 30), to: sg(20, 14, 45), ongoing: true, rest: "what is on", label: "today at 14:30 (Tue 20 Oct)"},
		{msg: "after a quarter past 3", from: sg(20, 15, 15), to: sg(21, 0, 0), rest: ""},
		{msg: "quarter to one", from: sg(20, 12, 45), to: sg(20, 13, 0), ongoing: true, rest: ""},
		{msg: "half the talks", rest: "half the talks"},
		{msg: "anything until about 1pm", from: sg(20, 0, 0), to: sg(20, 13, 0), rest: "anything"},
		{msg: "AI talks late afternoon on Wed", from: sg(21, 14, 30), to: sg(21, 17, 0), rest: "AI talks", label: "Wed 21 Oct 14:30–17:00"},
		{msg: "anything tomorrow in the early morning", from: sg(21, 6, 0), to: sg(21, 9, 0), rest: "anything"},
		{msg: "a debian talk in the morning slot tomorrow", from: sg(21, 6, 0), to: sg(21, 12, 0), rest: "a debian talk"},
		// Bare hours 8 to 11 are in the morning; 9:00 has passed, so tomorrow.
		{msg: "keynote at 9", from: sg(21, 9, 0), to: sg(21, 9, 15), ongoing: true, formats: []string{"keynote"}, rest: ""},
		{msg: "talks about 5 tools", rest: "talks about 5 tools"},
		{msg: "version 2.10 release notes", rest: "version 2.10 release notes"},
		{msg: "2 to 4 people", rest: "2 to 4 people"},
	})
}

func TestParseRelative(t *testing.T) {
	runParse(t, sgCal, []parseCase{
		{msg: "what's happening now", from: sgNow, ongoing: true, rest: "what's", label: "now"},
		{msg: "anything right now in room b?", from: sgNow, ongoing: true, rooms: []string{"Room B"}, rest: "anything?"},
		{msg: "what is on at the moment", from: sgNow, ongoing: true, rest: "what is on"},
		{msg: "currently", from: sgNow, ongoing: true, rest: ""},
		// "yet" ending a question asks whether it has begun; a "yet" that
		// says no, or goes on, asks nothing of the time.
		{msg: "is there coffee yet?", from: sgNow, ongoing: true, rest: "is there coffee?", label: "now"},
		{msg: "is the expo open yet", from: sgNow, ongoing: true, rest: "is the expo open", label: "now"},
		{msg: "haven't had coffee yet", rest: "haven't had coffee yet"},
		{msg: "yet another rag talk?", rest: "yet another rag talk?"},
		{msg: "whats on rn in hall 1?", from: sgNow, ongoing: true, rooms: []string{"Hall 1"}, rest: "whats on?"},
		{msg: "anything happening atm", from: sgNow, ongoing: true, rest: "anything happening"},
		{msg: "is there an atm near the venue?", rest: "is there an atm near the venue?"},
		// The time the attendee gets there starts the window.
		{msg: "should reach by 10:15ish. whats on about rust once I get there?", from: sg(20, 10, 15), to: sg(21, 0, 0), rest: "should. whats on about rust?"},
		// How long the attendee has is the window, from now, unless a day or a part of one is named.
		{msg: "I've got 30 min before a call, what can I catch", from: sgNow, to: sgNow.Add(30 * time.Minute), rest: "what can I catch"},
		{msg: "I have 2 hours free tomorrow afternoon, any rust?", from: sg(21, 12, 0), to: sg(21, 17, 0), rest: "any rust?"},
		{msg: "we have 3 hours of footage to edit", rest: "we have 3 hours of footage to edit"},
		{msg: "I'll be there around 2pm, anything on rust?", from: sg(20, 14, 0), to: sg(21, 0, 0), rest: "I'll, anything on rust?"},
		// What started before the attendee gets there is not still to catch.
		{msg: "I get in at 11, anything on rust I can still catch?", from: sg(20, 11, 0), to: sg(21, 0, 0), rest: "I, anything on rust?"},
		{msg: "anything on now?", from: sgNow, ongoing: true, rest: "anything on?"},
		{msg: "I want to hear how others word their treaties now", rest: "I want to hear how others word their treaties now"},
		{msg: "what is in fermi now", from: sgNow, ongoing: true, rooms: []string{"Fermi (Floor 3)"}, rest: "what is"},
		{msg: "what's next?", from: sgNow, next: true, rest: "", label: "next"},
		{msg: "security talk starting?", from: sgNow, next: true, rest: "security", label: "next"},
		{msg: "any tips for a startup just starting?", rest: "any tips for a startup just starting?"},
		{msg: "up next in Fermi", from: sgNow, next: true, rooms: []string{"Fermi (Floor 3)"}, rest: ""},
		{msg: "im at the tea break, whats after this in fermi?", from: sgNow, next: true, rooms: []string{"Fermi (Floor 3)"}, rest: "im at the tea break,?"},
		{msg: "what's in fermi after this", from: sgNow, next: true, rooms: []string{"Fermi (Floor 3)"}, rest: "what's"},
		{msg: "rust talks after this one?", from: sgNow, next: true, rest: "rust talks"},
		{msg: "which keynote is coming up", from: sgNow, next: true, formats: []string{"keynote"}, rest: "which is"},
		{msg: "starting soon", from: sgNow, next: true, rest: ""},
		{msg: "what's starting now", from: sgNow, next: true, rest: "what's"},
		{msg: "free after lunch - anything on rust?", from: sg(20, 13, 0), to: sg(20, 17, 0), rest: "- anything on rust?"},
		{msg: "any robotics talk about to start?", from: sgNow, next: true, rest: "any robotics talk?"},
		{msg: "which workshops begin shortly", from: sgNow, next: true, formats: []string{"workshop"}, rest: "which"},
		// The attendee telling the time is no filter: the clock is the caller's.
		{msg: "it's nearly 3pm, anything on rust?", rest: "anything on rust?"},
		{msg: "It's almost eleven and I'm bored. Rust?", rest: "and I'm bored. Rust?"},
		{msg: "it's 10:30 now, what's next?", from: sgNow, next: true, rest: ""},
		{msg: "it's 2 talks on rust", rest: "it's 2 talks on rust"},
		{msg: "Coffee break - what's next on rust?", from: sgNow, next: true, rest: "on rust?"},
		{msg: "I've got a free slot, anything on rust in the next hour?", from: sgNow, to: sgNow.Add(time.Hour), rest: "I've got a, anything on rust?"},
		{msg: "I have the rest of the afternoon free, any rust?", from: sg(20, 12, 0), to: sg(20, 17, 0), rest: "I have, any rust?"},
		{msg: "free software talks later", from: sgNow, to: sg(21, 0, 0), rest: "free software talks"},
		{msg: "lunch break: anything on now about rust?", from: sgNow, ongoing: true, rest: "anything on about rust?"},
		{msg: "what's next tomorrow", from: sg(21, 0, 0), to: sg(22, 0, 0), next: true, rest: ""},
		{msg: "last talk of the day in Fermi?", from: sg(20, 0, 0), to: sg(21, 0, 0), last: true, rooms: []string{"Fermi (Floor 3)"}, rest: "", label: "the last slot of today (Tue 20 Oct), in Fermi (Floor 3)"},
		{msg: "the final workshop tomorrow", from: sg(21, 0, 0), to: sg(22, 0, 0), last: true, formats: []string{"workshop"}, rest: "", label: "the last slot of tomorrow (Wed 21 Oct), workshops"},
		{msg: "what's the very last session this afternoon", from: sg(20, 12, 0), to: sg(20, 17, 0), last: true, rest: "what's"},
		{msg: "I went last year", rest: "I went last year"},
		{msg: "is there a keynote first thing tomorrow?", from: sg(21, 0, 0), to: sg(22, 0, 0), next: true, formats: []string{"keynote"}, rest: "is there a?", label: "the first slot of tomorrow (Wed 21 Oct), keynotes"},
		// The opening and closing ones are the conference's, not today's.
		{msg: "who gives the opening keynote?", from: sg(20, 0, 0), to: sg(23, 0, 0), next: true, formats: []string{"keynote"}, rest: "who gives?", label: "the first slot of the conference, keynotes"},
		{msg: "when is the closing session", from: sg(20, 0, 0), to: sg(23, 0, 0), last: true, rest: "when is", label: "the last slot of the conference"},
		{msg: "what time does everything wrap up today?", from: sg(20, 0, 0), to: sg(21, 0, 0), last: true, rest: "what time does?", label: "the last slot of today (Tue 20 Oct)"},
		{msg: "when do things kick off tomorrow", from: sg(21, 0, 0), to: sg(22, 0, 0), next: true, rest: "when do", label: "the first slot of tomorrow (Wed 21 Oct)"},
		{msg: "the opening keynote tomorrow", from: sg(21, 0, 0), to: sg(22, 0, 0), next: true, formats: []string{"keynote"}, rest: "", label: "the first slot of tomorrow (Wed 21 Oct), keynotes"},
		{msg: "which sessions are still coming up for the rest of the week?", from: sgNow, rest: "which sessions are still?"},
		{msg: "the last mile of delivery", rest: "the last mile of delivery"},
		{msg: "later today", from: sgNow, to: sg(21, 0, 0), rest: "", label: "later today (Tue 20 Oct)"},
		{msg: "later this afternoon", from: sg(20, 12, 0), to: sg(20, 17, 0), rest: ""},
		{msg: "later this morning", from: sgNow, to: sg(20, 12, 0), rest: ""},
		{msg: "anything on rust later?", from: sgNow, to: sg(21, 0, 0), rest: "anything on rust?", label: "later today (Tue 20 Oct)"},
		{msg: "any talks later about rust", from: sgNow, to: sg(21, 0, 0), rest: "any talks about rust"},
		{msg: "an intro to R, and later maybe a deep learning session", rest: "an intro to R, and later maybe a deep learning session"},
		{msg: "we migrate later this year", rest: "we migrate later this year"},
		{msg: "in the next hour", from: sgNow, to: sgNow.Add(time.Hour), rest: "", label: "in the next hour"},
		{msg: "talks in the next 2 hours", from: sgNow, to: sgNow.Add(2 * time.Hour), rest: "talks"},
		{msg: "within the next 30 minutes", from: sgNow, to: sgNow.Add(30 * time.Minute), rest: ""},
		{msg: "ransomware over the next two days", from: sgNow, to: sgNow.Add(48 * time.Hour), rest: "ransomware", label: "in the next 2 days"},
		{msg: "upcoming workshops", from: sgNow, formats: []string{"workshop"}, rest: "", label: "the rest of the conference, workshops"},
		{msg: "next friday", from: sg(23, 0, 0), to: sg(24, 0, 0), rest: "",
			outside: "FOSSASIA Summit runs from Tue 20 to Thu 22 October; Friday 23 October is after it."},
		{msg: "the room next to hall 1", rooms: []string{"Hall 1"}, rest: "the room next to"},
		{msg: "anything AI-related still going on today?", from: sgNow, to: sg(21, 0, 0), ongoing: true, rest: "anything AI-related?",
			label: "the rest of today (Tue 20 Oct)"},
		{msg: "any security stuff left?", from: sgNow, to: sg(21, 0, 0), ongoing: true, rest: "any security stuff?"},
		{msg: "remaining workshops tomorrow", from: sg(21, 0, 0), to: sg(22, 0, 0), ongoing: true, formats: []string{"workshop"}, rest: ""},
		{msg: "what's still on this afternoon", from: sg(20, 12, 0), to: sg(20, 17, 0), ongoing: true, rest: "what's"},
		{msg: "I'm still on the fence about rust", rest: "I'm still on the fence about rust"},
		{msg: "left of the main stage", rest: "left of the main stage"},
		{msg: "anything still left on privacy?", from: sgNow, to: sg(21, 0, 0), ongoing: true, rest: "anything on privacy?"},
		{msg: "is rust still relevant", rest: "is rust still relevant"},
	})
}

func TestParseFormats(t *testing.T) {
	runParse(t, sgCal, []parseCase{
		{msg: "hands-on workshops", formats: []string{"workshop"}, rest: "", label: "workshops"},
		{msg: "tutorials on kubernetes", formats: []string{"workshop"}, rest: "on kubernetes"},
		{msg: "panel discussion about ethics", formats: []string{"panel"}, rest: "about ethics"},
		{msg: "any roundtable on ethics", formats: []string{"panel"}, rest: "any on ethics"},
		{msg: "any panel discusions on ethics?", formats: []string{"panel"}, rest: "any on ethics?"},
		{msg: "is there a debate on open data?", formats: []string{"panel"}, rest: "is there a on open data?"},
		{msg: "any talks or workshops on ethics?", rest: "any talks or on ethics?"},
		{msg: "workshops and other sessions on ethics", rest: "and other sessions on ethics"},
		{msg: "workshops or panels on ethics", formats: []string{"workshop", "panel"}, rest: "on ethics"},
		{msg: "keynote talks", formats: []string{"keynote"}, rest: ""},
		{msg: "workshops or panels", formats: []string{"workshop", "panel"}, rest: "", label: "workshops or panels"},
		{msg: "security talks", rest: "security talks"},
		{msg: "any sessions or presentations on rust?", rest: "any sessions or presentations on rust?"},
	})
}

func TestParseNothingKeepsMessage(t *testing.T) {
	for _, msg := range []string{"", "   ", "🙂🙂", "who is speaking about Kubernetes?", "Sun, sea and serverless"} {
		got := when.Parse(msg, sgNow, sgCal)
		assert.True(t, got.Filter.IsZero(), "Parse(%q) = %+v, want a zero filter", msg, got)
		assert.Empty(t, got.Filter.Label, "Parse(%q): Label", msg)
		assert.Equal(t, msg, got.Rest, "Parse(%q): want the message as Rest", msg)
		assert.Empty(t, got.Outside, "Parse(%q): Outside", msg)
	}
}

func TestTimeOfDayAfterTheConferenceSetsNoWindow(t *testing.T) {
	cal := when.Calendar{Location: time.UTC, Days: []time.Time{
		time.Date(2026, 6, 9, 0, 0, 0, 0, time.UTC), time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC)}}
	p := when.Parse("is there morning yoga?", time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC), cal)
	require.True(t, p.Filter.From.IsZero(), "parsed %+v", p)
	require.True(t, p.Filter.To.IsZero(), "parsed %+v", p)
	require.Empty(t, p.Outside, "parsed %+v", p)
	require.Contains(t, p.Rest, "yoga", "parsed %+v", p)
	p = when.Parse("is there yoga tomorrow morning?", time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC), cal)
	assert.NotEmpty(t, p.Outside, "a named day after the conference should be outside: %+v", p)
}
