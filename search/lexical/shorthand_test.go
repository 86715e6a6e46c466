package lexical_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/lexical"
)

func TestUnshortenedWritesChatShorthandOut(t *testing.T) {
	for in, want := range map[string]string{
		"wen is the dante talk":                 "when is the dante talk",
		"wheres the mixer":                      "where's the mixer",
		"goodmorning! last day":                 "good morning! last day",
		"any talks abt rigging tmrw":            "any talks about rigging tomorrow",
		"Tmrw, anything on generators n power?": "tomorrow, anything on generators and power?",
		"wat's on 2day":                         "what's on today",
		"what's on in Room B4 after lunch":      "what's on in Room B4 after lunch", // a room, not "before"
		"any talks on R? U of T people?":        "any talks on R? U of T people?",
	} {
		assert.Equal(t, want, lexical.Unshortened(in), "%q", in)
	}
}
