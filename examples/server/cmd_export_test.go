package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/eventcal/eventcal/storage/backup"
)

// demoStore makes a bolt file holding the demo calendar and returns its path.
func demoStore(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "demo.db")
	srv, err := newServer(context.Background(), config{Store: "bolt", DB: db, Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	return db
}

// snapshot is every record of a store as a backup, versions aside.
func snapshot(t *testing.T, cfg config) string {
	t.Helper()
	srv := &server{}
	repo, err := openStore(context.Background(), cfg, srv)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var buf bytes.Buffer
	if _, err := backup.Export(context.Background(), repo, &buf, backup.WithClock(func() time.Time { return time.Unix(0, 0) }),
		backup.WithCursor("each store has its own change log")); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if i := strings.Index(l, `,"version":`); i >= 0 && strings.HasPrefix(l, `{"kind"`) {
			j := strings.IndexByte(l[i+1:], ',')
			l = l[:i] + l[i+1+j:]
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// TestExportImportCommands moves the demo calendar from bolt to Redis and
// back to a new bolt file with the commands; every record arrives. A copy of
// the bolt file (-format bolt) opens as a store with the same records.
func TestExportImportCommands(t *testing.T) {
	ctx := context.Background()
	db := demoStore(t)
	dir := t.TempDir()
	dump := filepath.Join(dir, "calendar.ndjson")
	var out, errs bytes.Buffer
	if err := runExport(ctx, []string{"-store", "bolt", "-db", db, "-o", dump}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || !strings.Contains(errs.String(), "exported") || !strings.Contains(errs.String(), "events") {
		t.Errorf("export wrote %q to stdout and %q to stderr", out.String(), errs.String())
	}
	want := snapshot(t, config{Store: "bolt", DB: db})

	redisURL := os.Getenv("REDIS_URL")
	if redisURL == "" {
		redisURL = "redis://127.0.0.1:6379/0"
	}
	prefix := fmt.Sprintf("cmdexport-%d", time.Now().UnixNano())
	redisCfg := config{Store: "redis", RedisURL: redisURL, RedisPrefix: prefix}
	probe := &server{}
	if _, err := openStore(ctx, redisCfg, probe); err != nil {
		if os.Getenv("EVENTCAL_REQUIRE_REDIS") == "1" {
			t.Fatalf("redis at %s: %v", redisURL, err)
		}
		t.Skipf("no Redis at %s (%v); start one with: redis-server --port 6379 --save '' --daemonize yes", redisURL, err)
	}
	probe.Close()
	t.Cleanup(func() { cleanRedisPrefix(t, redisURL, prefix) })
	redisArgs := []string{"-store", "redis", "-redis", redisURL, "-redis-prefix", prefix}
	if err := runImport(ctx, append(redisArgs, "-i", dump), nil, &errs); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, redisCfg); got != want {
		t.Errorf("bolt → redis differs:\n%s", cmp.Diff(want, got))
	}

	// Redis → standard output → a new bolt file through standard input.
	out.Reset()
	if err := runExport(ctx, redisArgs, &out, &errs); err != nil {
		t.Fatal(err)
	}
	db2 := filepath.Join(dir, "again.db")
	if err := runImport(ctx, []string{"-store", "bolt", "-db", db2}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, config{Store: "bolt", DB: db2}); got != want {
		t.Errorf("redis → bolt differs:\n%s", cmp.Diff(want, got))
	}

	// Importing again into the now filled store is refused.
	err := runImport(ctx, append(redisArgs, "-i", dump), nil, &errs)
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("second import: %v", err)
	}

	// The file-level copy of bolt.
	copyPath := filepath.Join(dir, "copy.db")
	if err := runExport(ctx, []string{"-store", "bolt", "-db", db, "-format", "bolt", "-o", copyPath}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, config{Store: "bolt", DB: copyPath}); got != want {
		t.Errorf("bolt copy differs:\n%s", cmp.Diff(want, got))
	}
	if err := runExport(ctx, []string{"-store", "mem", "-format", "bolt", "-o", filepath.Join(dir, "x")}, &out, &errs); err == nil {
		t.Error("-format bolt of a memory store")
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); !os.IsNotExist(err) {
		t.Errorf("a failed export left its file: %v", err)
	}
}
