package translate

import (
	"maps"
	"slices"
	"strings"
)

// codes names Apertium's language codes (two or three letters) by their
// ISO 639-1 code, as the language detector reports them.
var codes = map[string]string{
	"en": "en", "eng": "en", "es": "es", "spa": "es", "fr": "fr", "fra": "fr",
	"pt": "pt", "por": "pt", "it": "it", "ita": "it", "ca": "ca", "cat": "ca",
	"gl": "gl", "glg": "gl", "ro": "ro", "ron": "ro", "eu": "eu", "eus": "eu",
	"eo": "eo", "epo": "eo", "oc": "oc", "oci": "oc", "de": "de", "deu": "de",
	"nl": "nl", "nld": "nl", "is": "is", "isl": "is", "mk": "mk", "mkd": "mk",
	"da": "da", "dan": "da", "sv": "sv", "swe": "sv", "fi": "fi", "fin": "fi",
	"pl": "pl", "pol": "pl", "cs": "cs", "ces": "cs", "tr": "tr", "tur": "tr",
}

// Routes reads Apertium's directions ("spa-eng", "fr-es"; variants such as
// "spa-eng_US" and three-part names are left out) and returns, for every
// language that leads to English in one or two directions, the shortest
// way there.
func Routes(directions []string) map[string][]string {
	next := map[string]map[string]string{} // from → to → direction
	for _, d := range directions {
		from, to, ok := pair(d)
		if !ok {
			continue
		}
		if next[from] == nil {
			next[from] = map[string]string{}
		}
		next[from][to] = d
	}
	routes := map[string][]string{}
	for from, tos := range next {
		if d, ok := tos["en"]; ok {
			routes[from] = []string{d}
		}
	}
	for from, tos := range next {
		if _, ok := routes[from]; ok || from == "en" {
			continue
		}
		for _, via := range slices.Sorted(maps.Keys(tos)) {
			if d, ok := next[via]["en"]; ok {
				routes[from] = []string{tos[via], d}
				break
			}
		}
	}
	return routes
}

// pair reads a plain direction "xx-yy" as ISO 639-1 codes.
func pair(d string) (from, to string, ok bool) {
	a, b, found := strings.Cut(d, "-")
	if !found || strings.ContainsAny(b, "-_") {
		return "", "", false
	}
	from, ok1 := codes[a]
	to, ok2 := codes[b]
	return from, to, ok1 && ok2 && from != to
}
