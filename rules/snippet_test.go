package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/terms"
)

// A bullet quotes the sentence of an item's description that holds what
// the question asks for, when that is not the summary shown; a question
// asking when prefers the sentence with the hours.
func TestABulletQuotesTheSentenceAsked(t *testing.T) {
	desc := []string{"The exhibition opens with coffee among the stands, with forty exhibitors of library systems, RFID, e-lending, digitisation, preservation supplies and furniture.",
		"Bring your passport for the prize draw.", "Exhibition opening hours: Thursday 10:30-18:00, Friday 09:00-17:45."}
	r := search.Result{Item: search.Item{Summary: desc[0] + " " + desc[1], Sentences: desc}}
	assert.Equal(t, "… "+desc[2], snippet(r, terms.Stems("exhibition"), true), "when asked when")
	assert.Contains(t, snippet(r, terms.Stems("exhibition"), false), "The exhibition opens", "not asked when: the summary")
	assert.Equal(t, "… "+desc[1], snippet(r, terms.Stems("passport"), false), "the summary is cut before it")
	short := search.Result{Item: search.Item{Summary: "Stands and coffee. Bring your passport.", Sentences: []string{"Stands and coffee.", "Bring your passport."}}}
	assert.Equal(t, short.Summary, snippet(short, terms.Stems("passport"), false), "the summary shows it whole")
	assert.Contains(t, snippet(r, nil, false), "The exhibition opens", "no topic: the summary")
}

// A session is said to be on, or over, when the question was asked.
func TestABulletSaysWhatIsOnOrOver(t *testing.T) {
	start := time.Date(2027, 3, 28, 11, 0, 0, 0, time.UTC)
	r := search.Result{Item: search.Item{Session: &search.Slot{Starts: start, Ends: start.Add(time.Hour)}}}
	assert.Equal(t, "", runningAt(r, start.Add(-time.Minute)))
	assert.Equal(t, " · on now", runningAt(r, start.Add(10*time.Minute)))
	assert.Equal(t, " · already over", runningAt(r, start.Add(time.Hour)))
	assert.Equal(t, "", runningAt(search.Result{}, start), "not a session")
}

// A question asking for a detail the summary lacks gets the sentence that
// gives it after the summary: "what do I bring to the radar calibration
// hands-on?" is answered by "Bring safety glasses".
func TestASnippetAddsTheDetailAsked(t *testing.T) {
	desc := []string{"Set up a target frame and aim a front radar.", "Calibrate rear corner sensors on two training vehicles.", "Bring safety glasses."}
	r := search.Result{Item: search.Item{Title: "Radar Calibration Hands-On", Summary: desc[0] + " " + desc[1], Sentences: desc}}
	assert.Equal(t, r.Summary+" … "+desc[2], snippet(r, terms.Stems("what do i bring to the radar calibration hands-on"), false))
	assert.Equal(t, r.Summary, snippet(r, terms.Stems("radar calibration"), false), "only its name asked: the summary")
}

// The detail asked may be in the summary's own sentence that clipping cut
// short: that sentence is shown whole instead ("do I need to sign up?").
func TestASnippetShowsTheSummarySentenceClippedBeforeTheDetail(t *testing.T) {
	desc := []string{"Start the day with breakfast and meet vet nurses from across Ireland and the UK.",
		"Free for registered nurses and student nurses, but places are limited to 80 — sign up in the congress app.", "Hosted by the nurses' network."}
	r := search.Result{Item: search.Item{Title: "Vet nursing networking breakfast", Summary: desc[0] + " " + desc[1], Sentences: desc}}
	assert.Equal(t, desc[0]+" "+desc[1], snippet(r, terms.Stems("nurses breakfast thing still on do i need to sign up"), false))
	assert.NotContains(t, snippet(r, terms.Stems("nurses breakfast"), false), "sign up", "not asked: the summary clipped")
}

// Of two sentences that each hold a word of the question, the one after
// the summary comes before the summary's own clipped one: "do I need a
// laptop? never used AI before" is answered by "Laptops essential".
func TestASnippetPrefersTheDetailAfterTheSummaryOnATie(t *testing.T) {
	desc := []string{"A practical lab for teachers who want to use generative AI tools for planning, differentiating texts and generating practice questions.",
		"You will write, test and refine prompts, learn why student information should never go into a public chatbot, and leave with a shared prompt library.",
		"Laptops essential; no prior experience needed."}
	r := search.Result{Item: search.Item{Title: "Prompt Writing for Teachers", Summary: desc[0] + " " + desc[1], Sentences: desc}}
	assert.Contains(t, snippet(r, terms.Stems("laptop for the prompt writing lab never used AI tools before"), false), desc[2])
}
