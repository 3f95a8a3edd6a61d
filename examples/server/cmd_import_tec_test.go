package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar/tecimport/tectest"
)

// totals reads the "total" row of an import-tec summary: read, created,
// updated, unchanged, failed.
func totals(t *testing.T, summary string) [5]int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^total\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$`).FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("no total row in:\n%s", summary)
	}
	var out [5]int
	for i := range out {
		out[i], _ = strconv.Atoi(m[i+1])
	}
	return out
}

// TestImportTECCommand migrates a generated site into a bolt file with the
// command, serves the file with the server and finds the records under the
// site's ids; a second run changes nothing.
func TestImportTECCommand(t *testing.T) {
	site := tectest.New(time.UTC)
	site.Users["admin"] = "app pass word"
	gen := site.Generate(tectest.GenerateOptions{Seed: 9, Events: 120, Venues: 20, Organizers: 20, Categories: 10, Tags: 20, Broken: true})
	ts := httptest.NewServer(site)
	defer ts.Close()
	db := filepath.Join(t.TempDir(), "cal.db")
	args := []string{"-from", ts.URL, "-auth", "admin:app pass word", "-store", "bolt", "-db", db, "-authors", "keep"}

	var out, errs bytes.Buffer
	if err := runImportTEC(context.Background(), args, &out, &errs); err != nil {
		t.Fatalf("import-tec: %v\n%s", err, errs.String())
	}
	first := totals(t, out.String())
	broken := len(gen.BrokenPosts) + len(gen.BrokenTerms)
	if first[1] != first[0]-broken || first[4] != broken {
		t.Errorf("first run: %v (read, created, updated, unchanged, failed), %d broken\n%s", first, broken, out.String())
	}
	if !strings.Contains(errs.String(), "tecimport: events:") || !strings.Contains(errs.String(), "skipped") {
		t.Errorf("progress on stderr:\n%s", errs.String())
	}
	if !strings.Contains(out.String(), "the site's ids kept") {
		t.Errorf("summary:\n%s", out.String())
	}

	out.Reset()
	errs.Reset()
	if err := runImportTEC(context.Background(), args, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if again := totals(t, out.String()); again[1] != 0 || again[2] != 0 || again[3] != first[1] {
		t.Errorf("second run: %v, want everything unchanged", again)
	}

	// The server serves the file: an imported event under its site id.
	var ev tectest.Event
	for _, e := range site.Events() {
		if e.Status == "publish" && !site.Broken(e.ID) {
			ev = e
			break
		}
	}
	base, _ := start(t, config{Store: "bolt", DB: db})
	res, body := getJSON(t, mustReq(t, "GET", base+"/wp-json/tribe/events/v1/events/"+strconv.FormatInt(ev.ID, 10), ""))
	if res.StatusCode != 200 || body["slug"] != ev.Slug || body["author"] != strconv.FormatInt(ev.Author, 10) {
		t.Errorf("imported event %d: %d %v", ev.ID, res.StatusCode, body)
	}

	// Refused credentials name the flag.
	bad := append([]string{}, args...)
	bad[3] = "admin:wrong"
	bad[7] = filepath.Join(t.TempDir(), "other.db") // the server above holds db
	err := runImportTEC(context.Background(), bad, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "-auth") || !strings.Contains(err.Error(), `"admin"`) {
		t.Errorf("wrong password: %v", err)
	}
	if err := runImportTEC(context.Background(), []string{"-store", "mem"}, &out, &errs); err == nil || !strings.Contains(err.Error(), "-from") {
		t.Errorf("no -from: %v", err)
	}
}

func TestAuthorMap(t *testing.T) {
	m, err := authorMap("12=3, 15=4, *=1")
	if err != nil || m(12) != 3 || m(15) != 4 || m(99) != 1 {
		t.Errorf("map: %v", err)
	}
	if m, _ := authorMap("keep"); m(7) != 7 {
		t.Error("keep")
	}
	if m, _ := authorMap(""); m != nil {
		t.Error("empty is the importing user")
	}
	for _, bad := range []string{"x", "1=", "=2", "1=-3", "a=1"} {
		if _, err := authorMap(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestCommandsAsProcess builds the server and runs its commands as a user
// does: main dispatches them, errors exit 1 with the command's name.
func TestCommandsAsProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server")
	}
	bin := filepath.Join(t.TempDir(), "server")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	site := tectest.New(time.UTC)
	site.Generate(tectest.GenerateOptions{Seed: 10, Events: 30, Venues: 5, Organizers: 5, Categories: 4, Tags: 4})
	ts := httptest.NewServer(site)
	defer ts.Close()
	dir := t.TempDir()
	db, dump := filepath.Join(dir, "a.db"), filepath.Join(dir, "dump.ndjson")

	run := func(args ...string) (string, string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "EVENTCAL_DB="+db)
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		err := cmd.Run()
		return out.String(), errs.String(), err
	}
	if out, errs, err := run("import-tec", "-from", ts.URL); err != nil || !strings.Contains(out, "total") {
		t.Fatalf("import-tec: %v\n%s\n%s", err, out, errs)
	}
	if _, errs, err := run("export", "-o", dump); err != nil || !strings.Contains(errs, "exported") {
		t.Fatalf("export: %v\n%s", err, errs)
	}
	if b, _ := os.ReadFile(dump); !bytes.HasPrefix(b, []byte(`{"format":"eventcal-backup","version":1`)) {
		t.Errorf("export file starts with %.60q", b)
	}
	_, errs, err := run("import", "-i", dump) // into the same, non-empty file
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(errs, "server import: backup: the target store is not empty") {
		t.Errorf("import into a non-empty store: %v\n%s", err, errs)
	}
	if _, errs, err := run("import", "-db", filepath.Join(dir, "b.db"), "-i", dump); err != nil || !strings.Contains(errs, "imported") {
		t.Errorf("import into a new file: %v\n%s", err, errs)
	}
}
