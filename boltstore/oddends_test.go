package boltstore

import (
	"context"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The count of events ending before they start follows creates, updates
// and deletes, and a file without it (written before it existed) gets it
// counted at Open.
func TestOddEndsCount(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	count := func() uint64 {
		t.Helper()
		var n uint64
		if err := s.db.View(func(tx *bolt.Tx) error { n = oddEnds(tx); return nil }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	odd := event("odd", base)
	odd.End = base.Add(-time.Hour)
	o := mustCreate(t, s, odd)
	noEnd := event("no-end", base)
	noEnd.End = time.Time{}
	ne := mustCreate(t, s, noEnd)
	mustCreate(t, s, event("fine", base))
	if n := count(); n != 2 {
		t.Fatalf("odd ends after creates: %d, want 2", n)
	}
	o.End = base.Add(time.Hour)
	if _, err := s.UpdatePost(ctx, o); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Fatalf("odd ends after fixing one: %d, want 1", n)
	}
	// Forget the count, as in a file of an older build, and reopen.
	if err := s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bSeq).Delete(kOddEnds) }); err != nil {
		t.Fatal(err)
	}
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(path); err != nil {
		t.Fatal(err)
	} else {
		t.Cleanup(func() { s.Close() })
		var n uint64
		s.db.View(func(tx *bolt.Tx) error { n = oddEnds(tx); return nil })
		if n != 1 {
			t.Fatalf("odd ends counted at Open: %d, want 1", n)
		}
		if err := s.DeletePost(ctx, ne.ID, 0); err != nil {
			t.Fatal(err)
		}
		s.db.View(func(tx *bolt.Tx) error { n = oddEnds(tx); return nil })
		if n != 0 {
			t.Fatalf("odd ends after deleting the last: %d, want 0", n)
		}
	}
}
