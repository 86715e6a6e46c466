package lexical_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/lexical"
)

func TestAQuestionOfWhenOrWhereIsToldFromATopic(t *testing.T) {
	for msg, want := range map[string]bool{
		"mobile libraries talk when":                       true,
		"the koha one - which room?":                       true,
		"where's the BIBFRAME talk":                        true,
		"What time is the RFID session?":                   true,
		"Where can I learn about RFID?":                    false,
		"rfid":                                             false,
		"any talks on scheduling software?":                false,
		"where can i see stuff on biometrics":              false,
		"whenever you can, suggest copyright talks":        false,
		"a talk on roof scoring when we underwrite homes?": false,
		"When's the talk about podcast ads?":               true,
		"so when does it start":                            true,
	} {
		assert.Equal(t, want, lexical.AsksSchedule(msg), "AsksSchedule(%q)", msg)
	}
}
