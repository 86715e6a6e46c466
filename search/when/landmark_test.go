package when_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/when"
)

// "After the keynote" is after the end of the day's keynote: today's next
// (or running) one, else its last; another day's first. "During the
// coffee break" is the time of the break the programme lists.
func TestParseRelativeToTheKeynote(t *testing.T) {
	cal := sgCal
	cal.Landmarks = []when.Landmark{
		{Title: "keynote Opening", Start: sg(20, 9, 0), End: sg(20, 9, 45)}, {Title: "keynote Blockchain at Daimler", Start: sg(20, 15, 0), End: sg(20, 15, 40)},
		{Title: "keynote Day two", Start: sg(21, 9, 30), End: sg(21, 10, 15)},
		{Title: "Coffee Break & Exhibition Opening", Start: sg(20, 10, 0), End: sg(20, 10, 30)},
		{Title: "Afternoon Break", Start: sg(20, 15, 40), End: sg(20, 16, 0)},
		{Title: "Welcome Reception", Start: sg(20, 17, 30), End: sg(20, 19, 0)},
	}
	runParse(t, cal, []parseCase{
		{msg: "any more blockchain stuff after the keynote?", now: sg(20, 14, 50), from: sg(20, 15, 40), to: sg(21, 0, 0),
			rest: "any more blockchain stuff?", label: "today after the keynote (15:40) (Tue 20 Oct)"},
		{msg: "what's on after the keynote", now: sg(20, 16, 0), from: sg(20, 15, 40), to: sg(21, 0, 0), rest: "what's on"},
		{msg: "anything before the opening keynote on day 2?", from: sg(21, 0, 0), to: sg(21, 9, 30), rest: "anything?"},
		{msg: "straight after the keynote, anything on heat pumps?", now: sg(20, 8, 0), from: sg(20, 9, 45), to: sg(21, 0, 0), next: true,
			rest: "anything on heat pumps?", label: "the first slot of today after the keynote (09:45) (Tue 20 Oct)"},
		{msg: "any security talk during the coffee break?", now: sg(20, 9, 50), from: sg(20, 10, 0), to: sg(20, 10, 30),
			rest: "any security talk?", label: "today during the coffee break (10:00–10:30) (Tue 20 Oct)"},
		{msg: "what's on after the break?", now: sg(20, 15, 0), from: sg(20, 16, 0), to: sg(21, 0, 0), rest: "what's on?"},
		{msg: "anything on reinsurance before the reception tonight?", now: sg(20, 15, 10), from: sg(20, 0, 0), to: sg(20, 17, 30),
			rest: "anything on reinsurance?"},
		{msg: "right after the blockchain keynote, anything on payments?", now: sg(20, 8, 0), from: sg(20, 15, 40), to: sg(21, 0, 0), next: true,
			rest: "anything on payments?"},
		{msg: "after the quantum keynote", now: sg(20, 8, 0), formats: []string{"keynote"}, rest: "after the quantum"},
		// No keynote that day: the words stay, and "keynote" is a format.
		{msg: "talks after the keynote on Thursday", from: sg(22, 0, 0), to: sg(23, 0, 0), formats: []string{"keynote"}, rest: "talks after the"},
	})
}

// Lunch is the programme's lunch that day when it lists one ("during
// lunch", "after lunch", "before lunch"), else the usual hours; "after this
// coffee break" asks for the next slot.
func TestParseLunchAndThisBreakFromTheProgramme(t *testing.T) {
	cal := sgCal
	cal.Landmarks = []when.Landmark{
		{Title: "Coffee Break", Start: sg(20, 10, 0), End: sg(20, 10, 30), Format: "other"},
		{Title: "Networking Lunch", Start: sg(20, 12, 15), End: sg(20, 13, 30), Format: "other"},
	}
	runParse(t, cal, []parseCase{
		{msg: "anything on heat pumps I can catch during lunch?", now: sg(20, 11, 50), from: sg(20, 12, 15), to: sg(20, 13, 30),
			rest: "anything on heat pumps I can catch?", label: "today during lunch (12:15–13:30) (Tue 20 Oct)"},
		{msg: "what's on after lunch?", now: sg(20, 9, 0), from: sg(20, 13, 30), to: sg(20, 17, 0), rest: "what's on?"},
		{msg: "straight after lunch, anything on payments?", now: sg(20, 9, 0), from: sg(20, 13, 30), to: sg(20, 17, 0), next: true,
			rest: "anything on payments?"},
		{msg: "anything before lunch?", now: sg(20, 9, 0), from: sg(20, 6, 0), to: sg(20, 12, 15), rest: "anything?"},
		// No lunch listed on the 21st: the usual lunchtime.
		{msg: "anything at lunchtime tomorrow?", now: sg(20, 9, 0), from: sg(21, 11, 30), to: sg(21, 14, 0), rest: "anything?"},
		{msg: "which claims talk should I head to after this coffee break?", now: sg(20, 10, 10), from: sg(20, 10, 30), to: sg(21, 0, 0), next: true,
			rest: "which claims talk should I head to?"},
		// "Coffee" alone is the coffee break.
		{msg: "free after coffee, anything on payments?", now: sg(20, 9, 0), from: sg(20, 10, 30), to: sg(21, 0, 0),
			rest: "anything on payments?"},
	})
}

// The landmark a window is said by is not an answer to it: "during the
// coffee break" matches a talk starting with the break, not the break.
func TestDuringALandmarkIsNotTheLandmark(t *testing.T) {
	cal := sgCal
	cal.Landmarks = []when.Landmark{{Title: "Coffee Break", Start: sg(20, 10, 0), End: sg(20, 10, 30), Format: "other"}}
	f := when.Parse("any security talk during the coffee break?", sg(20, 9, 50), cal).Filter
	assert.False(t, f.Match(sg(20, 10, 0), sg(20, 10, 30), "Hall 1", "", "other"), "the break itself")
	assert.True(t, f.Match(sg(20, 10, 0), sg(20, 10, 30), "Room B", "", "talk"), "a talk in the break")
	f.Not = nil
	assert.True(t, f.Match(sg(20, 10, 0), sg(20, 10, 30), "Hall 1", "", "other"), "the break, once it is no landmark")
}

// A keynote, break or social event is also named by the words its title
// ends with ("until the boat tour" for "Harbour Boat Tour: …"), and its
// end said as an event ("once this keynote finishes"); a part of the day
// said right after it says when it is, not a window.
func TestParseLandmarksByTheirTitlesAndEnds(t *testing.T) {
	cal := sgCal
	cal.Landmarks = []when.Landmark{
		{Title: "keynote Opening", Start: sg(20, 9, 0), End: sg(20, 9, 45), Format: "keynote"},
		{Title: "Harbour Boat Tour: The Port from the Water", Start: sg(20, 17, 45), End: sg(20, 19, 15), Format: "other"},
		{Title: "Conference Dinner", Start: sg(21, 19, 0), End: sg(21, 22, 0), Format: "other"},
		{Title: "Drinks reception and awards", Start: sg(20, 17, 15), End: sg(20, 19, 0), Format: "other"},
		{Title: "Harbour Night – Evening Party", Start: sg(21, 20, 0), End: sg(21, 23, 0), Format: "other"},
	}
	runParse(t, cal, []parseCase{
		{msg: "from 2pm until the boat tour this evening, anything on cranes?", now: sg(20, 13, 0), from: sg(20, 14, 0), to: sg(20, 17, 45),
			rest: "anything on cranes?", label: "later today 14:00–17:45 (Tue 20 Oct)"},
		{msg: "anything on cranes before the drinks?", now: sg(20, 15, 50), from: sg(20, 15, 50), to: sg(20, 17, 15),
			rest: "anything on cranes?", label: "later today before the drinks (17:15) (Tue 20 Oct)"},
		{msg: "once this keynote finishes, what's on about cranes?", now: sg(20, 9, 30), from: sg(20, 9, 45), to: sg(21, 0, 0), next: true,
			rest: "what's on about cranes?"},
		{msg: "anything after the dinner on Wednesday?", from: sg(21, 22, 0), to: sg(22, 0, 0), rest: "anything?"},
		{msg: "anything on cranes before the party on Wednesday?", from: sg(21, 0, 0), to: sg(21, 20, 0), rest: "anything on cranes?"},
		// Words no landmark's title ends with, or that end titles of many
		// kinds, stay as they are; so does a question about a landmark's end.
		{msg: "anything after the conference?", rest: "anything after the conference?"},
		{msg: "do you know when the keynote ends?", now: sg(20, 9, 30), rest: "do you know when the ends?", formats: []string{"keynote"}},
	})
}

// "Still … to come" and "the rest of this morning" ask for what has not
// started yet.
func TestParseWhatIsStillToCome(t *testing.T) {
	runParse(t, sgCal, []parseCase{
		{msg: "is there still a panel discussion to come today?", now: sg(20, 14, 50), from: sg(20, 14, 50), to: sg(21, 0, 0),
			formats: []string{"panel"}, rest: "is there still a"},
		{msg: "what's on for the rest of this morning?", now: sg(20, 10, 10), from: sg(20, 10, 10), to: sg(20, 12, 0), rest: "what's on?",
			label: "later this morning (Tue 20 Oct)"},
		{msg: "I want to come back tomorrow", from: sg(21, 0, 0), to: sg(22, 0, 0), rest: "I want to come back"},
		{msg: "which day is best for me to come?", rest: "which day is best for me to come?"},
	})
}
