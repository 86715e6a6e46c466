package main

import (
	"bufio"
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
