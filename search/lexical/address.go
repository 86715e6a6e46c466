package lexical

import "regexp"

// address is a web address or an e-mail address in a message.
// An e-mail domain ends in letters: "meet@10.30" is a time.
var address = regexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b`)

// Unaddressed is text without its web and e-mail addresses, which say
// nothing about what is asked ("see https://example.com/agenda – anything
// on RAG?", "email me at ana@example.com about MLOps talks") and whose
// pieces ("https", "com") would be searched as words.
func Unaddressed(text string) string { return address.ReplaceAllString(text, " ") }
