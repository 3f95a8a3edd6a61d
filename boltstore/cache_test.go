package boltstore

import (
	"context"
	"errors"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// Within one read-only snapshot a cached record found stored is taken
// again without a look-up; a later snapshot looks it up again, so it sees
// every write committed since.
func TestCacheSnapshotStamp(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, WithNoSync())
	ev := mustCreate(t, s, event("night", base))
	read := func(tx *bolt.Tx) *calendar.PostRecord {
		p, err := s.cache.in(tx, true).read(tx.Bucket(bPosts), ev.ID)
		if err != nil || p == nil {
			t.Fatalf("read: %v, %v", p, err)
		}
		return p
	}
	var first *calendar.PostRecord
	if err := s.db.View(func(tx *bolt.Tx) error {
		first = read(tx)
		if e := s.cache.m[ev.ID]; e.snap != int64(tx.ID()) {
			t.Errorf("entry stamped %d, the snapshot is %d", e.snap, tx.ID())
		}
		// A look-up in this snapshot would find the bytes: a hit must
		// not need one. Another record's bytes under the key would be
		// served only by a reader that looked.
		if again := read(tx); again != first {
			t.Errorf("second read in the snapshot decoded again")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	up := ev.Clone()
	up.Title["en"] = "Day"
	if _, err := s.UpdatePost(ctx, up); err != nil {
		t.Fatal(err)
	}
	if err := s.db.View(func(tx *bolt.Tx) error {
		if got := read(tx); got == first || got.Title["en"] != "Day" {
			t.Errorf("a later snapshot served the record of an earlier one: %+v", got)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A writable transaction stamps nothing: it may roll back, and the next
// write carries its txid. A record decoded from bytes a rolled-back write
// put must never be served in the snapshot the next commit makes.
func TestCacheRolledBackWriteNotServed(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, WithNoSync())
	ev := mustCreate(t, s, event("night", base))
	other := mustCreate(t, s, event("other", base))
	errRollback := errors.New("roll back")
	err := s.db.Update(func(tx *bolt.Tx) error {
		ghost := ev.Clone()
		ghost.Title["en"] = "never committed"
		raw, err := storage.EncodePost(ghost)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bPosts).Put(storage.IDKey(ev.ID), raw); err != nil {
			return err
		}
		if p, err := s.cache.in(tx, true).read(tx.Bucket(bPosts), ev.ID); err != nil || p.Title["en"] != "never committed" {
			t.Fatalf("read in the write: %+v, %v", p, err)
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatal(err)
	}
	// The next commit gets the txid the rolled-back write had.
	up := other.Clone()
	up.Title["en"] = "moved on"
	if _, err := s.UpdatePost(ctx, up); err != nil {
		t.Fatal(err)
	}
	for _, view := range []calendar.Repository{s, s.SharedReads()} {
		got, err := view.GetPost(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Title["en"] != ev.Title["en"] {
			t.Fatalf("served the record of a rolled-back write: %q", got.Title["en"])
		}
	}
}
