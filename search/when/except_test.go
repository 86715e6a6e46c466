package when_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/search/when"
)

func (s session) in(f when.Filter) bool { return f.Match(s.start, s.end, s.room, s.track, s.format) }

// What the attendee turns down is kept out, not asked for.
func TestParseTurnedDown(t *testing.T) {
	panelWed := session{sg(21, 11, 0), sg(21, 12, 0), "Hall 1", "", "panel"}
	talkWedAM := session{sg(21, 9, 0), sg(21, 9, 45), "Room B", "", "talk"}
	talkWedPM := session{sg(21, 14, 0), sg(21, 14, 45), "Hall 1", "", "talk"}
	talkThuPM := session{sg(22, 14, 0), sg(22, 14, 45), "Room B", "", "talk"}
	workshopThuPM := session{sg(22, 15, 0), sg(22, 16, 0), "Room B", "", "workshop"}
	for _, c := range []struct {
		msg, rest, label string
		in, out          []session
	}{
		{msg: "no panels please, just talks on rust", rest: "just talks on rust", label: "anything but panels",
			in: []session{talkWedAM, talkThuPM}, out: []session{panelWed}},
		{msg: "rust but not on Wednesday", rest: "rust", label: "anything but Wed 21 Oct",
			in: []session{talkThuPM}, out: []session{panelWed, talkWedAM, talkWedPM}},
		{msg: "rust talks, not in Hall 1", rest: "rust talks", label: "anything but in Hall 1",
			in: []session{talkWedAM, talkThuPM}, out: []session{panelWed, talkWedPM}},
		{msg: "anything on rust except workshops", rest: "anything on rust", label: "anything but workshops",
			in: []session{talkThuPM}, out: []session{workshopThuPM}},
		// A time of day that names no day is turned down on every day.
		{msg: "I can't do afternoons - rust talks?", rest: "rust talks?", label: "anything but the afternoon",
			in: []session{talkWedAM, panelWed}, out: []session{talkWedPM, talkThuPM}},
		{msg: "I won't be there on Thursday, rust talks?", rest: "rust talks?", label: "anything but Thu 22 Oct",
			in: []session{talkWedPM}, out: []session{talkThuPM, workshopThuPM}},
		// A typographic apostrophe, as phones type it, turns down the same.
		{msg: "I can’t do Thursday, rust talks?", rest: "rust talks?", label: "anything but Thu 22 Oct",
			in: []session{talkWedPM}, out: []session{talkThuPM, workshopThuPM}},
		{msg: "We’re away on Thursday - rust?", rest: "rust?", label: "anything but Thu 22 Oct",
			in: []session{talkWedPM}, out: []session{talkThuPM}},
		{msg: "I won’t be able to come on Thursday, rust talks?", rest: "rust talks?", label: "anything but Thu 22 Oct",
			in: []session{talkWedPM}, out: []session{talkThuPM}},
		{msg: "I'm busy tomorrow afternoon - anything on rust?", rest: "anything on rust?", label: "anything but tomorrow afternoon (Wed 21 Oct)",
			in: []session{talkWedAM, talkThuPM}, out: []session{talkWedPM}},
		{msg: "rust workshops tomorrow, not in the morning", rest: "rust", label: "tomorrow (Wed 21 Oct), workshops, but not the morning"},
		// Every phrase turned down counts, and so does each part of a list.
		{msg: "rust, not on Wednesday, not in Hall 1", rest: "rust", label: "anything but Wed 21 Oct or in Hall 1",
			in: []session{talkThuPM}, out: []session{talkWedAM, panelWed}},
		{msg: "no panels, no workshops, rust please", rest: "rust please", label: "anything but panels or workshops",
			in: []session{talkWedAM, talkThuPM}, out: []session{panelWed, workshopThuPM}},
		{msg: "not on Wednesday or Thursday afternoon - rust?", rest: "rust?", label: "anything but Wed 21 Oct or the afternoon of Thu 22 Oct",
			out: []session{talkWedAM, talkWedPM, talkThuPM}},
		{msg: "rust talks but no mornings or afternoons", rest: "rust talks", label: "anything but the morning or the afternoon",
			out: []session{talkWedAM, talkWedPM, talkThuPM}},
		{msg: "rust, not between 9 and 10", rest: "rust", label: "anything but 09:00–10:00",
			in: []session{panelWed, talkWedPM}, out: []session{talkWedAM}},
		{msg: "no panels and talks on rust", rest: "talks on rust", label: "anything but panels",
			in: []session{talkWedAM}, out: []session{panelWed}},
		// After "or" or "nor" the next part is turned down too, its topic kept.
		{msg: "no panels or workshops on rust", rest: "on rust", label: "anything but panels or workshops",
			in: []session{talkWedAM}, out: []session{panelWed, workshopThuPM}},
		{msg: "not Wednesday nor Thursday, rust", rest: "rust", label: "anything but Wed 21 Oct or Thu 22 Oct",
			out: []session{talkWedAM, talkThuPM}},
		{msg: "Not on Wednesday, nor on Thursday. Rust?", rest: "Rust?", label: "anything but Wed 21 Oct or Thu 22 Oct",
			out: []session{talkWedAM, talkThuPM}},
		{msg: "Neither panels nor workshops, rust please", rest: "rust please", label: "anything but panels or workshops",
			in: []session{talkWedAM}, out: []session{panelWed, workshopThuPM}},
		// A part after "or" that goes on to say something else is not turned down.
		{msg: "rust talks, not on Wednesday or I'll miss my flight", rest: "rust talks I'll miss my flight", label: "anything but Wed 21 Oct",
			in: []session{talkThuPM, workshopThuPM}, out: []session{talkWedAM}},
		{msg: "rust but no panels or maybe a workshop on Thursday", rest: "rust maybe a", label: "Thu 22 Oct, workshops, but not panels",
			in: []session{workshopThuPM}, out: []session{panelWed}},
		// A phrase in a long sentence is read as far as it goes.
		{msg: "No panels and I am looking for talks about rust with vector databases in production at large scale for banks and insurers",
			rest: "I am looking for talks about rust with vector databases in production at large scale for banks and insurers", label: "anything but panels",
			in: []session{talkWedAM}, out: []session{panelWed}},
		{msg: "I can't do mornings and I would love talks about rust in production at large scale for banks and insurers please",
			rest: "I would love talks about rust in production at large scale for banks and insurers please", label: "anything but the morning",
			in: []session{talkWedPM}, out: []session{talkWedAM}},
		// However many there are.
		{msg: "rust, not Wednesday, no panels, no workshops, not in Hall 1, not in Room B, no keynotes, not in Fermi, not in Einstein, not Thursday",
			rest: "rust", label: "anything but Wed 21 Oct or panels or workshops or in Hall 1 or in Room B or keynotes or in Fermi (Floor 3) or in Einstein (Floor 2) or Thu 22 Oct",
			out: []session{talkWedAM, talkThuPM, workshopThuPM}},
	} {
		t.Run(c.msg, func(t *testing.T) {
			p := when.Parse(c.msg, sgNow, sgCal)
			require.NotEmpty(t, p.Filter.Except, "nothing turned down")
			assert.Equal(t, c.rest, p.Rest, "Rest")
			assert.Equal(t, c.label, p.Filter.Label, "Label")
			for _, s := range c.in {
				assert.True(t, s.in(p.Filter), "%v %s %s should match", s.start, s.room, s.format)
			}
			for _, s := range c.out {
				assert.False(t, s.in(p.Filter), "%v %s %s should not match", s.start, s.room, s.format)
			}
		})
	}
}

// Said many times, a thing turned down is kept once.
func TestTurnedDownOnce(t *testing.T) {
	p := when.Parse(strings.Repeat("no panels, ", 300)+"rust?", sgNow, sgCal)
	assert.Len(t, p.Filter.Except, 1)
	assert.Equal(t, "rust?", p.Rest)
}

// A negation that turns down a topic, or adds ("not only"), sets no
// exception.
func TestParseNothingTurnedDown(t *testing.T) {
	for _, msg := range []string{
		"no problem if it's tomorrow, any rust talks?",
		"I'm not interested in renting GPUs",
		"not only workshops",
		"no-code workshops",
		"I'm busy with rust at work",
	} {
		p := when.Parse(msg, sgNow, sgCal)
		assert.Empty(t, p.Filter.Except, msg)
	}
}

// Widening never gives up what was turned down.
func TestWidenKeepsWhatWasTurnedDown(t *testing.T) {
	p := when.Parse("workshops tomorrow morning, not in Hall 1", sgNow, sgCal)
	require.NotEmpty(t, p.Filter.Except)
	f := p.Filter
	for {
		g, _, ok := f.Widen(sgCal)
		if !ok {
			break
		}
		f = g
		assert.Equal(t, p.Filter.Except, f.Except, "widened to %q", f.Label)
	}
	assert.False(t, f.IsZero(), "widened to nothing")
	assert.Equal(t, "anything but in Hall 1", f.Label, "widened as far as it goes")
}
