package memstore_test

import (
	"testing"

	"github.com/eventcal/eventcal/storage/storagetest"
)

// TestSharedReads: the view hands out memstore's stored records themselves,
// which no write ever modifies (a write stores a new record instead).
func TestSharedReads(t *testing.T) { storagetest.RunSharedReads(t, newRepo, true) }
