// Package icaljstest parses iCalendar text with ical.js — Mozilla's
// parser, the one Thunderbird uses — so tests can check what eventcal writes
// against an implementation that shares no code with it.
//
// It needs node and the npm package ical.js. The module is looked for in
// $ICALJS_NODE_PATH, else in <user cache dir>/eventcal-node/node_modules,
// where the repository's .ci/run installs it:
//
//	npm install --prefix "${XDG_CACHE_HOME:-$HOME/.cache}/eventcal-node" ical.js@2.2.1
//
// When either is missing, Parse skips the test with a message saying so —
// except under EVENTCAL_REQUIRE_NODE=1, where it fails it.
package icaljstest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

//go:embed parse.cjs
var script []byte

// Result is what ical.js read.
type Result struct {
	Calendar map[string]any `json:"calendar"` // calendar property → first value
	Tree     Component      `json:"tree"`
	Events   []Event        `json:"events"`
	// Expanded holds the occurrences ical.js computes for every recurring
	// VEVENT (RRULE/RDATE minus EXDATE, with the overrides of the VEVENTs
	// that share its UID and carry a RECURRENCE-ID), series after series.
	Expanded []Occurrence `json:"expanded"`
}

// Occurrence is one occurrence of a recurring VEVENT as ical.js expands it.
type Occurrence struct {
	UID          string `json:"uid"`
	RecurrenceID Time   `json:"recurrenceId"`
	Start        Time   `json:"start"`
	End          Time   `json:"end"`
	Summary      string `json:"summary"`
}

// Component is a component's name, its property names in order, and its children.
type Component struct {
	Name     string      `json:"name"`
	Props    []string    `json:"props"`
	Children []Component `json:"children"`
}

// Event is one VEVENT as ical.js read it.
type Event struct {
	UID         string     `json:"uid"`
	Summary     *Text      `json:"summary"`
	Description *Text      `json:"description"`
	Location    *Text      `json:"location"`
	URL         string     `json:"url"`
	Status      string     `json:"status"`
	Sequence    *int       `json:"sequence"`
	Geo         []float64  `json:"geo"`
	Categories  []string   `json:"categories"`
	Organizer   *Organizer `json:"organizer"`
	Start       *Time      `json:"start"`
	End         *Time      `json:"end"`
	// RecurrenceID is set on a VEVENT that overrides one occurrence of a series.
	RecurrenceID *Time `json:"recurrenceId"`
}

// Text is a TEXT value and its LANGUAGE parameter.
type Text struct {
	Value    string  `json:"value"`
	Language *string `json:"language"`
}

// Organizer is ORGANIZER's CN and value.
type Organizer struct {
	CN    *string `json:"cn"`
	Value string  `json:"value"`
}

// Time is DTSTART or DTEND: Date (YYYY-MM-DD) for dates; else UTC (RFC 3339
// "…Z", converted with the stream's own VTIMEZONE), Local (wall clock as
// written) and TZID. Error says why a time could not be converted.
type Time struct {
	Date  string `json:"date"`
	UTC   string `json:"utc"`
	Local string `json:"local"`
	TZID  string `json:"tzid"`
	Error string `json:"error"`
}

// Available reports whether node and ical.js can be run, and if not why.
func Available() (nodePath string, why string) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", "node is not installed"
	}
	dir := os.Getenv("ICALJS_NODE_PATH")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", "no user cache dir: " + err.Error()
		}
		dir = filepath.Join(cache, "eventcal-node", "node_modules")
	}
	if _, err := os.Stat(filepath.Join(dir, "ical.js", "package.json")); err != nil {
		return "", "ical.js is not installed in " + dir + " (run .ci/run, or npm install --prefix " + filepath.Dir(dir) + " ical.js@2.2.1)"
	}
	return dir, ""
}

// Require skips t (fails it under EVENTCAL_REQUIRE_NODE=1) when ical.js cannot be run.
func Require(t testing.TB) string {
	t.Helper()
	dir, why := Available()
	if why != "" {
		if os.Getenv("EVENTCAL_REQUIRE_NODE") == "1" {
			t.Fatalf("ical.js needed with EVENTCAL_REQUIRE_NODE=1: %s", why)
		}
		t.Skipf("skipping the ical.js check: %s", why)
	}
	return dir
}

// Parse runs ical.js on ics. A stream ical.js refuses fails the test.
func Parse(t testing.TB, ics []byte) *Result {
	t.Helper()
	dir := Require(t)
	f := filepath.Join(t.TempDir(), "parse.cjs")
	if err := os.WriteFile(f, script, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", f)
	cmd.Env = append(os.Environ(), "NODE_PATH="+dir, "TZ=UTC")
	cmd.Stdin = bytes.NewReader(ics)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ical.js: %v\n%s", err, stderr.String())
	}
	var r Result
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("ical.js output: %v", err)
	}
	return &r
}
