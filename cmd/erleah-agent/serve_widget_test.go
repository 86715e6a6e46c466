package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeServesTheWidget: serve answers /widget/ with the embedded page
// and /widget/widget.js with the bundled script (web/dist).
func TestServeServesTheWidget(t *testing.T) {
	url, stop := serveForTest(t, map[string]string{})
	defer stop()
	for path, want := range map[string]string{"/widget/": `<script src="widget.js"></script>`, "/widget/widget.js": "thinking_output"} {
		res, err := http.Get(url + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		assert.Equal(t, http.StatusOK, res.StatusCode, "GET %s", path)
		assert.True(t, strings.Contains(string(body), want), "GET %s: body has %q", path, want)
	}
	res, err := http.Get(url + "/widget")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode, "GET /widget: want a redirect to /widget/")
	assert.Equal(t, "/widget/", res.Request.URL.Path, "GET /widget: want a redirect to /widget/")
}
