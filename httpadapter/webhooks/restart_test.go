package webhooks

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
)

// A dispatcher stopped with deliveries pending, and its store closed, picks
// up after reopening from the stored cursor: every change is delivered in
// order, at least once, and a change delivered twice carries the same
// webhook-id.
func TestRestartResumesFromStoredCursor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cal.db")
	ctx := context.Background()
	var slow atomic.Bool
	slow.Store(true)
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) int {
		if slow.Load() {
			time.Sleep(5 * time.Millisecond)
		}
		return http.StatusNoContent
	})
	const total = 60
	run := func(first bool, stopAfter func() bool) {
		repo, err := boltstore.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer repo.Close()
		src := NewCalendarChanges(repo)
		subs := NewStoredSubscriptions(repo.Documents("webhooks"), TargetPolicy{AllowHTTP: true, AllowPrivate: true})
		if first {
			last, err := src.Last(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := subs.Create(ctx, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{TypeAll}, Progress: Progress{Cursor: last}}); err != nil {
				t.Fatal(err)
			}
			for i := range total {
				if _, err := repo.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: fmt.Sprint("t", i)}); err != nil {
					t.Fatal(err)
				}
			}
		}
		stop := start(t, New(src, subs, testOptions()...))
		waitFor(t, "the stopping point", stopAfter)
		stop()
	}
	run(true, func() bool { return len(rc.acked()) >= total/3 })
	if n := len(rc.acked()); n >= total {
		t.Fatalf("all %d delivered before the restart; the test proves nothing", n)
	}
	slow.Store(false)
	run(false, func() bool { return len(rc.acked()) >= total && lastAcked(rc) == total })
	ids := map[uint64]string{}
	var next uint64 = 1
	for _, d := range rc.all() {
		if d.VerifyErr != nil {
			t.Fatalf("delivery %s: %v", d.ID, d.VerifyErr)
		}
		if id, seen := ids[d.Seq]; seen && id != d.ID {
			t.Fatalf("seq %d delivered as %s and %s", d.Seq, id, d.ID)
		}
		ids[d.Seq] = d.ID
		if d.Seq > next {
			t.Fatalf("seq %d delivered before %d", d.Seq, next)
		}
		if d.Seq == next {
			next++
		}
	}
	if next != total+1 {
		t.Fatalf("delivered up to %d of %d", next-1, total)
	}
}

func lastAcked(rc *receiver) uint64 {
	a := rc.acked()
	if len(a) == 0 {
		return 0
	}
	return a[len(a)-1]
}
