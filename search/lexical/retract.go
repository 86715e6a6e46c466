package lexical

import (
	"regexp"
	"strings"
)

// retraction takes back what was written before it ("nutrition sessions
// please... actually scratch that, just the exhibitors"); the punctuation
// after it tells it from "scratch that itch". "I was going to ask about MT
// but actually …" takes back what it was going to ask.
var retraction = regexp.MustCompile(`(?i)\b(?:(?:(?:scratch|scrap|forget|ignore|strike|drop)\s+(?:that|this|it|all\s+that|what\s+i\s+(?:just\s+)?(?:said|asked|wrote)|(?:the|my)\s+(?:[\w'-]+\s+){0,3}(?:question|bit|part|stuff|one|thing|idea|request))|never\s*mind(?:\s+(?:that|this|it|(?:the|about|my)\s+[^,.;:!?]{1,40}))?)\s*[,.;:!?–—-]+|i\s+(?:was\s+going|meant|wanted)\s+to\s+ask\s+(?:about\s+)?[^,.;:!?]{1,40}?\s+but(?:\s+actually)?(?:\s+(?:more\s+urgent(?:ly)?|first)\s*[,.;:!?–—-]*)?)\s*`)

// Retracted is text without what its writer took back: what follows the
// last retraction, when anything does.
func Retracted(text string) string {
	all := retraction.FindAllStringIndex(text, -1)
	if len(all) == 0 {
		return text
	}
	rest := strings.TrimSpace(text[all[len(all)-1][1]:])
	if rest == "" {
		return text
	}
	return rest
}
