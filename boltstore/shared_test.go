package boltstore

import (
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
)

// The SharedReads guarantees on a real file, with the decoded cache (every
// read of unchanged bytes hands out one record) and without it (each read
// decodes a record of its own).
func TestSharedReads(t *testing.T) {
	t.Run("cache", func(t *testing.T) {
		storagetest.RunSharedReads(t, func(tb testing.TB) calendar.Repository { return openTemp(tb) }, true)
	})
	t.Run("no-cache", func(t *testing.T) {
		storagetest.RunSharedReads(t, func(tb testing.TB) calendar.Repository { return openTemp(tb, WithCacheSize(0)) }, false)
	})
}
