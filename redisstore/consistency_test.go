package redisstore

import (
	"context"
	"strings"
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
	var keys []string
	var cursor uint64
	for {
		ks, next, err := c.Scan(ctx, cursor, s.k.postPrefix()+"*", 1000).Result()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, ks...)
		if cursor = next; cursor == 0 {
			break
		}
	}
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
	if got := c.ZCard(ctx, s.k.evStart()).Val(); got != int64(events) {
		t.Fatalf("start index holds %d events, %d stored", got, events)
	}
	if seq, _ := c.Get(ctx, s.k.postSeq()).Int64(); seq < maxID {
		t.Fatalf("post sequence %d behind id %d", seq, maxID)
	}
}
