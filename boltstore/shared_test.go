package boltstore

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// TestSharedReadsNeverChange: the view answers like the store, hands out
// one record for every read of unchanged bytes (no copy), never modifies a
// record it handed out when the post is written again, and serves the new
// record after the write — with and without a cache.
func TestSharedReadsNeverChange(t *testing.T) {
	for _, size := range []int{DefaultCacheSize, 0} {
		s := openTemp(t, WithCacheSize(size))
		ctx := context.Background()
		view := s.SharedReads()
		ev := mustCreate(t, s, event("night", time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)))
		held, err := view.GetPost(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		bySlug, err := view.PostBySlug(ctx, calendar.KindEvent, "night")
		if err != nil {
			t.Fatal(err)
		}
		listed, err := view.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
		if err != nil {
			t.Fatal(err)
		}
		several, err := view.GetPosts(ctx, []int64{ev.ID, 999})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(held, ev) || len(listed.Records) != 1 || len(several) != 1 ||
			!reflect.DeepEqual(bySlug, held) || !reflect.DeepEqual(listed.Records[0], held) || !reflect.DeepEqual(several[0], held) {
			t.Fatalf("cache %d: the view answers unlike the store: %+v %+v %+v %+v", size, held, bySlug, listed.Records, several)
		}
		if size > 0 && (bySlug != held || listed.Records[0] != held || several[0] != held) {
			t.Errorf("cache %d: the view copied a cached record", size)
		}
		heldCopy := held.Clone()
		up := ev.Clone()
		up.Title["en"] = "Day"
		if _, err := s.UpdatePost(ctx, up); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(held, heldCopy) {
			t.Errorf("cache %d: a write changed a record already handed out: %+v", size, held)
		}
		now, err := view.GetPost(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		if now.Title["en"] != "Day" || now.Version != ev.Version+1 {
			t.Errorf("cache %d: the view serves a stale record after the write: %+v", size, now)
		}
		// A copy from the Store itself is the caller's to change; the
		// view's record stays as stored.
		mine, err := s.GetPost(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		mine.Title["en"] = "Mine"
		if again, _ := view.GetPost(ctx, ev.ID); again.Title["en"] != "Day" {
			t.Errorf("cache %d: changing the Store's copy changed the cached record: %q", size, again.Title["en"])
		}
	}
}

// TestSharedReadsWhileWriting reads through the view while another
// goroutine rewrites the post (run with -race): a data race here means a
// shared record was modified.
func TestSharedReadsWhileWriting(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	view := s.SharedReads()
	ev := mustCreate(t, s, event("night", time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 30 {
			cur, err := s.GetPost(ctx, ev.ID)
			if err != nil {
				t.Error(err)
				return
			}
			cur.Title["en"] = "Night " + string(rune('a'+i%26))
			if _, err := s.UpdatePost(ctx, cur); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 200 {
		page, err := view.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Records {
			_ = p.Title["en"] + p.Slug
		}
		p, err := view.GetPost(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		_ = p.Title["en"]
	}
	wg.Wait()
}
