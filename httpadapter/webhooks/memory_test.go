package webhooks

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestMemoryLeaser(t *testing.T) {
	ctx := context.Background()
	clock := newWarpClock()
	l := NewMemoryLeaser(clock.Now)
	ok := func(got bool, err error) bool {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if !ok(l.Acquire(ctx, "k", "a", 10*time.Second)) || l.Holder("k") != "a" {
		t.Fatal("a free lease was not taken")
	}
	if ok(l.Acquire(ctx, "k", "b", 10*time.Second)) || ok(l.Renew(ctx, "k", "b", 10*time.Second)) {
		t.Fatal("b took or renewed a's lease")
	}
	if !ok(l.Acquire(ctx, "other", "b", 10*time.Second)) {
		t.Fatal("leases are not independent")
	}
	clock.Sleep(ctx, 9*time.Second)
	if !ok(l.Renew(ctx, "k", "a", 10*time.Second)) {
		t.Fatal("a could not renew")
	}
	clock.Sleep(ctx, 9*time.Second) // 18 s after the start, 9 s after renewal
	if ok(l.Acquire(ctx, "k", "b", 10*time.Second)) {
		t.Fatal("renewal did not extend the lease")
	}
	clock.Sleep(ctx, 2*time.Second)
	if l.Holder("k") != "" || ok(l.Renew(ctx, "k", "a", 10*time.Second)) {
		t.Fatal("an expired lease was renewed")
	}
	if !ok(l.Acquire(ctx, "k", "b", 10*time.Second)) {
		t.Fatal("b could not take an expired lease")
	}
	l.Release(ctx, "k", "a") // not a's any more: no effect
	if l.Holder("k") != "b" {
		t.Fatal("a released b's lease")
	}
	l.Release(ctx, "k", "b")
	if !ok(l.Acquire(ctx, "k", "a", 10*time.Second)) {
		t.Fatal("a released lease could not be taken")
	}
}

func TestMemoryLeaserOneHolderUnderContention(t *testing.T) {
	l := NewMemoryLeaser(nil)
	var mu sync.Mutex
	holders := 0
	var wg sync.WaitGroup
	for i := range 8 {
		owner := string(rune('a' + i))
		wg.Go(func() {
			for range 200 {
				got, _ := l.Acquire(context.Background(), "k", owner, time.Minute)
				if !got {
					continue
				}
				mu.Lock()
				holders++
				if holders > 1 {
					t.Error("two holders at once")
				}
				mu.Unlock()
				mu.Lock()
				holders--
				mu.Unlock()
				l.Release(context.Background(), "k", owner)
			}
		})
	}
	wg.Wait()
}

func TestMemorySubscriptions(t *testing.T) {
	ctx := context.Background()
	m := NewMemorySubscriptions(TargetPolicy{})
	if _, err := m.Create(Subscription{URL: "http://h.example.com", Types: []string{"*"}}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("http target accepted: %v", err)
	}
	s, err := m.Create(Subscription{URL: "https://h.example.com/x", Types: []string{"event.created"}, Progress: Progress{Cursor: 7}})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != 1 || s.Secret == "" || s.Cursor != 7 {
		t.Fatalf("created %+v", s)
	}
	// The cursor never moves back; the other progress fields are replaced.
	since := time.Unix(1e9, 0)
	if err := m.SaveProgress(ctx, s.ID, Progress{Cursor: 5, Attempts: 2, FailingSince: since, LastError: "x"}); err != nil {
		t.Fatal(err)
	}
	got, _ := m.Subscription(ctx, s.ID)
	if got.Cursor != 7 || got.Attempts != 2 || !got.FailingSince.Equal(since) || got.LastError != "x" {
		t.Fatalf("after a stale save: %+v", got.Progress)
	}
	m.SaveProgress(ctx, s.ID, Progress{Cursor: 9})
	if got, _ := m.Subscription(ctx, s.ID); got.Cursor != 9 || got.Attempts != 0 {
		t.Fatalf("after a save: %+v", got.Progress)
	}
	// Returned values are copies.
	got.Types[0] = "tag.deleted"
	if again, _ := m.Subscription(ctx, s.ID); again.Types[0] != "event.created" {
		t.Fatal("a returned subscription aliases the stored one")
	}
	// Disable, listing, enabling.
	if err := m.Disable(ctx, s.ID, Progress{Cursor: 9, Attempts: 50, FailingSince: since}, "dead"); err != nil {
		t.Fatal(err)
	}
	if act, _ := m.ActiveSubscriptions(ctx); len(act) != 0 {
		t.Fatalf("a disabled subscription is listed active: %+v", act)
	}
	if got, _ := m.Subscription(ctx, s.ID); !got.Disabled || got.DisabledReason != "dead" || got.Attempts != 50 {
		t.Fatalf("disabled: %+v", got)
	}
	if err := m.Enable(s.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Subscription(ctx, s.ID); got.Disabled || got.DisabledReason != "" || got.Attempts != 0 || !got.FailingSince.IsZero() || got.Cursor != 9 {
		t.Fatalf("re-enabled: %+v", got)
	}
	// An invalid update changes nothing.
	if _, err := m.Update(s.ID, func(s *Subscription) { s.URL = "https://10.0.0.1/"; s.ID = 99 }); !errors.Is(err, ErrInvalid) {
		t.Fatalf("invalid update: %v", err)
	}
	if got, _ := m.Subscription(ctx, s.ID); got.URL != "https://h.example.com/x" {
		t.Fatalf("invalid update applied: %+v", got)
	}
	if err := m.Delete(s.ID); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		m.Delete(s.ID),
		m.SaveProgress(ctx, s.ID, Progress{}),
		m.Disable(ctx, s.ID, Progress{}, ""),
		func() error { _, err := m.Subscription(ctx, s.ID); return err }(),
	} {
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("on a deleted subscription: %v", err)
		}
	}
}

func TestMemoryChanges(t *testing.T) {
	ctx := context.Background()
	m := NewMemoryChanges(nil)
	if last, _ := m.Changes(ctx, 0, 10); last != nil || m.Last() != 0 {
		t.Fatal("a new log is not empty")
	}
	woke := make(chan uint64)
	go func() {
		last, err := m.Wait(ctx, 0)
		if err != nil {
			t.Error(err)
		}
		woke <- last
	}()
	first := m.Append(Change{Kind: KindEvent, ID: 1, Action: ActionCreated, Version: 1})
	if got := <-woke; got != 1 || first.Seq != 1 || first.Time.IsZero() {
		t.Fatalf("Wait = %d, appended %+v", got, first)
	}
	for i := range 9 {
		m.Append(Change{Kind: KindEvent, ID: int64(i + 2), Action: ActionCreated, Version: 1})
	}
	page, _ := m.Changes(ctx, 3, 4)
	if len(page) != 4 || page[0].Seq != 4 || page[3].Seq != 7 {
		t.Fatalf("page after 3: %+v", page)
	}
	if page, _ := m.Changes(ctx, 10, 4); len(page) != 0 {
		t.Fatalf("after the end: %+v", page)
	}
	if last, err := m.Wait(ctx, 5); last != 10 || err != nil {
		t.Fatalf("Wait(5) = %d, %v", last, err)
	}
	short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if _, err := m.Wait(short, 10); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait at the end = %v", err)
	}
	m.Trim(4)
	if _, err := m.Changes(ctx, 3, 4); !errors.Is(err, ErrCursorExpired) {
		t.Fatalf("after trimming: %v", err)
	}
	if page, err := m.Changes(ctx, 4, 100); err != nil || len(page) != 6 || page[0].Seq != 5 {
		t.Fatalf("at the trim boundary: %+v %v", page, err)
	}
	if next := m.Append(Change{Kind: KindTag, ID: 1, Action: ActionDeleted}); next.Seq != 11 || m.Last() != 11 {
		t.Fatalf("after trimming, appended %+v", next)
	}
}
