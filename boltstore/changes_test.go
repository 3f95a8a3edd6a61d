package boltstore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// verifyChangeLog checks that the change log and the records of a store
// that started empty agree: the log is gap-free from 1, and replaying it
// gives exactly the records stored, each at its stored version. After a
// kill -9 (TestCrashRecovery) this proves the log and the records committed
// together.
func verifyChangeLog(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	type key struct {
		kind calendar.Kind
		id   int64
	}
	last := map[key]calendar.Change{}
	var after int64
	for {
		cs, err := s.ChangesAfter(ctx, after, 1000)
		if err != nil {
			t.Fatalf("ChangesAfter(%d): %v", after, err)
		}
		if len(cs) == 0 {
			break
		}
		for _, c := range cs {
			if c.Seq != after+1 {
				t.Fatalf("change log: seq %d after %d", c.Seq, after)
			}
			after = c.Seq
			last[key{c.Kind, c.ID}] = c
		}
	}
	if n, err := s.LastChangeSeq(ctx); err != nil || n != after {
		t.Errorf("LastChangeSeq = %d, %v; the log ends at %d", n, err, after)
	}
	stored := map[key]int64{}
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer} {
		page, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: k})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Records {
			stored[key{k, p.ID}] = p.Version
		}
	}
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		ts, err := s.ListTerms(ctx, tax)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range ts {
			stored[key{tax.Kind(), tr.ID}] = tr.Version
		}
	}
	for k, v := range stored {
		c, ok := last[k]
		switch {
		case !ok:
			t.Errorf("%s %d (version %d) is stored but the log never mentions it", k.kind, k.id, v)
		case c.Action == calendar.ChangeDeleted:
			t.Errorf("%s %d is stored but the log's last word is change %d: deleted", k.kind, k.id, c.Seq)
		case c.Version != v:
			t.Errorf("%s %d is stored at version %d but the log's last change %d says %d", k.kind, k.id, v, c.Seq, c.Version)
		}
	}
	for k, c := range last {
		if _, ok := stored[k]; !ok && c.Action != calendar.ChangeDeleted {
			t.Errorf("%s %d: the log's last change %d (%s) but the record is missing", k.kind, k.id, c.Seq, c.Action)
		}
	}
}

// The log survives close and reopen, and retention by count trims the
// oldest entries as writes go, leaving older cursors expired.
func TestChangeLogReopenAndRetention(t *testing.T) {
	path := filepath.Join(t.TempDir(), "changes.db")
	s, err := Open(path, WithChangeRetention(calendar.ChangeRetention{MaxCount: 3}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 5 {
		if _, err := s.CreatePost(ctx, post(calendar.KindVenue, "v"+string(rune('a'+i)), base)); err != nil {
			t.Fatal(err)
		}
	}
	verifyChangeLogTail(t, s, 2, 5)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, WithChangeRetention(calendar.ChangeRetention{MaxCount: 3}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	verifyChangeLogTail(t, s, 2, 5)
	if err := s.TrimChanges(ctx, time.Now().Add(calendar.DefaultChangeMaxAge*2)); err != nil {
		t.Fatal(err)
	}
	verifyChangeLogTail(t, s, 5, 5)
}

// verifyChangeLogTail: changes after trimmed are readable up to last, and
// a cursor before trimmed is expired.
func verifyChangeLogTail(t *testing.T, s *Store, trimmed, last int64) {
	t.Helper()
	ctx := context.Background()
	cs, err := s.ChangesAfter(ctx, trimmed, 100)
	if err != nil || int64(len(cs)) != last-trimmed {
		t.Fatalf("ChangesAfter(%d) = %d changes, %v; want %d", trimmed, len(cs), err, last-trimmed)
	}
	if trimmed > 0 {
		if _, err := s.ChangesAfter(ctx, trimmed-1, 100); err == nil {
			t.Errorf("ChangesAfter(%d) before the retention: no error", trimmed-1)
		}
	}
}
