package lexical

import (
	"strings"
	"unicode/utf8"
)

// Clip cuts s to at most n bytes at a word boundary, marking the cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	for cut <= 0 && n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	if cut <= 0 {
		cut = n
	}
	return strings.TrimRight(s[:cut], ",;: ") + "…"
}
