package lexical_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/lexical"
)

func TestSmallTalkIsToldFromQuestions(t *testing.T) {
	for msg, want := range map[string]string{
		"hi":                              lexical.TalkGreeting,
		"Hello there!":                    lexical.TalkGreeting,
		"good morning :)":                 lexical.TalkGreeting,
		"thanks, that's really helpful!":  lexical.TalkThanks,
		"ok thx":                          lexical.TalkThanks,
		"ok":                              lexical.TalkAck,
		"Great!":                          lexical.TalkAck,
		"bye, see you later":              lexical.TalkBye,
		"are you a bot?":                  lexical.TalkIdentity,
		"Am I talking to a real person?":  lexical.TalkIdentity,
		"who are you":                     lexical.TalkIdentity,
		"help":                            lexical.TalkHelp,
		"what can you do?":                lexical.TalkHelp,
		"hi, any rigging talks?":          "",
		"thanks! and what's on tomorrow?": "",
		"morning?":                        "",
		"are you a bot or can I ask about bot detection talks?": "",
		"?":                               "",
		"help with DMX addressing":        "",
		"are you a real person or a bot?": lexical.TalkIdentity,
		"Good morning from Leeds! First time here 😊":                lexical.TalkGreeting,
		"bye! see you next year":                                    lexical.TalkBye,
		"hi, rigging safety":                                        "",
		"hello! any talks I should see":                             "",
		"ugh, the queue at the desk is terrible":                    lexical.TalkFeeling,
		"the sound in hall 2 was awful and I missed the talk":       lexical.TalkFeeling,
		"EVSE uptime at our depot is terrible, who should I call":   "",
		"terrible acoustics workshops?":                             "",
		"lol nice":                                                  lexical.TalkAck,
		"hahaha ok":                                                 lexical.TalkAck,
		"nice one!":                                                 lexical.TalkAck,
		"wow":                                                       lexical.TalkAck,
		"looool thx":                                                lexical.TalkThanks,
		"lol any talks on LOLBins?":                                 "",
		"hash tables":                                               "",
		"thanks for the help this week bot!":                        lexical.TalkThanks,
		"thanks, this has been super helpful today!":                lexical.TalkThanks,
		"goodmorning!":                                              lexical.TalkGreeting,
		"can't sleep lol. nervous about my first trade fair":        lexical.TalkMood,
		"great first day honestly, my feet hurt 😅":                  lexical.TalkMood,
		"so nervous about my talk on PLC safety tomorrow":           "",
		"I'm tired, any short talks this afternoon?":                "",
		"jet lag talks":                                             "",
		"are you a real person or a bot lol":                        lexical.TalkIdentity,
		"ur great btw":                                              lexical.TalkPraise,
		"this bot is class, saved me wandering round like an eejit": lexical.TalkPraise,
		"you're a legend thanks for today":                          lexical.TalkPraise,
		"you're great, any talks on mastitis?":                      "",
		"the app is great but where is room 2A":                     "",
		"great talks on mastitis":                                   "",
	} {
		assert.Equal(t, want, lexical.SmallTalk(msg), "SmallTalk(%q)", msg)
	}
}

func TestAsksToBookIsToldFromAskingAbout(t *testing.T) {
	for msg, want := range map[string]bool{
		"Please book me a seat at the LED wall workshop": true,
		"can you reserve two places for the dinner?":     true,
		"buy me a ticket for the gala":                   true,
		"register me for the hoist workshop":             true,
		"any talks on booking systems?":                  false,
		"how do I register for the conference app?":      false,
	} {
		assert.Equal(t, want, lexical.AsksToBook(msg), "AsksToBook(%q)", msg)
	}
}
