package main

import (
	"bufio"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"testing"
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
