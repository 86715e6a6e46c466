package search

import (
	"strings"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search/terms"
)

// cue assigns the sentences of a description to a facet: a sentence belongs
// to the facet when one of its words starts with one of the cue prefixes.
type cue struct {
	facet    string
	prefixes []string
}

var sessionCues = []cue{
	{"target_audience", []string{"audience", "beginner", "intermediate", "advanced", "practitioner", "engineer", "developer", "leader", "manager", "team", "analyst", "scientist", "founder", "executive", "newcomer", "anyone", "designed", "ideal", "aimed"}},
	{"learning_outcomes", []string{"learn", "walk", "leave", "takeaway", "discover", "understand", "build", "hands", "practical", "step", "guide", "show", "demonstrat", "explore"}},
	{"problems_addressed", []string{"problem", "challenge", "pain", "struggl", "fail", "risk", "cost", "bottleneck", "hard", "difficult", "avoid", "pitfall", "mistake", "debt", "outage"}},
	{"industry_relevance", []string{"industr", "health", "hospital", "bank", "financ", "insur", "retail", "manufactur", "energy", "agricult", "farm", "public", "government", "logistic", "telecom", "pharma", "automotive", "media", "sector"}},
}

var exhibitorCues = []cue{
	{"services_providing", []string{"offer", "provid", "service", "consult", "support", "implement", "manag", "host", "deliver", "train", "audit", "run"}},
	{"problems_i_solve", []string{"help", "solve", "reduc", "cut", "prevent", "protect", "detect", "without", "faster", "sav", "avoid", "eliminat", "improv"}},
	{"seeking_to_meet", []string{"meet", "looking", "partner", "seek", "hiring", "recruit", "invite", "visit", "stop", "come"}},
	{"buying_intent", []string{"buy", "purchas", "sourc", "procur", "acquir"}},
	{"i_am_this_person", []string{"founded", "based", "startup", "company", "team", "firm", "studio", "lab", "agency", "operator", "vendor", "maker", "since"}},
}

var speakerCues = []cue{
	{"audience_value", []string{"help", "share", "teach", "advis", "mentor", "coach", "practical", "lesson", "guide", "explain"}},
	{"industry_experience", []string{"year", "previous", "former", "career", "worked", "spent", "industr", "health", "bank", "financ", "retail", "manufactur", "energy", "agricult", "public", "government"}},
	{"problems_they_solve", []string{"problem", "challenge", "fix", "solve", "scal", "reduc", "improv", "migrat", "rescue", "turn"}},
}

// techWords are the technology cues that make a sentence count for
// technologies_covered.
var techWords = []string{"python", "sql", "kubernetes", "kafka", "spark", "pytorch", "tensorflow", "model", "cloud", "platform", "database", "pipeline", "open-source", "open", "framework", "tool", "api", "vector", "stream", "container", "server", "accelerat", "processor", "hardware", "algorithm", "network", "sensor", "architectur", "infrastructur", "software", "library", "notebook", "engine", "graph", "language"}

func deriveSession(s conference.Session) map[string]string {
	sentences := splitSentences(s.Description)
	out := assign(sentences, sessionCues)
	out["session_topic"] = joinText(s.Title, s.Track, first(sentences))
	out["technologies_covered"] = strings.Join(matching(sentences, techWords), " ")
	return out
}

func deriveExhibitor(e conference.Exhibitor) map[string]string {
	sentences := splitSentences(e.Description)
	out := assign(sentences, exhibitorCues)
	out["selling_intent"] = joinText(e.Name, first(sentences))
	return out
}

func deriveSpeaker(p conference.Speaker, talks []string) map[string]string {
	sentences := splitSentences(p.Bio)
	out := assign(sentences, speakerCues)
	out["speaker_expertise"] = joinText(p.JobTitle, p.Company, first(sentences))
	if len(talks) > 0 {
		out["speaking_topics"] = joinText(talks...)
	}
	return out
}

// assign gives each facet the sentences that carry one of its cues.
func assign(sentences []string, cues []cue) map[string]string {
	out := make(map[string]string, len(cues)+2)
	for _, c := range cues {
		out[c.facet] = strings.Join(matching(sentences, c.prefixes), " ")
	}
	return out
}

func matching(sentences []string, prefixes []string) []string {
	var out []string
	for _, s := range sentences {
		if hasCue(s, prefixes) {
			out = append(out, s)
		}
	}
	return out
}

func hasCue(sentence string, prefixes []string) bool {
	for _, w := range terms.Words(sentence) {
		for _, p := range prefixes {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
	}
	return false
}

func first(sentences []string) string {
	if len(sentences) == 0 {
		return ""
	}
	return sentences[0]
}

// splitSentences cuts text after '.', '!' or '?' followed by a space.
func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n') {
			if s := strings.TrimSpace(text[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// described is a description's sentences and its summary, the first two
// of them, from one reading of the text.
func described(text string) (summary string, sentences []string) {
	sentences = splitSentences(text)
	return strings.Join(sentences[:min(len(sentences), 2)], " "), sentences
}
