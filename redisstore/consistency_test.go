package redisstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/redis/go-redis/v9"
)

// checkConsistency walks every post and term of the calendar (SCAN) and
// fails t unless records, slug hashes, indexes (name and UID indexes
// included) and the id sequences agree exactly: the state a partial write
// would break.
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
	events, names, uids := 0, 0, 0
	// Entries of the sets that only ever gain members through postEntries:
	// their members must be exactly the records' entries, none left over.
	exact := map[string]int{"evs:": 0, "ev:au:": 0, "ev:multi:": 0}
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
			for pre := range exact {
				if strings.HasPrefix(e.key, s.k.tag+pre) {
					exact[pre]++
				}
			}
			sc, err := c.ZScore(ctx, e.key, itoa(p.ID)).Result()
			if err != nil || formatScore(sc) != e.score {
				t.Fatalf("post %d: index %s score %v (%v), want %s", p.ID, e.key, sc, err, e.score)
			}
		}
		if p.Kind == calendar.KindEvent {
			events++
			for _, k := range linkKinds {
				for _, id := range p.Links(k) {
					if err := c.ZScore(ctx, s.k.kindIndex(k), itoa(id)).Err(); err != nil {
						t.Fatalf("event %d links %v %d, which is not there (%v)", p.ID, k, id, err)
					}
				}
			}
			if p.PostParent != 0 {
				if err := c.ZScore(ctx, s.k.evStart(), itoa(p.PostParent)).Err(); err != nil {
					t.Fatalf("event %d has parent %d, which is not an event (%v)", p.ID, p.PostParent, err)
				}
			}
		}
		if p.UID != "" {
			uids++
			if holder := c.HGet(ctx, s.k.uids(p.Kind), p.UID).Val(); holder != itoa(p.ID) {
				t.Fatalf("post %d: uid %q held by %q", p.ID, p.UID, holder)
			}
		}
		names += len(p.NameKeys())
	}
	for pre, n := range exact {
		if got := countMembers(t, c, s.k.tag+pre+"*"); got != n {
			t.Fatalf("%s* sets hold %d entries, the records have %d", pre, got, n)
		}
	}
	if got := countMembers(t, c, s.k.tag+"pname:*"); got != names {
		t.Fatalf("post name indexes hold %d entries, the records have %d names", got, names)
	}
	if got := hashLens(t, c, s.k.tag+"uid:*"); got != uids {
		t.Fatalf("uid indexes hold %d entries, %d posts have a uid", got, uids)
	}
	checkTerms(t, c, s)
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

// checkTerms is checkConsistency for terms.
func checkTerms(t *testing.T, c redis.UniversalClient, s *Store) {
	t.Helper()
	ctx := context.Background()
	keys := scanKeys(t, c, s.k.termPrefix()+"*")
	vals, err := s.fetch(ctx, "check", keys)
	if err != nil {
		t.Fatal(err)
	}
	perKind := map[calendar.Kind]int64{}
	children := 0
	names := 0
	var maxID int64
	for i, raw := range vals {
		tr, err := storage.DecodeTerm(raw)
		if err != nil {
			t.Fatalf("%s: %v", keys[i], err)
		}
		kind := tr.Taxonomy.Kind()
		perKind[kind]++
		maxID = max(maxID, tr.ID)
		if holder, err := c.HGet(ctx, s.k.slugs(kind), tr.Slug).Result(); err != nil || holder != itoa(tr.ID) {
			t.Fatalf("term %d: slug %q held by %q (%v)", tr.ID, tr.Slug, holder, err)
		}
		for _, e := range s.k.termEntries(tr) {
			sc, err := c.ZScore(ctx, e.key, itoa(tr.ID)).Result()
			if err != nil || formatScore(sc) != e.score {
				t.Fatalf("term %d: index %s score %v (%v), want %s", tr.ID, e.key, sc, err, e.score)
			}
		}
		if tr.Parent != 0 {
			children++
			if _, ok := perKindParent(vals, tr.Parent); !ok {
				t.Fatalf("term %d: parent %d does not exist", tr.ID, tr.Parent)
			}
		}
		names += len(tr.NameKeys())
	}
	for kind, n := range perKind {
		if got := c.HLen(ctx, s.k.slugs(kind)).Val(); got != n {
			t.Fatalf("%d %v slugs for %d terms", got, kind, n)
		}
		if got := c.ZCard(ctx, s.k.kindIndex(kind)).Val(); got != n {
			t.Fatalf("%v index holds %d terms, %d stored", kind, got, n)
		}
	}
	if got := countMembers(t, c, s.k.childrenPrefix()+"*"); got != children {
		t.Fatalf("children indexes hold %d entries, %d terms have a parent", got, children)
	}
	if got := countMembers(t, c, s.k.tag+"tname:*"); got != names {
		t.Fatalf("term name indexes hold %d entries, the terms have %d names", got, names)
	}
	if seq, _ := c.Get(ctx, s.k.termSeq()).Int64(); seq < maxID {
		t.Fatalf("term sequence %d behind id %d", seq, maxID)
	}
}

func perKindParent(vals [][]byte, id int64) (*calendar.TermRecord, bool) {
	for _, raw := range vals {
		if tr, err := storage.DecodeTerm(raw); err == nil && tr.ID == id {
			return tr, true
		}
	}
	return nil, false
}

// countMembers sums ZCARD over the sorted sets matching pattern.
func countMembers(t *testing.T, c redis.UniversalClient, pattern string) int {
	t.Helper()
	n := 0
	for _, k := range scanKeys(t, c, pattern) {
		n += int(c.ZCard(context.Background(), k).Val())
	}
	return n
}

// hashLens sums HLEN over the hashes matching pattern.
func hashLens(t *testing.T, c redis.UniversalClient, pattern string) int {
	t.Helper()
	n := 0
	for _, k := range scanKeys(t, c, pattern) {
		n += int(c.HLen(context.Background(), k).Val())
	}
	return n
}

// snapshotKeys reads every key of the calendar as plain values (strings,
// sorted hash fields, sorted-set members with scores), so that two snapshots
// are equal exactly when the calendar holds the same data.
func snapshotKeys(t *testing.T, c redis.UniversalClient, s *Store) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	for _, k := range scanKeys(t, c, s.Prefix()) {
		if strings.HasPrefix(k, s.k.tag+"done:") {
			continue // the replies kept for re-sent scripts, not calendar data
		}
		var v string
		switch typ := c.Type(ctx, k).Val(); typ {
		case "string":
			v = "string " + c.Get(ctx, k).Val()
		case "hash":
			m := c.HGetAll(ctx, k).Val()
			fields := make([]string, 0, len(m))
			for f, x := range m {
				fields = append(fields, f+"="+x)
			}
			slices.Sort(fields)
			v = "hash " + strings.Join(fields, "\x00")
		case "zset":
			zs := c.ZRangeWithScores(ctx, k, 0, -1).Val()
			v = "zset " + fmt.Sprint(zs)
		default:
			v = typ
		}
		out[k] = v
	}
	return out
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
