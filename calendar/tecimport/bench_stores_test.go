package tecimport_test

import (
	"path/filepath"
	"testing"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/redisstore/redistest"
)

// The durable drivers BenchmarkImportTEC measures the import rate into:
// a new bbolt file and a new Redis prefix (REDIS_URL, default
// 127.0.0.1:6379) per run; no Redis skips that run.
func init() {
	benchStores["bolt"] = func(b *testing.B) calendar.Repository {
		st, err := boltstore.Open(filepath.Join(b.TempDir(), "import.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		return st
	}
	benchStores["redis"] = func(b *testing.B) calendar.Repository {
		st, drop := redistest.Open(b, "tecimport-bench")
		b.Cleanup(drop)
		return st
	}
}
