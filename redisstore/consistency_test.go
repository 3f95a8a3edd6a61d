package redisstore

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/redis/go-redis/v9"
)

// checkConsistency walks every post of the calendar (SCAN) and fails t
// unless records, slug hashes, indexes and the id sequence agree exactly: the
// state a partial write would break.
func checkConsistency(t *testing.T, c redis.UniversalClient, s *Store) {
	t.Helper()
	ctx := context.Background()
	keys := scanKeys(t, c, s.k.postPrefix()+"*")
	vals, err := s.fetch(ctx, "check", keys)
	if err != nil {
		t.Fatal(err)
	}
	perKind := map[calendar.Kind]int64{}
	var maxID int64
	events := 0
	for i, raw := range vals {
		p, err := storage.DecodePost(raw)
		if err != nil {
			t.Fatalf("%s: %v", keys[i], err)
		}
		if !strings.HasSuffix(keys[i], ":"+itoa(p.ID)) {
			t.Fatalf("%s holds post %d", keys[i], p.ID)
		}
		perKind[p.Kind]++
		maxID = max(maxID, p.ID)
		if holder, err := c.HGet(ctx, s.k.slugs(p.Kind), p.Slug).Result(); err != nil || holder != itoa(p.ID) {
			t.Fatalf("post %d: slug %q held by %q (%v)", p.ID, p.Slug, holder, err)
		}
		if m, err := c.HGet(ctx, s.k.meta(), itoa(p.ID)).Result(); err != nil || m != string(encodeMeta(p)) {
			t.Fatalf("post %d: meta %q (%v) does not match the record", p.ID, m, err)
		}
		for _, e := range s.k.postEntries(p) {
			sc, err := c.ZScore(ctx, e.key, itoa(p.ID)).Result()
			if err != nil || formatScore(sc) != e.score {
				t.Fatalf("post %d: index %s score %v (%v), want %s", p.ID, e.key, sc, err, e.score)
			}
		}
		if p.Kind == calendar.KindEvent {
			events++
		}
	}
	for kind, n := range perKind {
		if got := c.HLen(ctx, s.k.slugs(kind)).Val(); got != n {
			t.Fatalf("%d %v slugs for %d records", got, kind, n)
		}
	}
	if got := c.HLen(ctx, s.k.meta()).Val(); got != int64(len(keys)) {
		t.Fatalf("%d metas for %d posts", got, len(keys))
	}
	if got := c.ZCard(ctx, s.k.evStart()).Val(); got != int64(events) {
		t.Fatalf("start index holds %d events, %d stored", got, events)
	}
	if seq, _ := c.Get(ctx, s.k.postSeq()).Int64(); seq < maxID {
		t.Fatalf("post sequence %d behind id %d", seq, maxID)
	}
}

// scanKeys returns the keys matching pattern (SCAN, on every master of a
// cluster).
func scanKeys(t testing.TB, c redis.UniversalClient, pattern string) []string {
	t.Helper()
	var (
		mu   sync.Mutex
		keys []string
	)
	err := scanEach(context.Background(), c, pattern, func(_ context.Context, _ redis.Cmdable, ks []string) error {
		mu.Lock() // masters are scanned concurrently
		keys = append(keys, ks...)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}
