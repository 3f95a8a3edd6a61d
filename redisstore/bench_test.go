package redisstore

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
	"github.com/redis/go-redis/v9"
)

// BenchmarkRepository runs the shared benchmarks on a single Redis node. When a
// seeded calendar is dropped it logs the Redis memory it used (MEMORY USAGE
// of every key under its prefix) per 1,000 events.
func BenchmarkRepository(b *testing.B) {
	singleClient(b)
	storagetest.Bench(b, func(tb testing.TB) calendar.Repository {
		c := singleClient(tb)
		s := newTestStore(tb, c)
		tb.Cleanup(func() { logMemory(tb, c, s) }) // runs before the keys are deleted
		return s
	})
}

// logMemory logs the bytes Redis holds for the calendar of s, per 1,000
// events, split into records and indexes.
func logMemory(tb testing.TB, c redis.UniversalClient, s *Store) {
	ctx := context.Background()
	events := c.ZCard(ctx, s.k.evStart()).Val()
	if events == 0 {
		return
	}
	var records, other int64
	var cursor uint64
	for {
		ks, next, err := c.Scan(ctx, cursor, s.Prefix(), 1000).Result()
		if err != nil {
			tb.Errorf("scan: %v", err)
			return
		}
		pipe := c.Pipeline()
		cmds := make([]*redis.IntCmd, len(ks))
		for i, k := range ks {
			cmds[i] = pipe.MemoryUsage(ctx, k, 0)
		}
		if _, err := pipe.Exec(ctx); err != nil {
			tb.Errorf("memory usage: %v", err)
			return
		}
		for i, cmd := range cmds {
			if strings.HasPrefix(ks[i], s.k.postPrefix()) || strings.HasPrefix(ks[i], s.k.termPrefix()) {
				records += cmd.Val()
			} else {
				other += cmd.Val()
			}
		}
		if cursor = next; cursor == 0 {
			break
		}
	}
	per := func(n int64) float64 { return float64(n) / float64(events) * 1000 }
	// Printed rather than logged: the log of a benchmark with sub-benchmarks
	// is not shown without -v.
	fmt.Printf("redisstore: Redis memory for %d events: %.0f KB per 1,000 events (records %.0f KB, metas, indexes and slugs %.0f KB)\n",
		events, per(records+other)/1024, per(records)/1024, per(other)/1024)
}
