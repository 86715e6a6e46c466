package rules

import (
	"cmp"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
)

// planReply is the JSON the planner returns.
type planReply struct {
	Intent  string         `json:"intent"`
	Queries []search.Query `json:"queries"`
}

// Cue words that route a question to a table, with their forms in the
// languages the agent reads that a translation may leave as written
// (Apertium keeps Spanish "expositores" and Italian "relatori").
var (
	speakerCues = wordSet("who whom speaker speakers expert experts person people someone somebody presenter presenters" +
		" ponente ponentes conferenciante conferenciantes orador oradores palestrante palestrantes relatore relatori oratore oratori" +
		" intervenant intervenants orateur orateurs conférencier conférenciers sprecher sprecherin referent referenten spreker sprekers")
	exhibitorCues = wordSet("booth booths stand stands exhibitor exhibitors exhibiting vendor vendors supplier suppliers provider providers company companies buy buying purchase sell sells selling product products startup startups firm firms expo manufacturer manufacturers distributor distributors reseller resellers" +
		" expositor expositores expositora expositoras espositore espositori exposant exposants aussteller ausstellern standhouder standhouders exposanten")
	sessionCues = wordSet("talk talks session sessions workshop workshops keynote keynotes panel panels presentation presentations lecture lectures tutorial tutorials class classes course courses agenda schedule programme program attend track tracks" +
		" charla charlas sesión sesiones talleres ponencia ponencias palestra palestras sessão sessões sessione sessioni interventi séance séances atelier ateliers conférence conférences vortrag vorträge sitzung sessie sessies lezing lezingen")
	// onStage are what a speaker does there: in a question that names a
	// speaker ("when is Wiśniewski speaking?") they ask for the speaker's
	// talks, not about a topic.
	onStage = wordSet("speak speaks speaking talk talking talks present presents presenting give gives giving moderate moderates moderating chair chairs chairing host hosts hosting on up")
	// vendorVerbs after "who" ask for a company.
	vendorVerbs = wordSet("makes manufactures supplies offers provides distributes builds")
	// fillerWords carry no topic in a question to the assistant.
	fillerWords = wordSet("any there conference event events day days today tomorrow recommend recommendation suggest highlight highlights unmissable interested interesting good great best should go see attend attending visit where when which what whats does do is are can could would will me my i we us our anything something happening going")
)

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// plan routes the question to tables by its cues, adds a master-mode lookup
// for every entity it names, and searches the rest of the question: its
// topic in the attendee's words, without self-description, request
// phrasing and cue words.
func plan(in *agent.PlanInput, off search.Ablation) planReply {
	question := asked(in.Message, in.Reading)
	tables := routes(question)
	isCue := cue
	if slotAsked(question, tables) { // "when does the expo close?": exhibitors keep no hours, the programme's slot does
		tables, isCue = []search.Table{search.Sessions}, func(tok string) bool { return cue(tok) && !isExhibitorCue(strings.ToLower(tok)) }
	}
	src := in.Topic
	if src == "" && in.Filter == nil {
		src = question
	}
	parts := errandsDone(lexical.AskedNeeds(src), in.Support)
	var texts []string
	for _, p := range parts {
		texts = append(texts, p.Text)
	}
	topic := trimmedFor(strings.Join(texts, " "), isCue)
	if off.Off("filler") {
		topic = strings.Join(slices.DeleteFunc(strings.Fields(src), cue), " ")
	}
	var qs []search.Query
	named := map[string]bool{}
	for _, m := range in.Mentions {
		if len(qs) == 2 {
			break
		}
		qs = append(qs, search.Query{Table: m.Ref.Table, Mode: search.Master, Text: m.Title, Limit: 5})
		for _, w := range terms.Words(m.Title) {
			named[w], named[terms.Unaccented(w)] = true, true // "Fernandez" names Fernández
		}
		if m.Ref.Table == search.Speakers || m.Ref.Table == search.Exhibitors && (slices.Contains(tables, search.Speakers) || slices.Contains(tables, search.Sessions)) {
			maps.Copy(named, onStage) // "when is Wiśniewski speaking?", "who from Intralog is speaking?"
		}
	}
	rest := trimmedFor(withoutWords(topic, named), isCue)
	if rest == "" || slices.ContainsFunc(in.Mentions, func(m search.Mention) bool { return namedAsTopic(question, m.Title) }) {
		qs = append(qs, aboutNamed(qs, tables)...)
	}
	if rest != "" || len(qs) == 0 {
		if rest == "" && in.Filter == nil {
			rest = question // nothing but cue words: search them
		}
		searched := []string{rest}
		if !off.Off("needs") {
			searched = needs(parts, rest, max(3, in.MaxQueries/len(tables)), in.Support, isCue)
		}
		for _, text := range searched {
			for _, tb := range tables {
				qs = append(qs, search.Query{Table: tb, Mode: search.Faceted, Text: text, Limit: search.DefaultLimit})
			}
		}
	}
	if max := in.MaxQueries; max > 0 && len(qs) > max {
		qs = qs[:max]
	}
	return planReply{Intent: intent(tables, topic), Queries: qs}
}

// aboutNamed searches, for a question that names an entity and asks for
// another kind of item about it ("who's presenting <a talk>?", "which talks
// does <a speaker> give?", "sessions on <an exhibitor>"), that kind for the
// entity's name: a speaker's entry holds their talks, a talk's its
// speakers, and a product's talks its name.
func aboutNamed(named []search.Query, tables []search.Table) []search.Query {
	if len(named) == 0 {
		return nil
	}
	var out []search.Query
	for _, tb := range tables {
		if !slices.ContainsFunc(named, func(q search.Query) bool { return q.Table == tb }) {
			out = append(out, search.Query{Table: tb, Mode: search.Faceted, Text: named[0].Text, Limit: search.DefaultLimit})
		}
	}
	return out
}

// topicWords introduce what a question is about.
var topicWords = wordSet("on about regarding covering concerning around")

// namedAsTopic reports whether a question asks about a named entity rather
// than for it: its name follows a word that introduces a topic ("sessions
// on Postgres", "talks about the Open Event Server").
func namedAsTopic(question, name string) bool {
	words, first := terms.Words(question), terms.Words(name)
	if len(first) == 0 {
		return false
	}
	for i, w := range words {
		j := i - 1 // the word before the name, past an article
		if j >= 1 && words[j] == "the" {
			j--
		}
		if w == first[0] && j >= 0 && topicWords[words[j]] {
			return true
		}
	}
	return false
}

// needs splits a long question that asks for several things into one
// query per thing (at most most: three, or as many as the plan has room
// for in each table it searches, since a long story can put what it asks
// for fourth or fifth), so that an entity answering one of them
// is found and judged against it, not against the whole question;
// otherwise the topic is one query. A need that request phrasing
// introduced counts whatever its length ("our biggest fear is
// ransomware"); a bare clause needs three content words, since shorter
// ones are more often narrative ("a bit foggy"). When there are more
// needs than room, those the conference's text supports best are kept
// (support, when not nil), in the order asked: a story told first does
// not crowd out what is asked last.
func needs(parts []lexical.Need, topic string, most int, support func(string) float64, isCue func(string) bool) []string {
	var out []string
	for _, n := range parts {
		least := 3
		if n.Asked {
			least = 1
		}
		if t := trimmedFor(n.Text, isCue); len(terms.Content(t)) >= least {
			out = append(out, t)
		}
	}
	if len(out) < 2 {
		return []string{topic}
	}
	if len(out) <= most || support == nil {
		return out[:min(len(out), most)]
	}
	return bestSupported(out, most, support)
}

// bestSupported keeps the most needs the conference's text supports
// best, in the order asked; the earlier on a tie.
func bestSupported(needs []string, most int, support func(string) float64) []string {
	type scored struct {
		i int
		s float64
	}
	all := make([]scored, len(needs))
	for i, n := range needs {
		all[i] = scored{i, support(n)}
	}
	slices.SortStableFunc(all, func(a, b scored) int { return cmp.Compare(b.s, a.s) })
	all = all[:most]
	slices.SortFunc(all, func(a, b scored) int { return cmp.Compare(a.i, b.i) })
	out := make([]string, len(all))
	for i, a := range all {
		out[i] = needs[a.i]
	}
	return out
}

// routes lists the tables a question asks for by the cue words of its
// request, not of how attendees describe themselves ("I run a startup"),
// clause by clause; sessions when no clause names a table.
func routes(question string) []search.Table {
	has := map[search.Table]bool{}
	for _, clause := range strings.FieldsFunc(lexical.Request(question), func(r rune) bool { return r == ',' || r == ';' }) {
		markCues(terms.Words(clause), has)
	}
	var out []search.Table
	for _, tb := range search.Tables {
		if has[tb] {
			out = append(out, tb)
		}
	}
	if len(out) == 0 {
		out = []search.Table{search.Sessions}
	}
	return out
}

// markCues marks in has the tables one clause's cue words point to;
// "what's on" and a closing "go to" ask for the programme ("what should I
// go to?").
func markCues(words []string, has map[search.Table]bool) {
	for i, w := range words {
		switch {
		case speakerCues[w]:
			has[search.Speakers] = true
		case exhibitorCues[w]:
			has[search.Exhibitors] = true
		case sessionCues[w], whatsOn(words, i), w == "go" && i+2 == len(words) && words[i+1] == "to":
			has[search.Sessions] = true
		case w == "help" && i+1 < len(words) && words[i+1] == "with",
			i > 0 && words[i-1] == "who" && vendorVerbs[w]: // "who makes smart pumps?"
			has[search.Exhibitors] = true
		}
	}
}

// slotAsked reports whether a question sent only to exhibitors by its cue
// words asks when something opens, closes, starts or ends ("when does the
// expo close today?", "what time do the booths open"): exhibitors keep no
// hours, so the programme's sessions answer, the cue naming the slot.
func slotAsked(question string, tables []search.Table) bool {
	return slices.Equal(tables, []search.Table{search.Exhibitors}) && lexical.AsksWhen(question)
}

// isExhibitorCue reports whether a word asks for a company ("booth", "vendor").
func isExhibitorCue(w string) bool { return exhibitorCues[w] }

// whatsOn reports whether words[i] starts "what's on" ("whats on", "what
// is on") in a clause that names no company's cue ("what's on at the
// booths" asks for exhibitors).
func whatsOn(words []string, i int) bool {
	rest := words[i:]
	switch {
	case len(rest) >= 3 && rest[0] == "what" && (rest[1] == "s" || rest[1] == "is") && rest[2] == "on",
		len(rest) >= 2 && rest[0] == "whats" && rest[1] == "on":
		return !slices.ContainsFunc(words, isExhibitorCue)
	}
	return false
}

// topicText is what the question is about, as the attendee wrote it
// ("run GPU inference on our own Kubernetes cluster"): its topic (see
// lexical.Topic) without the cue and filler words at its edges and
// without the table cue words inside it ("MLOps talks" → "MLOps").
func topicText(message string) string { return trimmed(lexical.Topic(message)) }

// trimmed is a topic without cue words, and without filler at its edges.
func trimmed(topic string) string { return trimmedFor(topic, cue) }

// trimmedFor is trimmed with the cue words isCue says.
func trimmedFor(topic string, isCue func(string) bool) string {
	toks := strings.Fields(topic)
	for i := range toks {
		toks[i] = unpunctuated(toks[i])
	}
	toks = slices.DeleteFunc(toks, func(tok string) bool { return tok == "" || isCue(tok) })
	start, end := 0, len(toks)
	for start < end && !topical(toks[start], isCue) {
		start++
	}
	for end > start && !topical(toks[end-1], isCue) {
		end--
	}
	return strings.Join(toks[start:end], " ")
}

// cue reports whether a written token is a table cue word ("talks",
// "speakers", "booth"), which routes the question but is not its topic.
func cue(tok string) bool {
	w := strings.ToLower(tok)
	return speakerCues[w] || exhibitorCues[w] || sessionCues[w]
}

// topical reports whether a written token has a word that is not a cue,
// filler or stop word. Possessives count as their word ("Nvidia's").
func topical(tok string, isCue func(string) bool) bool {
	for _, w := range terms.Words(strings.TrimSuffix(strings.TrimSuffix(tok, "'s"), "’s")) {
		if !terms.IsStop(w) && !fillerWords[w] && !isCue(w) && w != "help" {
			return true
		}
	}
	return false
}

func withoutWords(text string, drop map[string]bool) string {
	var kept []string
	for _, tok := range strings.Fields(text) {
		keep := false
		for _, w := range terms.Words(tok) {
			if !drop[w] {
				keep = true
			}
		}
		if keep {
			kept = append(kept, tok)
		}
	}
	return strings.Join(kept, " ")
}

func intent(tables []search.Table, topic string) string {
	names := make([]string, len(tables))
	for i, tb := range tables {
		names[i] = string(tb)
	}
	if topic == "" {
		return "browse " + strings.Join(names, " and ")
	}
	return "find " + strings.Join(names, " and ") + " about " + topic
}

// errand is a verb of doing opening what a question asks for: "(where do
// I) collect my badge", "(where can I) leave my bag".
var errand = regexp.MustCompile(`(?i)^(?:pick(?:ing)?\s+up|collect|grab|drop\s+off|leave|put|store|hand\s+in)\b\s*`)

// errandsDone drops the verb of doing that opens a need when the
// conference's text never uses it: "pick up my badge" at a conference
// that writes "badge collection" asks about the badge, while "collect my
// badge" where the programme says "Collect your badge" keeps its verb, a
// word the answer has.
func errandsDone(parts []lexical.Need, support func(string) float64) []lexical.Need {
	if support == nil {
		return parts
	}
	for i, p := range parts {
		if m := errand.FindString(p.Text); m != "" && support(terms.Words(m)[0]) == 0 {
			parts[i].Text = p.Text[len(m):]
		}
	}
	return parts
}
