package lexical

import "regexp"

// address is a web address or an e-mail address in a message.
var address = regexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+`)

// Unaddressed is text without its web and e-mail addresses, which say
// nothing about what is asked ("see https://example.com/agenda – anything
// on RAG?", "email me at ana@example.com about MLOps talks") and whose
// pieces ("https", "com") would be searched as words.
func Unaddressed(text string) string { return address.ReplaceAllString(text, " ") }
