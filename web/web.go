// Package web holds the attendee chat widget (README.md, "Chat widget"):
// index.html and the bundled dist/widget.js (built from src/ with
// `npm ci && npm run build` in this directory and kept in the repository),
// embedded in the binary and served by `serve` at /widget/.
package web

import (
	"embed"
	"net/http"
	"strings"
)

//go:embed index.html dist/widget.js
var files embed.FS

// Handler serves the widget below prefix (e.g. "/widget/"): the demo page
// at prefix and the script at prefix+"widget.js". Anything else is a 404.
func Handler(prefix string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		var name, ctype string
		switch strings.TrimPrefix(r.URL.Path, prefix) {
		case "", "index.html":
			name, ctype = "index.html", "text/html; charset=utf-8"
		case "widget.js":
			name, ctype = "dist/widget.js", "text/javascript; charset=utf-8"
			// embeddable from any page
			w.Header().Set("Access-Control-Allow-Origin", "*")
		default:
			http.NotFound(w, r)
			return
		}
		b, err := files.ReadFile(name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.Method == http.MethodHead {
			return
		}
		_, _ = w.Write(b)
	})
}
