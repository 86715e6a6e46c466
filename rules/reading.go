package rules

import (
	"fmt"

	"github.com/erleah/erleah-agent/search/lexical"
)

// asked is the question as the rules read it: its English reading when it
// was written in another language and translated, else as written.
func asked(message, reading string) string {
	if reading != "" {
		return lexical.Retracted(reading)
	}
	return lexical.Retracted(message)
}

// languageNote says, for a question in another language, that the agent
// works in English, and how it read the question.
func languageNote(language, reading string) string {
	if language == "" || language == lexical.English {
		return ""
	}
	name := lexical.LanguageName(language)
	if reading == "" {
		return fmt.Sprintf("I work in English, so I read your question (in %s) by the words I recognised.\n\n", name)
	}
	return fmt.Sprintf("I work in English, so I read your question (in %s) as %s.\n\n", name, quote(clip(reading, maxReading)))
}

// maxReading bounds the reading quoted back to the attendee, in bytes.
const maxReading = 300
