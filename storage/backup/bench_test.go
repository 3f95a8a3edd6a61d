package backup_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/redisstore/redistest"
	"github.com/eventcal/eventcal/storage/backup"
)

// heapWriter discards what it is given and, every megabyte or so, stops
// the writer (Export calls Write synchronously, so nothing else allocates
// meanwhile), collects garbage and reads the live heap: the highest value
// above the heap before the export is what the export holds. Sampling from
// another goroutine would count what the export allocates during each
// collection as live.
type heapWriter struct {
	base, peak uint64
	since      int
}

func newHeapWriter() *heapWriter {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return &heapWriter{base: ms.HeapAlloc}
}

func (h *heapWriter) Write(p []byte) (int, error) {
	if h.since += len(p); h.since >= 1<<20 {
		h.since = 0
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > h.base {
			h.peak = max(h.peak, ms.HeapAlloc-h.base)
		}
	}
	return len(p), nil
}

var (
	filled       = map[string]calendar.Repository{}
	benchCleanup []func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range benchCleanup {
		f()
	}
	os.Exit(code)
}

// filledStore returns a store of the driver holding n events (plus the
// terms, venues and organizers of fill), made once per process.
func filledStore(b *testing.B, driver string, n int) calendar.Repository {
	key := driver + "/" + strconv.Itoa(n)
	if r, ok := filled[key]; ok {
		return r
	}
	var r calendar.Repository
	switch driver {
	case "memstore":
		r = memstore.New()
	case "bolt":
		// A file of its own that outlives the sub-benchmark (b.TempDir would
		// be removed after it, while the store is reused by the next run).
		dir, err := os.MkdirTemp("", "backup-bench-")
		if err != nil {
			b.Fatal(err)
		}
		st, err := boltstore.Open(filepath.Join(dir, "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		benchCleanup = append(benchCleanup, func() { st.Close(); os.RemoveAll(dir) })
		r = st
	case "redis":
		st, drop := redistest.Open(b, "backup-bench")
		benchCleanup = append(benchCleanup, drop)
		r = st
	}
	start := time.Now()
	fill(b, r, n)
	b.Logf("filled %s with %d events in %s", driver, n, time.Since(start).Round(time.Millisecond))
	filled[key] = r
	return r
}

// BenchmarkExport exports calendars of 10,000 and 100,000 events to
// io.Discard. Beside time and allocations it reports the peak heap the
// live heap the export added (peak-extra-MB) and the size of the backup: the peak does not
// grow with the number of events.
func BenchmarkExport(b *testing.B) {
	for _, driver := range []string{"memstore", "bolt", "redis"} {
		for _, n := range []int{10_000, 100_000} {
			b.Run(driver+"/events="+strconv.Itoa(n), func(b *testing.B) {
				repo := filledStore(b, driver, n)
				// One untimed run measures the heap the export holds.
				hw := newHeapWriter()
				st, err := backup.Export(context.Background(), repo, hw)
				if err != nil {
					b.Fatal(err)
				}
				peak, size := hw.peak, st.Bytes
				b.ReportAllocs()
				for b.Loop() {
					if _, err := backup.Export(context.Background(), repo, io.Discard); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-extra-MB")
				b.ReportMetric(float64(size)/(1<<20), "backup-MB")
			})
		}
	}
}

// BenchmarkEncodeOnly is the floor an export cannot go below: the same
// records, already in memory, written as backup lines by encoding/json.
func BenchmarkEncodeOnly(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run("events="+strconv.Itoa(n), func(b *testing.B) {
			repo := filledStore(b, "memstore", n)
			got, err := repo.ListPosts(context.Background(), &calendar.PostQuery{Kind: calendar.KindEvent, Now: t0})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				enc := json.NewEncoder(io.Discard)
				for _, p := range got.Records {
					if err := enc.Encode(p); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
