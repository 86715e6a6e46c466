package lexical

import "regexp"

// asksPrice is a question about what something costs: "how much is a day
// ticket?", "what does the dinner cost?", "ticket prices?". "Cloud cost
// optimisation" is a topic, not a price asked.
var asksPrice = regexp.MustCompile(`(?i)\bhow\s+much\s+(?:is|are|does|do|will|would|for|to)\b|\bwhat\s+(?:does|do|will|would)\s+.{1,40}\s+cost\b|\b(?:ticket|tickets|pass|passes|entry|admission|registration|parking)\s+(?:price|prices|pricing|costs?|fees?)\b|\bprice\s+of\s+(?:a|an|the)\b`)

// AsksPrice reports whether a message asks what something costs.
func AsksPrice(message string) bool { return asksPrice.MatchString(message) }

// price is an amount of money, or "free", as a programme writes it.
var price = regexp.MustCompile(`(?i)[£$€¥₹]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:eur|euros?|usd|dollars?|pounds?|gbp|aud|cad|inr|rupees?)\b|\bfree\s+(?:of\s+charge|entry|admission|for)\b|\bno\s+charge\b`)

// StatesPrice reports whether a text gives an amount of money or says
// something is free.
func StatesPrice(text string) bool { return price.MatchString(text) }
