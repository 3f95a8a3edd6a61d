package boltstore

import (
	"path/filepath"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
)

// BenchmarkSeries runs the shared series benchmarks on a durable file (each
// Apply is one fsync'd transaction, as in production).
func BenchmarkSeries(b *testing.B) {
	storagetest.BenchSeries(b, func(tb testing.TB) calendar.Repository {
		s, err := Open(filepath.Join(tb.TempDir(), "series.db"))
		if err != nil {
			tb.Fatalf("Open: %v", err)
		}
		tb.Cleanup(func() { s.Close() })
		return s
	})
}
