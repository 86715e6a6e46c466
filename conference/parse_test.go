package conference_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/erleah/erleah-agent/conference"
)

const good = `{
 "conferences": [{"id": "c1", "name": "One", "timezone": "Europe/Paris", "starts_on": "2026-05-12", "ends_on": "2026-05-14"},
                 {"id": "c2", "name": "Two"}],
 "sessions": [{"id": "s1", "conference_id": "c1", "title": "Kubernetes", "format": "talk",
               "starts_at": "2026-05-12T09:00:00+02:00", "ends_at": "2026-05-12T10:00:00+02:00",
               "speaker_ids": ["p1"], "facets": {"session_topic": "Running clusters", "talks_about": "Our own facet name"}, "extra": 1}],
 "exhibitors": [{"id": "e1", "conference_id": "c2", "name": "Acme", "website": "https://acme.example"}],
 "speakers": [{"id": "p1", "conference_id": "c1", "name": "Ada", "session_ids": ["s1"]}]
}`

func TestParseAcceptsAValidBundleAndIgnoresUnknownFields(t *testing.T) {
	b, err := conference.Parse("good.json", []byte(good))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got := b.ConferenceIDs(); len(got) != 2 || got[0] != "c1" {
		t.Fatalf("conferences = %v", got)
	}
	if len(b.Sessions) != 1 || b.Sessions[0].SpeakerIDs[0] != "p1" || b.Sessions[0].Facets["session_topic"] == "" || b.Sessions[0].Facets["talks_about"] == "" {
		t.Fatalf("session decoded wrongly: %+v", b.Sessions)
	}
	if of := b.Of("c2"); len(of.Sessions) != 0 || len(of.Exhibitors) != 1 || len(of.Conferences) != 1 {
		t.Fatalf("Of(c2) = %+v", of)
	}
}

func TestParseReportsEveryProblemWithItsLocation(t *testing.T) {
	bad := `{
 "conferences": [{"id": "c1", "name": "One", "timezone": "Mars/Olympus", "starts_on": "2026-05-14", "ends_on": "2026-05-12"},
                 {"id": "c1", "name": ""}],
 "sessions": [
   {"id": "s1", "conference_id": "c1", "title": "A", "speaker_ids": ["p1"]},
   {"id": "s1", "conference_id": "c1", "title": "dup"},
   {"id": "s3", "conference_id": "c9", "title": "", "format": "lecture",
    "starts_at": "9am", "speaker_ids": ["p99", "p2"], "facets": {"mood": "festive and bright", " ": "no key"}},
   {"id": "s4", "conference_id": "c1", "title": "x", "starts_at": "2026-05-12T10:00:00+02:00", "ends_at": "2026-05-12T09:00:00+02:00"},
   {"id": "s5", "conference_id": "c1", "title": 42},
   "not an object"
 ],
 "exhibitors": [{"id": "e 1", "conference_id": "c1", "name": "Acme", "website": "ftp://acme"},
                {"conference_id": "c1", "name": "NoID"}],
 "speakers": [{"id": "p1", "conference_id": "c1", "name": "Ada", "session_ids": ["s1", "s1", "s404"]},
              {"id": "p2", "conference_id": "c2", "name": "Bob"}]
}`
	_, err := conference.Parse("bad.json", []byte(bad))
	var inv *conference.InvalidError
	if !errors.As(err, &inv) || !errors.Is(err, conference.ErrInvalid) {
		t.Fatalf("err = %v, want *InvalidError", err)
	}
	want := []string{
		`conferences[0].timezone: unknown time zone "Mars/Olympus"`,
		`conferences[0].ends_on: ends before it starts`,
		`conferences[1].id: duplicate conference id "c1"`,
		`conferences[1].name: required`,
		`sessions[1].id: duplicate id "s1"`,
		`sessions[2].conference_id: unknown conference "c9"`,
		`sessions[2].title: required`,
		`sessions[2].format: unknown format "lecture"`,
		`sessions[2].starts_at: not an RFC 3339 time`,
		`sessions[2].speaker_ids[0]: unknown speaker "p99"`,
		`sessions[2].speaker_ids[1]: speaker "p2" belongs to conference "c2", not "c9"`,
		`sessions[2].facets: a facet key is empty`,
		`sessions[3].ends_at: must be after starts_at`,
		`sessions[4]: field "title": expected string`,
		`sessions[5]: must be a JSON object`,
		`exhibitors[0].id: "e 1" must not contain spaces`,
		`exhibitors[0].website: not an http(s) URL`,
		`exhibitors[1].id: required`,
		`speakers[0].session_ids[1]: session "s1" listed twice`,
		`speakers[0].session_ids[2]: unknown session "s404"`,
		`speakers[1].conference_id: unknown conference "c2"`,
	}
	msg := err.Error()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error does not mention %q", w)
		}
	}
	if len(inv.Problems) != len(want) {
		t.Errorf("%d problems reported, want %d:\n%s", len(inv.Problems), len(want), msg)
	}
	if strings.Contains(msg, "sessions[4].id") || strings.Contains(msg, "sessions[5].id") {
		t.Errorf("undecodable records also reported as missing fields:\n%s", msg)
	}
}

func TestParseLocatesSyntaxErrors(t *testing.T) {
	_, err := conference.Parse("broken.json", []byte("{\n \"conferences\": [\n  {\"id\": \"c1\",}\n ]\n}"))
	if err == nil || !strings.Contains(err.Error(), "line 3, column") {
		t.Fatalf("err = %v, want a line and column", err)
	}
	_, err = conference.Parse("array.json", []byte(`[1,2]`))
	if err == nil || !strings.Contains(err.Error(), "expected") {
		t.Fatalf("top-level array: err = %v", err)
	}
	_, err = conference.Parse("empty.json", []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "conferences: at least one conference is required") {
		t.Fatalf("empty bundle: err = %v", err)
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.json")
	if err := os.WriteFile(path, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := conference.LoadFile(path); err != nil {
		t.Fatalf("LoadFile: %v", err)
	}
	if _, err := conference.LoadFile(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: err = %v, want ErrNotExist", err)
	}
}
