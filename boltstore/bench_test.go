package boltstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
	bolt "go.etcd.io/bbolt"
)

// BenchmarkShared runs the shared benchmarks. The factory opens the file
// WithNoSync so that seeding 100,000 events takes seconds rather than many
// minutes of fsyncs; that also makes the Create and Update figures those of
// unsynced writes (see BenchmarkCreateDurable for the durable cost). When a
// size is done, it logs the file size and the time a fresh Open of that file
// and a first read take.
func BenchmarkShared(b *testing.B) {
	storagetest.Bench(b, func(tb testing.TB) calendar.Repository {
		path := filepath.Join(tb.TempDir(), "bench.db")
		s, err := Open(path, WithNoSync())
		if err != nil {
			tb.Fatalf("Open: %v", err)
		}
		tb.Cleanup(func() {
			if err := s.db.Sync(); err != nil {
				tb.Errorf("Sync: %v", err)
			}
			var used int64 // pages in use; the file grows in 16 MiB steps
			s.db.View(func(tx *bolt.Tx) error { used = tx.Size(); return nil })
			s.Close()
			// Printed rather than logged: benchmark logs from a cleanup
			// are dropped.
			fi, err := os.Stat(path)
			if err != nil {
				tb.Fatal(err)
			}
			fmt.Printf("%s: file %.1f MiB (%.1f MiB of pages in use), reopen + first read %v\n",
				tb.Name(), float64(fi.Size())/(1<<20), float64(used)/(1<<20), reopen(tb, path))
		})
		return s
	})
}

// reopen opens the file at path, reads one post and closes it, returning
// how long the Open and the read took.
func reopen(tb testing.TB, path string) time.Duration {
	start := time.Now()
	s, err := Open(path)
	if err != nil {
		tb.Fatalf("reopen: %v", err)
	}
	if _, err := s.GetPost(context.Background(), 1); err != nil {
		tb.Fatalf("read after reopen: %v", err)
	}
	d := time.Since(start)
	s.Close()
	return d
}

// BenchmarkReopen measures opening a file of 100,000 events and reading
// one of them: what a server restart costs the store.
func BenchmarkReopen(b *testing.B) {
	path := filepath.Join(b.TempDir(), "reopen.db")
	s, err := Open(path, WithNoSync())
	if err != nil {
		b.Fatal(err)
	}
	seedBulk(b, s, 100_000, 730*24*time.Hour)
	s.db.Sync()
	s.Close()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fi.Size())/(1<<20), "MiB")
	b.ResetTimer()
	for b.Loop() {
		reopen(b, path)
	}
}

// BenchmarkCreateDurable measures a create with fsync, the default.
func BenchmarkCreateDurable(b *testing.B) {
	s := openTemp(b)
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := s.CreatePost(ctx, event(fmt.Sprint("durable-", i), base.Add(time.Duration(i)*time.Minute))); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
