package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestServeServesTheWidget: serve answers /widget/ with the embedded page
// and /widget/widget.js with the bundled script (web/dist).
func TestServeServesTheWidget(t *testing.T) {
	url, stop := serveForTest(t, map[string]string{})
	defer stop()
	for path, want := range map[string]string{"/widget/": `<script src="widget.js"></script>`, "/widget/widget.js": "thinking_output"} {
		res, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %d, body has %q: %v", path, res.StatusCode, want, strings.Contains(string(body), want))
		}
	}
	res, err := http.Get(url + "/widget")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Request.URL.Path != "/widget/" {
		t.Errorf("GET /widget: %d at %s, want a redirect to /widget/", res.StatusCode, res.Request.URL.Path)
	}
}
