package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/terms"
)

// pivotTarget picks another table for a failing query: one whose probe
// reaches the confidence band and clearly beats the failing table, or, when
// the failing table has nothing even at the default threshold, one whose
// probe clears that threshold (only when the query's words are known here:
// a probe of unknown jargon is noise); failing that, exhibitors when the
// question asks for a product or service.
func pivotTarget(in *agent.ReflectInput, q search.Query, top float32, jargon bool) (search.Table, string) {
	cal := in.Calibration
	best := bestProbe(in, q, nil)
	if q.Filter != nil && best.Table == search.Exhibitors {
		return "", "" // a time or place question: exhibitors have no schedule
	}
	clears := best.TopScore >= cal.Confident || (!jargon && top < cal.Threshold && best.TopScore >= cal.Threshold)
	if best.Table != "" && clears && best.TopScore > top+0.05 {
		return best.Table, fmt.Sprintf("%s probe scores %.2f (%q)", best.Table, best.TopScore, first(best.TopTitles))
	}
	if p := supportedProbe(in, q); p.Table != "" {
		here := summary(in, q.Table).Support
		switch {
		case here < search.MinCoverage:
			return p.Table, fmt.Sprintf("%s probe has the question's words (%q), %s found here do not", p.Table, first(p.TopTitles), tableWords(q.Table))
		case p.Support >= here+supportLead:
			return p.Table, fmt.Sprintf("%s probe has more of the question's words (%q: %.2f of their weight, %.2f here)", p.Table, first(p.TopTitles), p.Support, here)
		}
	}
	if q.Filter == nil && q.Table != search.Exhibitors && !planned(in, search.Exhibitors) && !triedTable(in, search.Exhibitors) {
		for _, w := range terms.Words(asked(in.Message, in.Reading)) {
			if asksForVendor(w) {
				return search.Exhibitors, fmt.Sprintf("the question asks for a product or service (%q)", w)
			}
		}
	}
	return "", ""
}

// supportLead is how much more of the question's word weight another
// table's probe must hold than the failing table's results to be pivoted
// to when both hold enough of it.
const supportLead = 0.25

// Words that ask for a product or a service, something exhibitors offer
// rather than talks: vendorWords whole, vendorPrefixes as the start of a
// word ("deploy", "outsourcing", "rent"…). "product" is a whole word only:
// "production" and "productivity" do not ask for one.
var (
	vendorWords    = wordSet("product products")
	vendorPrefixes = []string{"deploy", "host", "buy", "purchas", "vendor", "tool", "platform", "servic", "provid",
		"solution", "consult", "outsourc", "rent", "hire", "hiring", "supplier", "install", "licens", "subscri"}
)

func asksForVendor(w string) bool {
	return vendorWords[w] || slices.ContainsFunc(vendorPrefixes, func(p string) bool { return strings.HasPrefix(w, p) })
}

// supportedProbe is the best-scoring probe of q's text in another table the
// round did not search whose results contain the question's words (at
// least search.MinCoverage of their weight) and clear the threshold: where
// the failing table's best results only resemble the question ("who's
// speaking about video interpreters?" finds speakers by their vectors,
// the interpreting service's booth by its words). Exhibitors have no
// schedule, so a time or place question is not sent to them.
func supportedProbe(in *agent.ReflectInput, q search.Query) agent.Probe {
	return bestProbe(in, q, func(p agent.Probe) bool {
		return p.Support >= search.MinCoverage && p.TopScore >= in.Calibration.Threshold && (q.Filter == nil || p.Table != search.Exhibitors)
	})
}

// bestProbe is the best-scoring probe of q's text in a table the round did
// not search, among those ok accepts (all when ok is nil).
func bestProbe(in *agent.ReflectInput, q search.Query, ok func(agent.Probe) bool) agent.Probe {
	var best agent.Probe
	for _, p := range in.Probes {
		if p.Text == q.Text && p.Table != q.Table && p.TopScore > best.TopScore && !planned(in, p.Table) && (ok == nil || ok(p)) {
			best = p
		}
	}
	return best
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// planned reports whether the round just searched table tb.
func planned(in *agent.ReflectInput, tb search.Table) bool {
	for _, q := range in.Plan {
		if q.Table == tb {
			return true
		}
	}
	return false
}

func triedTable(in *agent.ReflectInput, tb search.Table) bool {
	for _, q := range in.Tried {
		if q.Table == tb {
			return true
		}
	}
	return false
}

// triedAt reports whether this wording was already searched in table tb and
// mode m at threshold th or lower.
func triedAt(in *agent.ReflectInput, tb search.Table, m search.Mode, text string, th float32) bool {
	for _, q := range in.Tried {
		if q.Table == tb && q.Mode == m && normalise(q.Text) == normalise(text) && q.Threshold != nil && *q.Threshold <= th+0.005 {
			return true
		}
	}
	return false
}

func probeFor(in *agent.ReflectInput, text string, tb search.Table, m search.Mode) agent.Probe {
	for _, p := range in.Probes {
		if p.Text == text && p.Table == tb && p.Mode == m {
			return p
		}
	}
	return agent.Probe{}
}

// summary is what the round found in table tb: nothing (Empty) when it
// did not search it.
func summary(in *agent.ReflectInput, tb search.Table) agent.TableSummary {
	for _, s := range in.Tables {
		if s.Table == tb {
			return s
		}
	}
	return agent.TableSummary{Table: tb, Outcome: agent.Empty}
}

// tableWords names a table the way an attendee would.
func tableWords(tb search.Table) string {
	switch tb {
	case search.Sessions:
		return "talks and workshops"
	case search.Speakers:
		return "speakers"
	}
	return "exhibitors"
}

func quote(s string) string { return "“" + s + "”" }

// pivotNote says why the search moves to another table; what is the
// question's words as the note may quote them (see quotedOr).
func pivotNote(from, to search.Table, outcome agent.Outcome, what string) string {
	fit := map[search.Table]string{search.Sessions: "the talks on it", search.Speakers: "the speakers who work on it", search.Exhibitors: "the exhibitors offering it"}[to]
	if outcome == agent.Weak { // something came back, only not close enough: "none covers it" would be untrue
		found := map[search.Table]string{search.Sessions: "The talks I found", search.Speakers: "The speakers I found", search.Exhibitors: "The exhibitors I found"}[from]
		return fmt.Sprintf("%s only partly match %s; %s may fit better, so let me check them.", found, what, fit)
	}
	none := map[search.Table]string{search.Sessions: "No talk", search.Speakers: "None of the speakers", search.Exhibitors: "No exhibitor"}[from]
	return fmt.Sprintf("%s covers %s directly; %s look like a better fit, so let me check them.", none, what, fit)
}

// shorten keeps the first n words of s, ending before a word that opens a
// new part of a sentence ("free software or hands-on projects I could…" →
// "free software or hands-on projects"), so a quote reads as a phrase.
func shorten(s string, n int) string {
	f := strings.Fields(s)
	for i, w := range f {
		if i >= 2 && (i == n || phraseEnd[strings.ToLower(strings.Trim(w, `.,;:!?"'`))]) {
			return strings.TrimRight(strings.Join(f[:i], " "), ",;:")
		}
	}
	return strings.Join(f, " ")
}

// phraseEnd are words that start a new part of a sentence.
var phraseEnd = wordSet("i we you my our your to that which who could would should can will because so but if when while")
