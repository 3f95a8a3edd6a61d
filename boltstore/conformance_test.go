package boltstore

import (
	"path/filepath"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
)

// TestConformance runs the shared suite on a real file per subtest, with
// fsync on, and then checks that the file's indexes agree with its records.
func TestConformance(t *testing.T) {
	storagetest.Run(t, func(tb testing.TB) calendar.Repository {
		s, err := Open(filepath.Join(tb.TempDir(), "conformance.db"))
		if err != nil {
			tb.Fatalf("Open: %v", err)
		}
		tb.Cleanup(func() {
			mustCheck(tb, s)
			if err := s.Close(); err != nil {
				tb.Errorf("Close: %v", err)
			}
		})
		return s
	})
}
