package main

import (
	"bufio"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// .env.example names every variable the service reads, and loads as it is
// (empty values mean the default).
func TestEnvExampleIsCompleteAndLoads(t *testing.T) {
	f, err := os.Open("../../.env.example")
	if err != nil {
		t.Fatal(err)
	}
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
		if _, ok := env[name]; !ok && name != "HOME" && name != "XDG_STATE_HOME" {
			t.Errorf(".env.example lacks %s", name)
		}
	}
	for k := range env {
		found := false
		for i := range typ.NumField() {
			found = found || typ.Field(i).Tag.Get("env") == k
		}
		if !found {
			t.Errorf(".env.example names %s, which nothing reads", k)
		}
	}
	if _, err := loadConfig(env); err != nil {
		t.Fatalf(".env.example does not load: %v", err)
	}
}

// The startup log names every variable with its value, secrets masked.
func TestConfigLogNamesEveryVariableAndMasksSecrets(t *testing.T) {
	c, err := loadConfig(map[string]string{"DIRECTUS_URL": "http://d", "DIRECTUS_TOKEN": "tok-123", "OPENAI_API_KEY": "sk-456", "RECONCILE_GRACE": "7s"})
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("starting", "config", c)
	out := buf.String()
	for _, leak := range []string{"tok-123", "sk-456"} {
		if strings.Contains(out, leak) {
			t.Fatalf("a secret reached the log: %s", out)
		}
	}
	typ := reflect.TypeOf(config{})
	for i := range typ.NumField() {
		if name := typ.Field(i).Tag.Get("env"); name != "HOME" && name != "XDG_STATE_HOME" && !strings.Contains(out, `"`+strings.ToLower(name)+`"`) {
			t.Errorf("the log lacks %s", name)
		}
	}
	if !strings.Contains(out, `"reconcile_grace":"7s"`) {
		t.Errorf("reconcile_grace not logged with its value: %s", out)
	}
}

// The model time budgets default to 10 s per call and 5 s of stream
// silence, and reach the providers' configuration.
func TestConfigModelTimeoutDefaults(t *testing.T) {
	c, err := loadConfig(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	lc := c.llmConfig()
	if lc.CallTimeout != 10*time.Second || lc.StreamIdleTimeout != 5*time.Second {
		t.Fatalf("call timeout %v, idle timeout %v", lc.CallTimeout, lc.StreamIdleTimeout)
	}
	c, err = loadConfig(map[string]string{"MODEL_CALL_TIMEOUT": "3s", "MODEL_STREAM_IDLE_TIMEOUT": "1500ms"})
	if err != nil || c.llmConfig().CallTimeout != 3*time.Second || c.llmConfig().StreamIdleTimeout != 1500*time.Millisecond {
		t.Fatalf("err %v, config %+v", err, c.llmConfig())
	}
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
	} {
		_, err := loadConfig(tc.env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.env, err, tc.want)
		}
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
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.checkServe(); (err == nil) != tc.open || err != nil && !strings.Contains(err.Error(), "API_TOKEN") {
			t.Errorf("%v: %v", tc.env, err)
		}
	}
	code, _, errOut := cli(t, map[string]string{"LISTEN_ADDR": "0.0.0.0:0"}, "serve")
	if code != 2 || !strings.Contains(errOut, "ALLOW_ANONYMOUS_STREAM") {
		t.Fatalf("serve on 0.0.0.0 without a token: exit %d, %s", code, errOut)
	}
	code, _, errOut = cli(t, map[string]string{"DIRECTUS_URL": "http://127.0.0.1:1"}, "serve")
	if code != 2 || !strings.Contains(errOut, "go together") {
		t.Fatalf("serve with DIRECTUS_URL alone: exit %d, %s", code, errOut)
	}
}

// TestAskAndEvalIgnoreAHalfConfiguredDirectus: after the README's Directus
// section exported DIRECTUS_URL (and the admin token under its own name),
// ask and eval still work: they read bundles, not Directus.
func TestAskAndEvalIgnoreAHalfConfiguredDirectus(t *testing.T) {
	env := map[string]string{"DIRECTUS_URL": "http://127.0.0.1:1", "DIRECTUS_ADMIN_TOKEN": "x"}
	if code, out, errOut := cli(t, env, "ask", "--json", "sessions on RAG?"); code != 0 || !strings.Contains(out, "sessions/") {
		t.Fatalf("ask: exit %d: %s", code, errOut)
	}
	if code, _, errOut := cli(t, env, "eval", "--set", "followup", "--reflection", "on"); code != 0 {
		t.Fatalf("eval: exit %d: %s", code, errOut)
	}
}

// TestStartupLogNamesEachSettingOnce: the state directory once, and the
// reconciler's abandon time as it is in effect.
func TestStartupLogNamesEachSettingOnce(t *testing.T) {
	cfg, err := loadConfig(map[string]string{"TURN_TIMEOUT": "20s", "STATE_DIR": "/tmp/x"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	slog.New(slog.NewJSONHandler(&b, nil)).Info("starting", "config", cfg)
	if n := strings.Count(b.String(), `"state_dir"`); n != 1 || !strings.Contains(b.String(), `"reconcile_abandon_after":"50s"`) {
		t.Fatalf("%d state_dir keys; log %s", n, b.String())
	}
}
