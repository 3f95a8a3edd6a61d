package boltstore

import (
	"path/filepath"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
)

// linkCountRepo opens a store on a fresh file, closed at the end of tb.
func linkCountRepo(tb testing.TB) calendar.Repository {
	s, err := Open(filepath.Join(tb.TempDir(), "linkcount.db"))
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return s
}

// The grouped count guarantee on a real file per subtest.
func TestLinkCountConformance(t *testing.T) { storagetest.RunLinkCounts(t, linkCountRepo, true) }

func BenchmarkLinkCounts(b *testing.B) { storagetest.BenchLinkCounts(b, linkCountRepo) }
