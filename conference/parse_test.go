package conference_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	require.NoError(t, err, "Parse")
	got := b.ConferenceIDs()
	require.Len(t, got, 2, "conferences = %v", got)
	assert.Equal(t, "c1", got[0], "conferences = %v", got)
	require.Len(t, b.Sessions, 1, "session decoded wrongly: %+v", b.Sessions)
	require.NotEmpty(t, b.Sessions[0].SpeakerIDs, "session decoded wrongly: %+v", b.Sessions)
	assert.Equal(t, "p1", b.Sessions[0].SpeakerIDs[0], "session decoded wrongly: %+v", b.Sessions)
	assert.NotEmpty(t, b.Sessions[0].Facets["session_topic"], "session decoded wrongly: %+v", b.Sessions)
	assert.NotEmpty(t, b.Sessions[0].Facets["talks_about"], "session decoded wrongly: %+v", b.Sessions)
	of := b.Of("c2")
	assert.Empty(t, of.Sessions, "Of(c2) = %+v", of)
	assert.Len(t, of.Exhibitors, 1, "Of(c2) = %+v", of)
	assert.Len(t, of.Conferences, 1, "Of(c2) = %+v", of)
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
	require.ErrorAs(t, err, &inv, "want *InvalidError")
	require.ErrorIs(t, err, conference.ErrInvalid)
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
		assert.Contains(t, msg, w, "error does not mention %q", w)
	}
	assert.Len(t, inv.Problems, len(want), "problems reported:\n%s", msg)
	assert.NotContains(t, msg, "sessions[4].id", "undecodable records also reported as missing fields")
	assert.NotContains(t, msg, "sessions[5].id", "undecodable records also reported as missing fields")
}

func TestParseLocatesSyntaxErrors(t *testing.T) {
	_, err := conference.Parse("broken.json", []byte("{\n \"conferences\": [\n  {\"id\": \"c1\",}\n ]\n}"))
	require.Error(t, err, "want a line and column")
	assert.Contains(t, err.Error(), "line 3, column", "want a line and column")
	_, err = conference.Parse("array.json", []byte(`[1,2]`))
	require.Error(t, err, "top-level array")
	assert.Contains(t, err.Error(), "expected", "top-level array")
	_, err = conference.Parse("empty.json", []byte(`{}`))
	require.Error(t, err, "empty bundle")
	assert.Contains(t, err.Error(), "conferences: at least one conference is required", "empty bundle")
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.json")
	require.NoError(t, os.WriteFile(path, []byte(good), 0o600))
	_, err := conference.LoadFile(path)
	assert.NoError(t, err, "LoadFile")
	_, err = conference.LoadFile(filepath.Join(dir, "missing.json"))
	assert.ErrorIs(t, err, os.ErrNotExist, "missing file")
}

// A facet may be a number, a truth value or a list of texts and numbers, as
// programmes export them: counts read as written, true as the key's words,
// false and null as nothing; an object is still refused, naming its key.
func TestFacetsReadNumbersAndTruthValues(t *testing.T) {
	b, err := conference.Parse("f.json", []byte(`{"conferences": [{"id": "c1", "name": "One"}],
 "sessions": [{"id": "s1", "conference_id": "c1", "title": "ROS 2 lab",
   "facets": {"capacity": 24, "signup_required": true, "recorded": false, "room_notes": null, "levels": ["beginner", 2]}}]}`))
	require.NoError(t, err)
	assert.Equal(t, conference.Facets{"capacity": "24", "signup_required": "signup required", "levels": "beginner; 2"}, b.Sessions[0].Facets)
	_, err = conference.Parse("o.json", []byte(`{"conferences": [{"id": "c1", "name": "One"}],
 "sessions": [{"id": "s1", "conference_id": "c1", "title": "Lab", "facets": {"room": {"floor": 2}}}]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `sessions[0]: facet "room": expected a text, a number, true or false, or a list of them`)
}
