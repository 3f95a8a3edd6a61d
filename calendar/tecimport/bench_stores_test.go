package tecimport_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/redisstore"
	"github.com/redis/go-redis/v9"
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
		url := os.Getenv("REDIS_URL")
		if url == "" {
			url = "redis://127.0.0.1:6379/0"
		}
		opt, err := redis.ParseURL(url)
		if err != nil {
			b.Fatalf("REDIS_URL: %v", err)
		}
		client := redis.NewClient(opt)
		if err := client.Ping(context.Background()).Err(); err != nil {
			client.Close()
			b.Skipf("no Redis at %s: %v", url, err)
		}
		prefix := "tecimport-bench-" + strconv.FormatInt(time.Now().UnixNano(), 36)
		st, err := redisstore.New(client, redisstore.WithPrefix(prefix))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() {
			ctx := context.Background()
			iter := client.Scan(ctx, 0, "{"+prefix+"}:*", 1000).Iterator()
			for iter.Next(ctx) {
				client.Del(ctx, iter.Val())
			}
			client.Close()
		})
		return st
	}
}
