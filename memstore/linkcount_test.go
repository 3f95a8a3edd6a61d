package memstore_test

import (
	"testing"

	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/storage/storagetest"
)

func TestLinkCountConformance(t *testing.T) { storagetest.RunLinkCounts(t, newRepo, true) }

// Again with blocks of 4 entries, so counts taken from block summaries are
// proven on small data.
func TestLinkCountConformanceSmallBlocks(t *testing.T) {
	defer memstore.SetBlockMax(4)()
	storagetest.RunLinkCounts(t, newRepo, true)
}

func BenchmarkLinkCounts(b *testing.B) { storagetest.BenchLinkCounts(b, newRepo) }
