package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func get(t *testing.T, h http.Handler, method, path string) *http.Response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec.Result()
}

func TestHandlerServesThePageAndTheScript(t *testing.T) {
	h := Handler("/widget/")
	for _, c := range []struct{ path, ctype, want string }{
		{"/widget/", "text/html", `<script src="widget.js"></script>`},
		{"/widget/index.html", "text/html", `id="erleah-widget"`},
		{"/widget/widget.js", "text/javascript", "thinking_output"},
	} {
		res := get(t, h, http.MethodGet, c.path)
		body, _ := io.ReadAll(res.Body)
		assert.Equal(t, http.StatusOK, res.StatusCode, "GET %s: status", c.path)
		assert.True(t, strings.HasPrefix(res.Header.Get("Content-Type"), c.ctype), "GET %s: Content-Type = %q, want prefix %q", c.path, res.Header.Get("Content-Type"), c.ctype)
		// Not assert.Contains: on failure it would print the whole minified bundle.
		assert.True(t, strings.Contains(string(body), c.want), "GET %s: body lacks %q", c.path, c.want)
	}
	// The bundle carries the SDK's realtime client, not an import of it.
	res := get(t, h, http.MethodGet, "/widget/widget.js")
	body, _ := io.ReadAll(res.Body)
	const notBundled = "dist/widget.js is not a bundle with the SDK inside: run npm ci && npm run build in web/"
	assert.False(t, strings.Contains(string(body), "@directus/sdk"), notBundled+" (it imports @directus/sdk)")
	assert.True(t, strings.Contains(string(body), "/websocket"), notBundled+" (no /websocket in it)")
	assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"), "widget.js Access-Control-Allow-Origin (embeddable anywhere)")
}

func TestHandlerRefusesTheRest(t *testing.T) {
	h := Handler("/widget/")
	for _, p := range []string{"/widget/src/widget.js", "/widget/package.json", "/widget/dist/", "/widget/../web.go"} {
		assert.Equal(t, http.StatusNotFound, get(t, h, http.MethodGet, p).StatusCode, "GET %s", p)
	}
	assert.Equal(t, http.StatusMethodNotAllowed, get(t, h, http.MethodPost, "/widget/").StatusCode, "POST /widget/")
	assert.Equal(t, http.StatusOK, get(t, h, http.MethodHead, "/widget/widget.js").StatusCode, "HEAD /widget/widget.js")
}
