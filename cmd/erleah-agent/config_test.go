package main

import (
	"bufio"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// .env.example names every variable the service reads, and loads as it is
// (empty values mean the default).
func TestEnvExampleIsCompleteAndLoads(t *testing.T) {
	f, err := os.Open("../../.env.example")
	require.NoError(t, err)
	defer f.Close()
	env := map[string]string{}
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := strings.TrimSpace(sc.Text())
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			env[k] = v
		}
	}
	typ := reflect.TypeOf(config{})
	for i := range typ.NumField() {
		name := typ.Field(i).Tag.Get("env")
		if name != "HOME" && name != "XDG_STATE_HOME" {
			assert.Contains(t, env, name, ".env.example lacks %s", name)
		}
	}
	for k := range env {
		found := false
		for i := range typ.NumField() {
			found = found || typ.Field(i).Tag.Get("env") == k
		}
		assert.True(t, found, ".env.example names %s, which nothing reads", k)
	}
	_, err = loadConfig(env)
	assert.NoError(t, err, ".env.example does not load")
}

// The startup log names every variable with its value, secrets masked.
func TestConfigLogNamesEveryVariableAndMasksSecrets(t *testing.T) {
	c, err := loadConfig(map[string]string{"DIRECTUS_URL": "http://d", "DIRECTUS_TOKEN": "tok-123", "OPENAI_API_KEY": "sk-456", "RECONCILE_GRACE": "7s"})
	require.NoError(t, err)
	var buf strings.Builder
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("starting", "config", c)
	out := buf.String()
	for _, leak := range []string{"tok-123", "sk-456"} {
		require.NotContains(t, out, leak, "a secret reached the log")
	}
	typ := reflect.TypeOf(config{})
	for i := range typ.NumField() {
		if name := typ.Field(i).Tag.Get("env"); name != "HOME" && name != "XDG_STATE_HOME" {
			assert.Contains(t, out, `"`+strings.ToLower(name)+`"`, "the log lacks %s", name)
		}
	}
	assert.Contains(t, out, `"reconcile_grace":"7s"`, "reconcile_grace not logged with its value")
}

// The model time budgets default to 10 s per call and 5 s of stream
// silence, and reach the providers' configuration.
func TestConfigModelTimeoutDefaults(t *testing.T) {
	c, err := loadConfig(map[string]string{})
	require.NoError(t, err)
	lc := c.llmConfig()
	require.Equal(t, 10*time.Second, lc.CallTimeout, "call timeout")
	require.Equal(t, 5*time.Second, lc.StreamIdleTimeout, "idle timeout")
	c, err = loadConfig(map[string]string{"MODEL_CALL_TIMEOUT": "3s", "MODEL_STREAM_IDLE_TIMEOUT": "1500ms"})
	require.NoError(t, err)
	assert.Equal(t, 3*time.Second, c.llmConfig().CallTimeout, "config %+v", c.llmConfig())
	assert.Equal(t, 1500*time.Millisecond, c.llmConfig().StreamIdleTimeout, "config %+v", c.llmConfig())
}

func TestConfigRejectsBadModelTimeouts(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"MODEL_CALL_TIMEOUT": "30s"}, "MODEL_CALL_TIMEOUT=30s: want more than 0 and less than TURN_TIMEOUT (30s)"},
		{map[string]string{"MODEL_CALL_TIMEOUT": "5s", "TURN_TIMEOUT": "4s"}, "MODEL_CALL_TIMEOUT=5s: want more than 0 and less than TURN_TIMEOUT (4s)"},
		{map[string]string{"MODEL_CALL_TIMEOUT": "0s"}, "MODEL_CALL_TIMEOUT=0s: want more than 0"},
		{map[string]string{"MODEL_STREAM_IDLE_TIMEOUT": "-1s"}, "MODEL_STREAM_IDLE_TIMEOUT=-1s: want more than 0"},
		{map[string]string{"MODEL_STREAM_IDLE_TIMEOUT": "soon"}, `MODEL_STREAM_IDLE_TIMEOUT="soon" is not a valid time.Duration`},
		{map[string]string{"SEARCH_BACKEND": "elastic"}, `SEARCH_BACKEND="elastic": want memory or weaviate`},
		{map[string]string{"TRANSLATE": "google"}, `TRANSLATE="google": want auto, on or off`},
		{map[string]string{"SEARCH_BACKEND": "weaviate"}, "SEARCH_BACKEND=weaviate needs WEAVIATE_URL"},
	} {
		_, err := loadConfig(tc.env)
		assert.ErrorContains(t, err, tc.want, "%v", tc.env)
	}
}

// TestServeRefusesAnOpenStreamBeyondLoopback: without API_TOKEN, serve
// listens on loopback only unless ALLOW_ANONYMOUS_STREAM says otherwise.
func TestServeRefusesAnOpenStreamBeyondLoopback(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		open bool
	}{
		{map[string]string{"LISTEN_ADDR": "0.0.0.0:8080"}, false},
		{map[string]string{"LISTEN_ADDR": ":8080"}, false},
		{map[string]string{"LISTEN_ADDR": "10.1.2.3:8080"}, false},
		{map[string]string{"LISTEN_ADDR": "127.0.0.1:8080"}, true},
		{map[string]string{"LISTEN_ADDR": "[::1]:8080"}, true},
		{map[string]string{"LISTEN_ADDR": "localhost:8080"}, true},
		{map[string]string{"LISTEN_ADDR": "0.0.0.0:8080", "API_TOKEN": "t"}, true},
		{map[string]string{"LISTEN_ADDR": "0.0.0.0:8080", "ALLOW_ANONYMOUS_STREAM": "true"}, true},
	} {
		cfg, err := loadConfig(tc.env)
		require.NoError(t, err)
		err = cfg.checkServe()
		assert.Equal(t, tc.open, err == nil, "%v: %v", tc.env, err)
		if err != nil {
			assert.ErrorContains(t, err, "API_TOKEN", "%v", tc.env)
		}
	}
	code, _, errOut := cli(t, map[string]string{"LISTEN_ADDR": "0.0.0.0:0"}, "serve")
	require.Equal(t, 2, code, "serve on 0.0.0.0 without a token: exit code; stderr %s", errOut)
	require.Contains(t, errOut, "ALLOW_ANONYMOUS_STREAM", "serve on 0.0.0.0 without a token")
	code, _, errOut = cli(t, map[string]string{"DIRECTUS_URL": "http://127.0.0.1:1"}, "serve")
	assert.Equal(t, 2, code, "serve with DIRECTUS_URL alone: exit code; stderr %s", errOut)
	assert.Contains(t, errOut, "go together", "serve with DIRECTUS_URL alone")
}

// TestAskAndEvalIgnoreAHalfConfiguredDirectus: after the README's Directus
// section exported DIRECTUS_URL (and the admin token under its own name),
// ask and eval still work: they read bundles, not Directus.
func TestAskAndEvalIgnoreAHalfConfiguredDirectus(t *testing.T) {
	env := map[string]string{"DIRECTUS_URL": "http://127.0.0.1:1", "DIRECTUS_ADMIN_TOKEN": "x"}
	code, out, errOut := cli(t, env, "ask", "--json", "sessions on RAG?")
	require.Zero(t, code, "ask: exit code; stderr %s", errOut)
	require.Contains(t, out, "sessions/", "ask: stderr %s", errOut)
	code, _, errOut = cli(t, env, "eval", "--set", "followup", "--reflection", "on")
	assert.Zero(t, code, "eval: exit code; stderr %s", errOut)
}

// TestStartupLogNamesEachSettingOnce: the state directory once, and the
// reconciler's abandon time as it is in effect.
func TestStartupLogNamesEachSettingOnce(t *testing.T) {
	cfg, err := loadConfig(map[string]string{"TURN_TIMEOUT": "20s", "STATE_DIR": "/tmp/x"})
	require.NoError(t, err)
	var b strings.Builder
	slog.New(slog.NewJSONHandler(&b, nil)).Info("starting", "config", cfg)
	assert.Equal(t, 1, strings.Count(b.String(), `"state_dir"`), "state_dir keys; log %s", b.String())
	assert.Contains(t, b.String(), `"reconcile_abandon_after":"50s"`)
}
