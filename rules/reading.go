package rules

import (
	"github.com/erleah/erleah-agent/agent"
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
func languageNote(language, reading string) string { return agent.LanguageNote(language, reading) }
