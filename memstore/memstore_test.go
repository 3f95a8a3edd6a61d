package memstore_test

import (
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/storage/storagetest"
)

// Compile-time proof that a Store is a Repository.
var _ calendar.Repository = (*memstore.Store)(nil)

func newRepo(tb testing.TB) calendar.Repository {
	s := memstore.New()
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

func TestConformance(t *testing.T) { storagetest.Run(t, newRepo) }

func BenchmarkRepository(b *testing.B) { storagetest.Bench(b, newRepo) }

func BenchmarkSeries(b *testing.B) { storagetest.BenchSeries(b, newRepo) }

// The suite again with blocks of 4 entries: totals taken from block
// summaries (whole blocks inside a window) are proven on small data.
func TestConformanceSmallBlocks(t *testing.T) {
	defer memstore.SetBlockMax(4)()
	storagetest.Run(t, newRepo)
}
