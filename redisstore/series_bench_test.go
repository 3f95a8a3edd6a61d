package redisstore

import (
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
)

// countedStore is a Store whose client counts round trips, so the shared
// series benchmarks report trips/op.
type countedStore struct {
	*Store
	h *tripCounter
}

func (s countedStore) Trips() int64 { return s.h.n.Load() }

// BenchmarkSeries runs the shared series benchmarks on a single Redis node.
func BenchmarkSeries(b *testing.B) {
	singleClient(b)
	storagetest.BenchSeries(b, func(tb testing.TB) calendar.Repository {
		c := singleClient(tb)
		h := &tripCounter{}
		c.AddHook(h)
		return countedStore{newTestStore(tb, c), h}
	})
}
