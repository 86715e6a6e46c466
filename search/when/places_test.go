package when_test

import (
	"testing"

	"github.com/erleah/erleah-agent/search/when"
)

func TestParseRooms(t *testing.T) {
	runParse(t, sgCal, []parseCase{
		{msg: "anything in Einstein this afternoon", from: sg(20, 12, 0), to: sg(20, 17, 0), rooms: []string{"Einstein (Floor 2)"}, rest: "anything",
			label: "this afternoon (Tue 20 Oct), in Einstein (Floor 2)"},
		{msg: "what's in einstein (floor 2)?", rooms: []string{"Einstein (Floor 2)"}, rest: "what's?"},
		{msg: "the fermi room", rooms: []string{"Fermi (Floor 3)"}, rest: ""},
		{msg: "what's on tomorrow morning in room B about security?", from: sg(21, 6, 0), to: sg(21, 12, 0), rooms: []string{"Room B"},
			rest: "what's on about security?", label: "tomorrow morning (Wed 21 Oct), in Room B"},
		{msg: "ROOM B", rooms: []string{"Room B"}, rest: ""},
		{msg: "hall 1 talks", rooms: []string{"Hall 1"}, rest: "talks"},
		{msg: "in room b or hall 1", rooms: []string{"Hall 1", "Room B"}, rest: ""},
		{msg: "talks in the hall", rest: "talks in the hall"},
		{msg: "what's on in hall 10", rest: "what's on in hall 10"},
	})
}

func TestParseRoomsNeedACueForPlainWords(t *testing.T) {
	cal := when.Calendar{Location: singapore, Rooms: []string{"Lab 2", "Studio", "Exhibition Hall", "Einstein (Floor 2)", "Einstein (Floor 3)"}}
	runParse(t, cal, []parseCase{
		{msg: "lab sessions on rust", rest: "lab sessions on rust"},
		{msg: "what's on in the lab", rest: "what's on in the lab"},
		{msg: "what's on in lab 2", rooms: []string{"Lab 2"}, rest: "what's on"},
		{msg: "studio recordings", rest: "studio recordings"},
		{msg: "talks in the studio", rooms: []string{"Studio"}, rest: "talks"},
		{msg: "exhibition tips", rest: "exhibition tips"},
		{msg: "exhibition hall", rooms: []string{"Exhibition Hall"}, rest: ""},
		{msg: "at the exhibition", rooms: []string{"Exhibition Hall"}, rest: ""},
		// Two rooms share the head "Einstein": both.
		{msg: "in einstein", rooms: []string{"Einstein (Floor 2)", "Einstein (Floor 3)"}, rest: ""},
	})
}

// A room is named by the end of its name when no other room's name has
// those words: "studio a" of "Workshop Studio A".
func TestParseRoomsByTheEndOfTheirName(t *testing.T) {
	cal := when.Calendar{Location: singapore, Rooms: []string{"Workshop Studio A", "Workshop Studio B", "Harbour Ballroom", "Main Hall", "Main Foyer", "Exhibit Hall"}}
	runParse(t, cal, []parseCase{
		{msg: "what's on in studio a", rooms: []string{"Workshop Studio A"}, rest: "what's on"},
		{msg: "anything in the ballroom", rooms: []string{"Harbour Ballroom"}, rest: "anything"},
		{msg: "ballroom dancing", rest: "ballroom dancing"},
		{msg: "what's on in the hall", rest: "what's on in the hall"},
		// A room called by its own word and another room noun.
		{msg: "any roundtable on the main stage?", rooms: []string{"Main Hall"}, formats: []string{"panel"}, rest: "any on?"},
		{msg: "the exhibit room", rooms: []string{"Exhibit Hall"}, rest: ""},
	})
	ballroom := when.Calendar{Location: singapore, Rooms: []string{"Grand Ballroom (Main Stage)", "Einstein (Floor 2)", "Fermi (Floor 2)", "Michigan Room"}}
	runParse(t, ballroom, []parseCase{
		{msg: "what's on the main stage?", rooms: []string{"Grand Ballroom (Main Stage)"}, rest: "what's on?"},
		{msg: "anything on floor 2?", rest: "anything on floor 2?"},
	})
	staged := when.Calendar{Location: singapore, Rooms: []string{"Main Hall", "Main Stage", "Main Room 2"}}
	runParse(t, staged, []parseCase{
		{msg: "on the main stage", rooms: []string{"Main Stage"}, rest: "on"},
	})
	fossasia := when.Calendar{Location: singapore, Rooms: []string{"Scientist for a Day (Ground Floor, Hall A)", "Dalton Hall (Floor 3)"}}
	runParse(t, fossasia, []parseCase{
		{msg: "anything for a day trip", rest: "anything for a day trip"},
	})
}

// A room of two words and a number is named without the number when no
// other room has those words: "the wet lab" of "Wet Lab 1", but not "the
// seminar room" when there are Seminar Room 1 and 2.
func TestARoomIsNamedWithoutItsNumberWhenItIsTheOnlyOne(t *testing.T) {
	cal := when.Calendar{Location: singapore, Rooms: []string{"Wet Lab 1", "Seminar Room 1", "Seminar Room 2", "Room 3A"}}
	runParse(t, cal, []parseCase{
		{msg: "what's on in the wet lab", rooms: []string{"Wet Lab 1"}, rest: "what's on"},
		{msg: "anything in the seminar room", rest: "anything in the seminar room"},
		{msg: "what's in room 3a", rooms: []string{"Room 3A"}, rest: "what's"},
	})
}

// A room's first word names it alone only when the programme's entries do
// not use it for their topics: "quay cranes" at a port conference is no
// room, "the Quay Lab" still is.
func TestARoomsFirstWordThatTopicsUseNamesNoRoom(t *testing.T) {
	port := when.Calendar{Location: singapore, Rooms: []string{"Quay Lab", "Maas Room"},
		Uses: when.Uses([]string{"Remote control for quay cranes", "Shore power at the quay", "Hands-on in the Quay Lab"})}
	runParse(t, port, []parseCase{
		{msg: "predictive maintenance on quay cranes", rest: "predictive maintenance on quay cranes"},
		{msg: "what's on in the Quay Lab", rooms: []string{"Quay Lab"}, rest: "what's on"},
	})
	port.Uses = nil
	runParse(t, port, []parseCase{{msg: "anything at the quay", rooms: []string{"Quay Lab"}, rest: "anything"}})
}

func TestParseTracks(t *testing.T) {
	runParse(t, sgCal, []parseCase{
		{msg: "the devops track", tracks: []string{"DevOps"}, rest: "", label: "in the DevOps track"},
		{msg: "talks in the Security and Privacy track", tracks: []string{"Security and Privacy"}, rest: "talks"},
		{msg: "security track keynotes", tracks: []string{"Security and Privacy"}, formats: []string{"keynote"}, rest: ""},
		{msg: "track: DevOps", tracks: []string{"DevOps"}, rest: ""},
		{msg: "the devops and privacy tracks", tracks: []string{"DevOps", "Security and Privacy"}, rest: "",
			label: "in the DevOps or Security and Privacy tracks"},
		{msg: `anything from "Security and Privacy"?`, tracks: []string{"Security and Privacy"}, rest: "anything from?"},
		// Topic words alone are no track.
		{msg: "security talks", rest: "security talks"},
		{msg: "devops tools", rest: "devops tools"},
		{msg: "the cloud track", rest: "the cloud track"},
	})
	days := when.Calendar{Location: singapore, Tracks: []string{"Database - MySQL Day", "Database - PGDay"}}
	runParse(t, days, []parseCase{
		{msg: "the mysql day track", tracks: []string{"Database - MySQL Day"}, rest: ""},
		{msg: "what's in the postgres day track", rest: "what's in the postgres day track"},
	})
}

// A room named with accents is found as attendees type it without them.
func TestParseRoomsTypedWithoutAccents(t *testing.T) {
	cal := when.Calendar{Location: singapore, Rooms: []string{"Tōtara Room", "Salon Belvédère (Level 7)"}}
	runParse(t, cal, []parseCase{
		{msg: "what's in the totara room", rooms: []string{"Tōtara Room"}, rest: "what's"},
		{msg: "anything in the Tōtara Room?", rooms: []string{"Tōtara Room"}, rest: "anything?"},
		{msg: "salon belvedere", rooms: []string{"Salon Belvédère (Level 7)"}, rest: ""},
	})
}
