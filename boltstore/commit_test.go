package boltstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// Writers sharing a group-committed transaction keep their own outcomes: a
// write that fails (a stale version) changes nothing and reports its
// conflict, and the writes committed with it are all stored, each once.
func TestGroupCommitKeepsOutcomes(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	target, err := s.CreatePost(ctx, event("target", base))
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 16, 20
	var wg sync.WaitGroup
	created := make(chan int64, writers*each)
	conflicts := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if w%4 == 0 { // stale: version 0 is never stored
					stale := target.Clone()
					stale.Version = 0
					stale.Title = calendar.Text{"en": "stale"}
					_, err := s.UpdatePost(ctx, stale)
					conflicts <- err
					continue
				}
				p, err := s.CreatePost(ctx, event(fmt.Sprintf("w%d-%d", w, i), base))
				if err != nil {
					t.Error(err)
					return
				}
				created <- p.ID
			}
		}()
	}
	wg.Wait()
	close(created)
	close(conflicts)
	for err := range conflicts {
		if !errors.Is(err, calendar.ErrConflict) {
			t.Fatalf("stale update: %v, want a conflict", err)
		}
	}
	seen := map[int64]bool{}
	for id := range created {
		if seen[id] {
			t.Fatalf("id %d returned twice", id)
		}
		seen[id] = true
		if _, err := s.GetPost(ctx, id); err != nil {
			t.Fatalf("acknowledged create %d: %v", id, err)
		}
	}
	if want := writers * 3 / 4 * each; len(seen) != want {
		t.Fatalf("%d creates acknowledged, want %d", len(seen), want)
	}
	got, err := s.GetPost(ctx, target.ID)
	if err != nil || got.Version != target.Version || got.Title.Get("en", "en") == "stale" {
		t.Fatalf("target after stale updates: %+v, %v", got, err)
	}
	page, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, CountOnly: true})
	if err != nil || page.Total != len(seen)+1 {
		t.Fatalf("events stored: %v, %v; want %d", page, err, len(seen)+1)
	}
}
