package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), c.ctype) || !strings.Contains(string(body), c.want) {
			t.Errorf("GET %s: %d %q, body has %q: %v", c.path, res.StatusCode, res.Header.Get("Content-Type"), c.want, strings.Contains(string(body), c.want))
		}
	}
	// The bundle carries the SDK's realtime client, not an import of it.
	res := get(t, h, http.MethodGet, "/widget/widget.js")
	body, _ := io.ReadAll(res.Body)
	if strings.Contains(string(body), "@directus/sdk") || !strings.Contains(string(body), "/websocket") {
		t.Error("dist/widget.js is not a bundle with the SDK inside: run npm ci && npm run build in web/")
	}
	if got := res.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("widget.js Access-Control-Allow-Origin = %q, want * (embeddable anywhere)", got)
	}
}

func TestHandlerRefusesTheRest(t *testing.T) {
	h := Handler("/widget/")
	for _, p := range []string{"/widget/src/widget.js", "/widget/package.json", "/widget/dist/", "/widget/../web.go"} {
		if res := get(t, h, http.MethodGet, p); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, res.StatusCode)
		}
	}
	if res := get(t, h, http.MethodPost, "/widget/"); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /widget/: %d, want 405", res.StatusCode)
	}
	if res := get(t, h, http.MethodHead, "/widget/widget.js"); res.StatusCode != http.StatusOK {
		t.Errorf("HEAD /widget/widget.js: %d, want 200", res.StatusCode)
	}
}
