// Package redistest opens redisstore stores for the tests and benchmarks of
// other packages: a store of its own (a new key prefix) on the Redis server
// at REDIS_URL (default 127.0.0.1:6379), and a way to remove its keys.
package redistest

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/eventcal/eventcal/redisstore"
	"github.com/redis/go-redis/v9"
)

// Open returns a store under a new prefix starting with name, and the
// function that deletes its keys and closes its client; the caller decides
// when that runs (t.Cleanup, or after a whole benchmark run). Without a
// reachable server tb is skipped, or failed under EVENTCAL_REQUIRE_REDIS=1.
func Open(tb testing.TB, name string) (*redisstore.Store, func()) {
	tb.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		tb.Fatalf("REDIS_URL: %v", err)
	}
	client := redis.NewClient(opt)
	if err := client.Ping(context.Background()).Err(); err != nil {
		client.Close()
		if os.Getenv("EVENTCAL_REQUIRE_REDIS") == "1" {
			tb.Fatalf("no Redis at %s: %v", url, err)
		}
		tb.Skipf("no Redis at %s: %v", url, err)
	}
	prefix := name + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	st, err := redisstore.New(client, redisstore.WithPrefix(prefix))
	if err != nil {
		client.Close()
		tb.Fatal(err)
	}
	return st, func() {
		ctx := context.Background()
		// Every key of a calendar starts with its hash tag "{prefix}:".
		iter := client.Scan(ctx, 0, "{"+prefix+"}:*", 1000).Iterator()
		for iter.Next(ctx) {
			client.Del(ctx, iter.Val())
		}
		client.Close()
	}
}
