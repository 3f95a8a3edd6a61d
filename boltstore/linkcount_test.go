package boltstore

import (
	"path/filepath"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
)

// The grouped count guarantee on a real file per subtest.
func TestLinkCountConformance(t *testing.T) {
	storagetest.RunLinkCounts(t, func(tb testing.TB) calendar.Repository {
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
	}, true)
}
