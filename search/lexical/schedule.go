package lexical

import "regexp"

// asksSchedule is a question about when or where something is: "mobile
// libraries talk when", "the koha one - which room?", "where's the BIBFRAME
// talk". "Where can I learn about RFID?" asks for a topic, not a place,
// and "when we underwrite homes" tells when, asking nothing.
var asksSchedule = regexp.MustCompile(`(?i)(?:^|[.?!,;:]\s*)when\b|\bwhen(?:'s|’s|\s+(?:is|are|does|do|will|was|did|can))\b|\bwhen\W*$|\bwhat\s+time\b|\b(?:which|what)\s+(?:room|hall|stage|day|floor)\b|\bwhere(?:'s|’s|\s+is|\s+are|\s+was|\s+will)\b`)

// AsksSchedule reports whether a message asks when or where something is.
func AsksSchedule(message string) bool { return asksSchedule.MatchString(message) }
