package lexical

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRequestKeepsWhatIsAskedAndHowButNotWhoAsks(t *testing.T) {
	for in, want := range map[string]string{
		"I'm the only security person at a hospital. Which sessions or vendors help with ransomware?": "Which sessions or vendors help with ransomware",
		"I run a startup, any talks on pricing?":                                                      "any talks on pricing",
		"we're a team of 3 trying to find vendors":                                                    "trying to find vendors",
		"Who is speaking about fraud?":                                                                "Who is speaking about fraud",
		"I'm a speaker here":                                                                          "I'm a speaker here",
		"which vendrs sell ambient scribe tools?":                                                     "which vendors sell ambient scribe tools",
	} {
		assert.Equal(t, want, strings.TrimSpace(Request(in)), "%q", in)
	}
}

func TestAskingLeavesTheStoryOut(t *testing.T) {
	for in, want := range map[string]string{
		"Our repo is now 40 GB because artists commit textures. Anything on big binary files in git? A beginner intro would help.": "Anything on big binary files in git? A beginner intro would help.",
		"Android lead at a startup in Hanoi. I want ideas for smoother sign-in.":                                                   "I want ideas for smoother sign-in.",
		"Looking for a ransomware exercise. Version 2.5 of our plan is old.":                                                       "Looking for a ransomware exercise.",
	} {
		got, context := Asking(in)
		assert.True(t, context, "%q: no context found", in)
		assert.Equal(t, want, got, "%q", in)
	}
	for _, whole := range []string{"any talks on git?", "Git talks. Any workshops?  Which rooms?", "We use git and nothing else. Our repo is big, far too big.", ""} {
		got, context := Asking(whole)
		assert.False(t, context, "%q", whole)
		assert.Equal(t, whole, got)
	}
}

func TestTopicDropsSelfDescriptionAndRequestPhrasing(t *testing.T) {
	for in, want := range map[string]string{
		"I am a platform engineer at a mid-size bank and I want to learn how to run GPU inference on our own Kubernetes cluster…": "run GPU inference on our own Kubernetes cluster",
		"any good MLOps talks? we're a team of 3 trying to get our first models into prod":                                        "MLOps talks get our first models into prod",
		"Hi! I'm a nurse, is there anything here that would help me understand AI triage tools?":                                  "AI triage tools",
		"I'm looking for talks about carbon removal":                                                                              "talks about carbon removal",
		"I would like to know more about SBOMs":                                                                                   "SBOMs",
		"we need a vendor for pallet racking":                                                                                     "vendor for pallet racking",
		"Are there any sessions on data contracts?":                                                                               "data contracts",
		"Who gives a talk about fraud?":                                                                                           "fraud",
		"who works on tensorflow?":                                                                                                "tensorflow",
		"Who can help me deploy ML models on-prem?":                                                                               "deploy ML models on-prem",
		"Where is the Harbourline Inference booth?":                                                                               "Harbourline Inference booth",
		"Kubernetes":                   "Kubernetes",
		"where do I pick up my badge?": "pick up my badge", // the verb is dropped only where the programme never uses it (rules)
		"Could you give me some background on the Friday keynote speaker?": "Friday keynote speaker",
		"more info about the dinner please":                                "dinner",
		"information governance talks":                                     "information governance talks",
		"hi, thanks":                                                       "",
		"can you recommend something?":                                     "",
		"We're interested in cold chain":                                   "cold chain",
		"my name is Ana. Postgres tuning":                                  "Postgres tuning",
		"I keep wondering how to earn money from open source":              "earn money from open source",
		"I've always wanted to try robot welding":                          "try robot welding",
		"we were hoping for a session on cold storage":                     "cold storage",
		"We're replacing our old dispensing cabinets next year":            "our old dispensing cabinets next year",
		"I'm working at a hospital":                                        "",
		"I'm being asked to evaluate EHR vendors":                          "asked to evaluate EHR vendors",
		"I'm based in Leeds. Any talks on timber?":                         "timber",
		"Our biggest fear is ransomware":                                   "ransomware",
		"my main concern is fire safety":                                   "fire safety",
		"where is the grid storage session being held":                     "grid storage session",
		"BCMA scanning compliance - anyone presenting on that?":            "BCMA scanning compliance",
		"Is anybody talking about cloud costs for training?":               "cloud costs for training",
		"Anyone presenting on feature stores?":                             "feature stores",
		"Does anything in the programme cover data contracts?":             "data contracts",
		"Is anything scheduled on privacy?":                                "privacy",
		"Is there an on-site nursery?":                                     "on-site nursery",
		"anything on patient safety I can still catch?":                    "patient safety",
		"a workshop on welding that we could attend":                       "welding",
		"Any talks on-prem hosting?":                                       "on-prem hosting",
		"I'm also a bit worried about security":                            "security",
		"We're struggling with HL7v2 interfaces":                           "HL7v2 interfaces",
		"I'm a FHIR developer":                                             "FHIR",
		"I work on ransomware response at our hospital":                    "ransomware response",
		"my job is claims integration":                                     "claims integration",
		"I teach nursing informatics":                                      "nursing informatics",
		"I'm a beginner in FHIR":                                           "FHIR",
		"I'm responsible for claim denials":                                "claim denials",
		"Hi there! Any talks on FHIR?":                                     "FHIR",
		"We're about to replace our EHR":                                   "replace our EHR",
		"I'd love to see what automation exists":                           "automation",
		"hello - integration analyst at a children's hospital here. we are joining the regional HIE next year": "the regional HIE next year",
		"Nurse manager from Ottawa, looking for talks on staffing":                                             "talks on staffing",
		"talks by security engineers at Google":                                                                "talks by security engineers at Google",
		"aything on distributed training?":                                                                     "distributed training",
		"Somthing about FHIR?":                                                                                 "FHIR",
		"who's speaking about video interpreters?":                                                             "video interpreters",
		"list all talks on FHIR":                                                                               "talks on FHIR",
		"I'm a nurse":                                                                                          "nurse", // the role itself, which a programme may name as an audience; unknown to it, the agent asks what to look for
		"I'm working in a hospital":                                                                            "",
		"I'm a platform engineer. Any talks on timber?":                                                        "timber",
		"My team wants us to adopt FHIR":                                                                       "My team wants us to adopt FHIR",
		"Which claims talk should I head to?":                                                                  "claims talk",
		"I've got a call - which pricing talks can I fit in?":                                                  "pricing talks",
		"volunteers measuring river levels for flood warnings, is that covered?":                               "volunteers measuring river levels for flood warnings",
		"It exists some session on clinical documentation?":                                                    "session on clinical documentation",
		"Which sessions treat the management of the chain of supply?":                                          "management of the chain of supply",
		"switching gears, who's on the right to repair panels?":                                                "right to repair panels",
		"different topic: my wife is a tech, is there anything for women in the trade?":                        "women in the trade",
		"We maintain a fleet of regional jets. Any talks on engine wash?":                                      "engine wash",
		"a new topic modelling library":                                                                        "new topic modelling library",
		"talks on storage? trying to figure out when to set my alarm":                                          "talks on storage",
		"talks on storage? trying to work out if I can sleep in lol":                                           "talks on storage",
		"anyway, any talks on storage I can squeeze in?":                                                       "storage",
		"whos talking about PIAs":                                                                              "PIAs",
		"what's kicking off on storage?":                                                                       "storage",
		"Done with talks for today, is there anything social?":                                                 "social",
		"I'm done with the keynotes. Any pricing talks?":                                                       "pricing talks",
		"any talks on storage? trying to decide if I stay for the last day":                                    "storage",
		"trying to decide whether to buy a heat pump":                                                          "decide whether to buy a heat pump",
		"storage, batteries mostly":                                                                            "storage batteries mostly",
	} {
		assert.Equal(t, want, Topic(in), "Topic(%q)", in)
	}
}

// The answer an attendee fears ("…, or is it just sandwiches?") and the
// verbs that ask what starts are no topic; a sentence saying when the
// attendee is free is told apart from other stories.
func TestTopicDropsRhetoricalEndsAndStartVerbs(t *testing.T) {
	for in, want := range map[string]string{
		"Is there anything about ship fuels going on, or is it just sandwiches?": "ship fuels",
		"any security talk, or is it all vendor pitches?":                        "security talk",
		"What starts at ten?":                                            "at ten",
		"Which talk covers weather routing?":                             "weather routing",
		"which room is the TensorFlow talk in?":                          "TensorFlow talk in", // asks where it is, not about rooms
		"crowd managment talks pls":                                      "crowd managment talks",
		"I work for a corporate AV company. Recommend 3 sessions for me": "corporate AV", // the field of who asks
		"I'm a freelance lighting tech, what's best for me?":             "freelance lighting",
		"what time does registration open?":                              "registration",
		"Kindly let me know if there are any sessions pertaining to hearing protection. Thanking you in advance.": "hearing protection",
		"yo any dmx stuff happening":               "dmx stuff",
		"grandma3 session which room":              "grandma3 session",
		"when does the rigging workshop start":     "rigging workshop",
		"thx! any rigging workshops?":              "rigging workshops",
		"What hall is the drone demo in":           "drone demo in",
		"is it shore power or is it cold ironing?": "is it shore power or is it cold ironing", // no "just": a real alternative
	} {
		assert.Equal(t, want, Topic(in), "%q", in)
	}
	assert.True(t, SaysWhenFree("I'm free from 2pm until the boat tour."))
	assert.True(t, SaysWhenFree("We're only around until 4, any talks on cranes?"))
	assert.True(t, SaysWhenFree("I’m free after 3"))
	assert.True(t, SaysWhenFree("I've got a gap after lunch"))
	assert.True(t, SaysWhenFree("I've got 30 min before a call"))
	assert.True(t, SaysWhenFree("running late, will reach by 11."))
	assert.Equal(t, "LED screen talks", Topic("Running late, stuck in traffic. Any LED screen talks?"))
	assert.Equal(t, "LED screen talks", Topic("I might be a bit late, any LED screen talks?"))
	assert.Equal(t, "LED screen talks", Topic("any LED screen talks? we'll miss the start"))
	assert.False(t, SaysWhenFree("I'm a terminal manager from Antwerp."))
	asking, told := Told("Can't sleep, jet lag. Can I still get into a workshop?")
	assert.Equal(t, []string{"Can I still get into a workshop?"}, asking)
	assert.Equal(t, []string{"Can't sleep, jet lag."}, told)
	assert.Empty(t, Needs("anything good I can squeeze in?"), "only says the attendee could go")
	asking, told = Told("The filter coffee here is unreal. Anyway, what's starting next?")
	assert.Equal(t, []string{"Anyway, what's starting next?"}, asking)
	assert.Equal(t, []string{"The filter coffee here is unreal."}, told)
	asking, told = Told("Trying to plan before I fly in — which workshops are on Saturday? Sessions on git – the beginner ones")
	assert.Equal(t, []string{"which workshops are on Saturday?"}, asking)
	assert.Equal(t, []string{"Trying to plan before I fly in", "Sessions on git – the beginner ones"}, told)
}

func TestNeedsKeepNumbersAndNamesWhole(t *testing.T) {
	for in, want := range map[string][]string{
		"we import about 3,000 boxes a year. Any talks on demurrage?": {"we import about 3,000 boxes a year", "demurrage"},
		"our backend is Ruby 1.8, so how do we move to Node.js":       {"our backend is Ruby 1.8", "move to Node.js"},
		"sessions on ports, then on rail":                             {"sessions on ports", "then on rail"},
		"sessions on RAG,MLOps":                                       {"sessions on RAG", "MLOps"},
	} {
		assert.Equal(t, want, Needs(in), in)
	}
}

func TestNeedsLeaveOutWhatIsTurnedDown(t *testing.T) {
	for in, want := range map[string][]string{
		"Any talks on quantum annealing? Classical GPU stuff I can already find elsewhere, thanks.":        {"quantum annealing"},
		"I need a company that serves LLMs on our own servers. Not interested in renting cloud GPUs.":      {"company that serves LLMs on our own servers"},
		"Looking for an ML intro in R so I don't have to learn Python. Chatbot stuff doesn't interest me.": {"ML intro in R"},
		"I've already seen plenty on nursing, so what is there on hospital kitchens?":                      {"hospital kitchens"},
		"we don't want vendor pitches, just hands-on labs":                                                 {"just hands-on labs"},
		"a scheduler that doesn't need the cloud":                                                          {"scheduler that doesn't need the cloud"},
		"I don't want to miss anything on RAG":                                                             {"RAG"},
		"I have already got a GPU cluster and need talks on job scheduling":                                {"talks on job scheduling"},
		"I don't want to miss the keynote on RAG":                                                          {"the keynote on RAG"},
		"I already have a GPU cluster and hope to learn about job scheduling":                              {"job scheduling"},
		"We don't want vendor pitches and need hands-on labs":                                              {"hands-on labs"},
		"Is there a panel where we don't need to code?":                                                    {"panel where we don't need to code"},
	} {
		assert.Equal(t, want, Needs(in), in)
	}
}

func TestNeedsReadWhatTroublesWhoAsks(t *testing.T) {
	for in, want := range map[string][]string{
		"I'm a shipper fed up with D&D charges. Any panel on that?": {"D&D charges", "panel on that"},
		"I'm a ward nurse tired of double charting":                 {"double charting"},
		"We're a small lab struggling with sample tracking":         {"sample tracking"},
		"I'm a ward nurse from Leeds":                               nil,
		"I'm a ward nurse sick with flu":                            nil,
	} {
		assert.Equal(t, want, Needs(in), in)
	}
}

// What the attendee struggles with is what they need, however short.
func TestNeedsReadWhatIsStruggledWith(t *testing.T) {
	for in, want := range map[string][]Need{
		"We struggle to get interpreters quickly":        {{Text: "get interpreters quickly", Asked: true}},
		"we have trouble finding staff for night shifts": {{Text: "finding staff for night shifts", Asked: true}},
		"I find it hard to read the numbers":             {{Text: "read the numbers", Asked: true}},
	} {
		assert.Equal(t, want, AskedNeeds(in), in)
	}
}

func TestNeedsLeaveOutWhoAsksByRole(t *testing.T) {
	for in, want := range map[string][]string{
		"Director of food and nutrition services at a hospital. Any talks on patient meal ordering?":              {"patient meal ordering"},
		"Technical superintendent at a ship manager. What is there on hull cleaning?":                             {"hull cleaning"},
		"Lead in drinking water - any session?":                                                                   {"Lead in drinking water"},
		"Operators in small ports: who is presenting?":                                                            {"Operators in small ports"},
		"Implementation partner for SAP?":                                                                         {"Implementation partner for SAP"},
		"Security engineer for our platform?":                                                                     {"Security engineer for our platform"},
		"Nurse manager for a county hospital. Anything on rostering?":                                             {"rostering"},
		"ML engineer for Zalando here - anything on recommender systems?":                                         {"recommender systems"},
		"Product owner at a fintech, anything on feature flags?":                                                  {"feature flags"},
		"Cloud operator in Europe with GPUs?":                                                                     {"Cloud operator in Europe with GPUs"},
		"Compliance advisor for GDPR?":                                                                            {"Compliance advisor for GDPR"},
		"I run the helpdesk for a contractor looking after 25 office buildings. Anything on planned maintenance?": {"planned maintenance"},
	} {
		assert.Equal(t, want, Needs(in), in)
	}
}

func TestUnaddressedLeavesOutWebAndMailAddresses(t *testing.T) {
	for in, want := range map[string]string{
		"see https://example.com/agenda?day=2 - anything on RAG?": "see   - anything on RAG?",
		"mail me at ana.b+conf@example.co.uk about MLOps":         "mail me at   about MLOps",
		"anything on www.langchain.com style RAG?":                "anything on   style RAG?",
		"talks on Node.js and e-mail security":                    "talks on Node.js and e-mail security",
		"meet@10.30 for RAG talks?":                               "meet@10.30 for RAG talks?",
	} {
		assert.Equal(t, want, Unaddressed(in), in)
	}
}

func TestOwnChoice(t *testing.T) {
	for s, want := range map[string]bool{
		"I'm not free in the morning.":                          true,
		"We can't make it on Thursday.":                         true,
		"No panels though, they are always too shallow.":        true,
		"Not on Wednesday please, I have a workshop.":           true,
		"Last year's fair had no workshops.":                    false,
		"I can't believe last year's edition had no workshops.": false,
		"There were no panels on Thursday last year.":           false,
	} {
		assert.Equal(t, want, OwnChoice(s), s)
	}
}

func TestRetractedKeepsWhatFollowsTheLastRetraction(t *testing.T) {
	for in, want := range map[string]string{
		"nutrition sessions please... actually scratch that, just the exhibitors for nutrition": "just the exhibitors for nutrition",
		"talks on GIS. Forget that - who sells drones?":                                         "who sells drones?",
		"any talks on cash transfers? never mind":                                               "any talks on cash transfers? never mind",
		"scratch that": "scratch that",
		"ok scrap the sensor question, is there anything on hive theft?":                               "is there anything on hive theft?",
		"drop the ball on hive theft":                                                                  "drop the ball on hive theft",
		"never mind the dubbing stuff, I'm more on the accessibility side - captions for deaf viewers": "I'm more on the accessibility side - captions for deaf viewers",
		"I was going to ask about MT but actually more urgent: who does certified translations?":       "who does certified translations?",
		"workshops on mapping. Never mind, any drone vendors?":                                         "any drone vendors?",
		"how do I scratch that itch for robotics?":                                                     "how do I scratch that itch for robotics?",
	} {
		assert.Equal(t, want, Retracted(in), "Retracted(%q)", in)
	}
}

// Two short questions of their own in one message are each asked for; a
// clause that points back at the first ("how much does it cost?") or a
// longer need is not such a question.
func TestShortQuestionsOfTheirOwnAreEachAsked(t *testing.T) {
	own := func(text string) []string {
		var out []string
		for _, n := range AskedNeeds(text) {
			if n.Own && n.Asked {
				out = append(out, n.Text)
			}
		}
		return out
	}
	assert.Equal(t, []string{"lunch", "dinner"}, own("when is lunch and where is the dinner?"))
	assert.Equal(t, []string{"coffee", "cloakroom"}, own("where can I get coffee? is there a cloakroom?"))
	assert.Empty(t, own("is there car parking and how much does it cost per day?"))
	assert.Empty(t, own("where is lunch"))
	assert.Empty(t, own("any talks on cold chain sensor audits and who sells reefer sensors?"))
}

// A message that only says who the attendee is asks for what the programme
// has for them: what they run, or their role itself, which programmes name
// as an audience; "a bit lost" names nothing.
func TestWhoAsksNamesWhatToLookForWhenNothingElseDoes(t *testing.T) {
	for in, want := range map[string][]string{
		"I'm a school librarian - what would you recommend?":                    {"school librarian"},
		"I run a small rural branch with no budget. what's most useful for me?": {"small rural branch with no budget"},
		"I'm a school librarian - any talks on reading for pleasure?":           {"reading for pleasure"},
	} {
		assert.Equal(t, want, Needs(in), in)
	}
	assert.NotContains(t, Needs("I'm a bit lost, what do you recommend?"), "bit lost")
}

// "One" standing for an item named by what it is about asks about that.
func TestTheOneAboutSomethingAsksAboutIt(t *testing.T) {
	assert.Equal(t, []string{"koha"}, Needs("the koha one - which room?"))
	assert.Equal(t, []string{"hands-on"}, Needs("when is that hands-on one?"))
	assert.Equal(t, []string{"One Health surveillance"}, Needs("any talks on One Health surveillance?"))
}

// Whether the attendee can still make something asks about that thing.
func TestTooLateForSomethingAsksAboutIt(t *testing.T) {
	assert.Equal(t, []string{"the closing keynote"}, Needs("am I too late for the closing keynote?"))
	assert.Equal(t, []string{"the expo"}, Needs("is it too early for the expo?"))
}

// "Good morning" greets, and what the attendee has been made responsible
// for is what they need.
func TestGreetingsAndNewResponsibilitiesAreRead(t *testing.T) {
	assert.Equal(t, []string{"glass-plate negatives"}, Needs("Good morning. Any talks on glass-plate negatives?"))
	assert.Equal(t, []string{"repository"}, Needs("I've just been made responsible for our repository"))
}

// "How long is X?" asks about X.
func TestHowLongAsksAboutTheThing(t *testing.T) {
	assert.Equal(t, []string{"lunch"}, Needs("how long is lunch"))
	assert.Equal(t, []string{"long-read journalism"}, Needs("any talks on long-read journalism?"))
}

// A question written after a state of the attendee's without a stop
// ("im starving when is lunch") starts a clause of its own at its
// question word, and the state is no topic; a relative "who" or "which"
// after a noun goes on with the same clause.
func TestTopicStartsAClauseAtAnInvertedQuestion(t *testing.T) {
	for in, want := range map[string]string{
		"im starving when is lunch":               "lunch",
		"I'm freezing, where is the cloakroom":    "cloakroom",
		"any vendors who do base camps":           "vendors who do base camps",
		"the ones which are about churn":          "the ones which are about churn",
		"we're replacing our dispensing cabinets": "our dispensing cabinets",
	} {
		assert.Equal(t, want, Topic(in), "Topic(%q)", in)
	}
}

// In chat an emoji ends a sentence, and "whats" opens a question as
// "what's" does: the sentence after "just landed in Dublin for the vet
// congress 👋" is what is asked. A degree sign is no emoji.
func TestAnEmojiEndsASentence(t *testing.T) {
	ask, context := Split("just landed in dublin for the vet congress 👋 whats on at the expo tomorrow")
	assert.Equal(t, []string{"whats on at the expo tomorrow"}, ask)
	assert.Equal(t, []string{"just landed in dublin for the vet congress 👋"}, context)
	ask, context = Split("our 2–8 °C road shipments keep failing in summer heat, any talks on lane qualification")
	assert.Empty(t, context, "one sentence: %q", ask)
	assert.Equal(t, "hungover", Needs("hungover 😵 whats the first thing on today")[0], "the emoji ends a clause")
}

// A time word mistyped is read as itself ("tomoro", "wensday"); an English
// word near one is left alone.
func TestRespelledReadsAMistypedTimeWord(t *testing.T) {
	for in, want := range map[string]string{
		"what time does registration open tomoro": "what time does registration open tomorrow",
		"any workshops on wensday":                "any workshops on wednesday",
		"keynote thursdy morning":                 "keynote thursday morning",
		"tomato growing talks":                    "tomato growing talks",
		"mooring lines":                           "mooring lines",
	} {
		assert.Equal(t, want, Respelled(in), "Respelled(%q)", in)
	}
}
