package webhooks

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestDeliversEveryChangeInOrderSigned(t *testing.T) {
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	var rcs []*receiver
	var subs []Subscription
	for range 3 {
		rc := newReceiver(t, nil)
		rcs = append(rcs, rc)
		subs = append(subs, mustCreate(t, store, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{TypeAll}}))
	}
	start(t, New(src, store, testOptions(WithRESTBase("https://cal.example/wp-json/calendar/events/v1"))...))
	// Two writers append while the dispatcher delivers.
	const n = 200
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := range n / 2 {
				c := Change{Kind: Kinds[(w+i)%len(Kinds)], ID: int64(i + 1), Action: Actions[i%len(Actions)], Version: int64(i + 2)}
				if i%10 == 0 {
					c.Kind, c.Series = KindEvent, 77
				}
				src.Append(c)
			}
		})
	}
	wg.Wait()
	want, _ := src.Changes(context.Background(), 0, n)
	for i, rc := range rcs {
		waitFor(t, "all changes", func() bool { return len(rc.acked()) >= n })
		got := rc.all()
		if len(got) != n {
			t.Fatalf("receiver %d got %d requests for %d changes", i, len(got), n)
		}
		for j, d := range got {
			c := want[j]
			if d.VerifyErr != nil {
				t.Fatalf("delivery %s: %v", d.ID, d.VerifyErr)
			}
			p := d.Payload
			if d.ID != MessageID(subs[i].ID, c.Seq) || p.Type != c.Type() || p.Data.Seq != c.Seq || p.Data.Kind != c.Kind ||
				p.Data.ID != c.ID || p.Data.Action != c.Action || p.Data.Version != c.Version || !p.Timestamp.Equal(c.Time.Truncate(0)) {
				t.Fatalf("receiver %d, delivery %d = %+v %+v, want %+v", i, j, d.ID, p, c)
			}
			if (c.Series == 0) != (p.Data.Series == nil) || c.Series != 0 && *p.Data.Series != c.Series {
				t.Fatalf("series of %+v = %v", c, p.Data.Series)
			}
			if !strings.HasPrefix(p.Data.RESTURL, "https://cal.example/wp-json/calendar/events/v1/"+c.Kind.collection()+"/") {
				t.Fatalf("rest_url %q", p.Data.RESTURL)
			}
		}
		waitFor(t, "the cursor saved", func() bool { return getSub(t, store, subs[i].ID).Cursor == n })
		if s := getSub(t, store, subs[i].ID); s.Attempts != 0 || !s.FailingSince.IsZero() {
			t.Fatalf("stored progress %+v", s.Progress)
		}
	}
}

func TestFailingReceiverRecoversAndGetsEverythingInOrder(t *testing.T) {
	const fails = 6
	// Each failure kind the dispatcher must treat as "try again": error
	// statuses, a dropped connection, an answer slower than the time-out,
	// an empty 1xx-less close and a redirect.
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) int {
		switch {
		case n >= fails:
			return http.StatusOK
		case n == 1:
			c, _, _ := w.(http.Hijacker).Hijack()
			c.Close()
			return 0
		case n == 2:
			<-r.Context().Done() // slower than the time-out: the client gives up
			return 0
		case n == 3:
			w.Header().Set("Location", "/elsewhere")
			return http.StatusSeeOther
		case n == 4:
			return http.StatusTooManyRequests
		default:
			return http.StatusInternalServerError
		}
	})
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	sub := mustCreate(t, store, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{TypeAll}})
	clock := newWarpClock()
	start(t, New(src, store, testOptions(WithClock(clock), WithLeaser(NewMemoryLeaser(clock.Now)),
		WithBackoff(time.Second, time.Hour), WithTimeout(300*time.Millisecond))...))
	appendEvents(src, 20)
	waitFor(t, "all changes acknowledged", func() bool { return len(rc.acked()) == 20 })
	got := rc.all()
	if len(got) != 20+fails {
		t.Fatalf("%d requests, want %d", len(got), 20+fails)
	}
	for i, d := range got[:fails+1] {
		if d.Seq != 1 || d.ID != MessageID(sub.ID, 1) || d.VerifyErr != nil {
			t.Fatalf("attempt %d: seq %d id %s verify %v", i, d.Seq, d.ID, d.VerifyErr)
		}
	}
	if !slices.Equal(rc.acked(), seqs(1, 20)) {
		t.Fatalf("acknowledged %v", rc.acked())
	}
	if clock.sleeps() < fails {
		t.Fatalf("%d backoff sleeps for %d failures", clock.sleeps(), fails)
	}
	waitFor(t, "the cursor saved", func() bool { return getSub(t, store, sub.ID).Cursor == 20 })
	if s := getSub(t, store, sub.ID); s.Attempts != 0 || !s.FailingSince.IsZero() || s.LastError != "" {
		t.Fatalf("progress after recovery %+v", s.Progress)
	}
}

func TestBackoffGrowsWithJitterWithinBounds(t *testing.T) {
	lo, hi := time.Second, time.Hour
	for n := 1; n <= 20; n++ {
		ceil := min(lo<<(n-1), hi)
		seen := map[time.Duration]bool{}
		for range 200 {
			d := backoff(n, lo, hi)
			if d < lo || d > ceil {
				t.Fatalf("backoff(%d) = %v outside [%v, %v]", n, d, lo, ceil)
			}
			seen[d] = true
		}
		if n > 1 && len(seen) < 50 {
			t.Fatalf("backoff(%d) took only %d values: no jitter", n, len(seen))
		}
	}
	if d := backoff(1, lo, hi); d != lo {
		t.Fatalf("first retry after %v", d)
	}
}

func TestDeadReceiverIsDisabledAfterTheLimitAndCanBeReEnabled(t *testing.T) {
	var healthy atomic.Bool
	dead := newReceiver(t, func(int, http.ResponseWriter, *http.Request) int {
		if healthy.Load() {
			return http.StatusAccepted
		}
		return http.StatusServiceUnavailable
	})
	alive := newReceiver(t, nil)
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	deadSub := mustCreate(t, store, Subscription{URL: dead.url(), Secret: dead.secret, Types: []string{TypeAll}})
	aliveSub := mustCreate(t, store, Subscription{URL: alive.url(), Secret: alive.secret, Types: []string{TypeAll}})
	clock := newWarpClock()
	t0 := clock.Now()
	d := New(src, store, testOptions(WithClock(clock), WithLeaser(NewMemoryLeaser(clock.Now)),
		WithBackoff(DefaultMinBackoff, DefaultMaxBackoff), WithDisableAfter(DefaultDisableAfter), WithLeaseTTL(time.Hour))...)
	start(t, d)
	appendEvents(src, 5)
	waitFor(t, "the dead subscription disabled", func() bool { return getSub(t, store, deadSub.ID).Disabled })
	s := getSub(t, store, deadSub.ID)
	if elapsed := clock.Now().Sub(t0); elapsed < DefaultDisableAfter {
		t.Fatalf("disabled after %v of failure", elapsed)
	}
	if s.Cursor != 0 || s.Attempts < 10 || !strings.Contains(s.DisabledReason, "503") || !s.FailingSince.Equal(t0) {
		t.Fatalf("disabled subscription %+v", s)
	}
	// Every attempt was at change 1 with one id; waits grew to the hour.
	for _, dl := range dead.all() {
		if dl.ID != MessageID(deadSub.ID, 1) {
			t.Fatalf("attempt with id %s", dl.ID)
		}
	}
	// The other subscription was not held up.
	waitFor(t, "the live subscription", func() bool { return len(alive.acked()) == 5 })
	// Disabled stays disabled: later changes do not reach it.
	attempts := len(dead.all())
	appendEvents(src, 1)
	waitFor(t, "the live subscription gets the new change", func() bool { return len(alive.acked()) == 6 })
	d.Refresh()
	waitFor(t, "the live subscription cursor", func() bool { return getSub(t, store, aliveSub.ID).Cursor == 6 })
	if n := len(dead.all()); n != attempts {
		t.Fatalf("a disabled subscription got %d more requests", n-attempts)
	}
	// Re-enabled, it resumes from its cursor and catches up in order.
	healthy.Store(true)
	if err := store.Enable(deadSub.ID); err != nil {
		t.Fatal(err)
	}
	d.Refresh()
	waitFor(t, "catch-up after re-enabling", func() bool { return len(dead.acked()) == 6 })
	if !slices.Equal(dead.acked(), seqs(1, 6)) {
		t.Fatalf("after re-enabling: %v", dead.acked())
	}
}

func TestHangingReceiverBlocksNeitherOthersNorWriters(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	var hanging atomic.Bool
	slow := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) int {
		hanging.Store(true)
		defer hanging.Store(false)
		select {
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		return http.StatusOK
	})
	var fast []*receiver
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	mustCreate(t, store, Subscription{URL: slow.url(), Secret: slow.secret, Types: []string{TypeAll}})
	for range 3 {
		rc := newReceiver(t, nil)
		fast = append(fast, rc)
		mustCreate(t, store, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{TypeAll}})
	}
	// Two request slots for four subscriptions, one of them stuck in one.
	stop := start(t, New(src, store, testOptions(WithConcurrency(2), WithTimeout(time.Minute))...))
	src.Append(Change{Kind: KindEvent, ID: 1, Action: ActionCreated, Version: 1})
	<-entered
	const n = 500
	appendEvents(src, n) // the writer: returns while the receiver hangs
	for _, rc := range fast {
		waitFor(t, "the other subscriptions", func() bool { return len(rc.acked()) == n+1 })
		if !slices.Equal(rc.acked(), seqs(1, n+1)) {
			t.Fatalf("fast receiver got %v", rc.acked())
		}
	}
	if !hanging.Load() || len(slow.all()) != 1 {
		t.Fatalf("the slow receiver stopped hanging (%v) or got %d requests", hanging.Load(), len(slow.all()))
	}
	// Stopping does not wait for the hanging receiver to answer (release
	// is closed only afterwards): the request is cancelled, which the
	// receiver then notices.
	stop()
	waitFor(t, "the hanging request cancelled", func() bool { return !hanging.Load() })
	close(release)
}

func TestTwoDispatchersNeverDeliverOneSubscriptionConcurrently(t *testing.T) {
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	leases := NewMemoryLeaser(nil)
	var rcs []*receiver
	for range 4 {
		rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) int {
			time.Sleep(200 * time.Microsecond) // widen the window an overlap would show in
			return http.StatusOK
		})
		rcs = append(rcs, rc)
		mustCreate(t, store, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{TypeAll}})
	}
	opts := func(id string) []Option {
		return testOptions(WithLeaser(leases), WithInstanceID(id), WithTimeout(500*time.Millisecond), WithLeaseTTL(time.Second))
	}
	stopA := start(t, New(src, store, opts("a")...))
	start(t, New(src, store, opts("b")...))
	const n = 300
	appendEvents(src, n/2)
	waitFor(t, "half delivered", func() bool { return len(rcs[0].acked()) >= n/4 })
	stopA()
	before := 0
	for _, rc := range rcs {
		before += len(rc.all())
	}
	appendEvents(src, n/2)
	after := 0
	for _, rc := range rcs {
		waitFor(t, "everything delivered", func() bool {
			a := rc.acked()
			return len(a) > 0 && a[len(a)-1] == n
		})
		after += len(rc.all())
		rc.mu.Lock()
		overlap := rc.overlap
		rc.mu.Unlock()
		if overlap {
			t.Fatal("two deliveries of one subscription were in flight at once")
		}
		// At least once, in order: every change, never going back except
		// to repeat the one that was in flight.
		a := rc.acked()
		var distinct []uint64
		for i, s := range a {
			if i > 0 && s < a[i-1] {
				t.Fatalf("order broken: %d after %d", s, a[i-1])
			}
			if i == 0 || s != a[i-1] {
				distinct = append(distinct, s)
			}
		}
		if !slices.Equal(distinct, seqs(1, n)) {
			t.Fatalf("delivered %v", distinct)
		}
	}
	if after <= before {
		t.Fatal("the second dispatcher delivered nothing after the first stopped")
	}
}

func TestRestartResumesFromStoredCursorWithSameID(t *testing.T) {
	const acked, n = 10, 30
	var phase atomic.Int32 // 0: first process, 1: after restart
	entered := make(chan struct{}, 1)
	rc := newReceiver(t, func(i int, w http.ResponseWriter, r *http.Request) int {
		if phase.Load() == 0 && i >= acked {
			entered <- struct{}{}
			<-r.Context().Done() // hangs until the process "dies"
			return http.StatusOK
		}
		return http.StatusOK
	})
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	sub := mustCreate(t, store, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{TypeAll}})
	appendEvents(src, n)
	stop := start(t, New(src, store, testOptions(WithInstanceID("first"), WithTimeout(time.Minute))...))
	<-entered
	stop()
	if s := getSub(t, store, sub.ID); s.Cursor != acked {
		t.Fatalf("stored cursor %d, want %d", s.Cursor, acked)
	}
	phase.Store(1)
	// A new process: new dispatcher, new leaser, the same stored state.
	start(t, New(src, store, testOptions(WithInstanceID("second"))...))
	waitFor(t, "catch-up", func() bool { return getSub(t, store, sub.ID).Cursor == n })
	got := rc.all()
	var ids []string
	for _, d := range got {
		ids = append(ids, d.ID)
	}
	var want []string
	for s := uint64(1); s <= n; s++ {
		want = append(want, MessageID(sub.ID, s))
		if s == acked+1 {
			want = append(want, MessageID(sub.ID, s)) // the one cut short, again
		}
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("ids\n got %v\nwant %v", ids, want)
	}
}

func TestTypesAndFilters(t *testing.T) {
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	typed, filtered := newReceiver(t, nil), newReceiver(t, nil)
	typedSub := mustCreate(t, store, Subscription{URL: typed.url(), Secret: typed.secret, Types: []string{"event.created", "tag.deleted"}})
	filteredSub := mustCreate(t, store, Subscription{URL: filtered.url(), Secret: filtered.secret,
		Types: []string{"event.created", "event.updated"}, Filter: Filter{Venues: []int64{5}}})
	venueOf := map[int64]int64{1: 5, 2: 6, 3: 5}
	var failOnce atomic.Bool
	failOnce.Store(true)
	matcher := MatcherFunc(func(ctx context.Context, f Filter, c Change) (bool, error) {
		if failOnce.CompareAndSwap(true, false) {
			return false, errors.New("store unavailable") // retried, not skipped
		}
		return slices.Contains(f.Venues, venueOf[c.ID]), nil
	})
	start(t, New(src, store, testOptions(WithMatcher(matcher))...))
	changes := []Change{
		{Kind: KindEvent, ID: 1, Action: ActionCreated},    // 1: typed, filtered
		{Kind: KindEvent, ID: 2, Action: ActionCreated},    // 2: typed
		{Kind: KindTag, ID: 9, Action: ActionCreated},      // 3: nobody
		{Kind: KindEvent, ID: 3, Action: ActionUpdated},    // 4: filtered
		{Kind: KindTag, ID: 9, Action: ActionDeleted},      // 5: typed
		{Kind: KindVenue, ID: 5, Action: ActionUpdated},    // 6: nobody
		{Kind: KindEvent, ID: 2, Action: ActionUpdated},    // 7: nobody (venue 6)
		{Kind: KindCategory, ID: 4, Action: ActionDeleted}, // 8: nobody
	}
	for _, c := range changes {
		src.Append(c)
	}
	waitFor(t, "cursors at the end", func() bool {
		return getSub(t, store, typedSub.ID).Cursor == 8 && getSub(t, store, filteredSub.ID).Cursor == 8
	})
	if got := typed.acked(); !slices.Equal(got, []uint64{1, 2, 5}) {
		t.Errorf("typed subscription got %v", got)
	}
	if got := filtered.acked(); !slices.Equal(got, []uint64{1, 4}) {
		t.Errorf("filtered subscription got %v", got)
	}
	// Without a Matcher, filters are ignored.
	src2, store2 := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	all := newReceiver(t, nil)
	s2 := mustCreate(t, store2, Subscription{URL: all.url(), Secret: all.secret, Types: []string{TypeAll}, Filter: Filter{Venues: []int64{5}}})
	start(t, New(src2, store2, testOptions()...))
	for _, c := range changes {
		src2.Append(c)
	}
	waitFor(t, "unfiltered", func() bool { return getSub(t, store2, s2.ID).Cursor == 8 })
	if got := all.acked(); !slices.Equal(got, seqs(1, 8)) {
		t.Errorf("without a matcher: %v", got)
	}
}

func TestExpiredCursorDisables(t *testing.T) {
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	rc := newReceiver(t, nil)
	appendEvents(src, 10)
	src.Trim(5)
	sub := mustCreate(t, store, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{TypeAll}, Progress: Progress{Cursor: 2}})
	start(t, New(src, store, testOptions()...))
	waitFor(t, "disabled", func() bool { return getSub(t, store, sub.ID).Disabled })
	if s := getSub(t, store, sub.ID); !strings.Contains(s.DisabledReason, "trimmed") || len(rc.all()) != 0 {
		t.Fatalf("%+v, %d deliveries", s, len(rc.all()))
	}
}

func TestAdminChangesReachTheDispatcher(t *testing.T) {
	broken := newReceiver(t, func(int, http.ResponseWriter, *http.Request) int { return http.StatusNotFound })
	fixed := newReceiver(t, nil)
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	sub := mustCreate(t, store, Subscription{URL: broken.url(), Secret: broken.secret, Types: []string{TypeAll}})
	leases := NewMemoryLeaser(nil)
	d := New(src, store, testOptions(WithRefreshInterval(time.Hour), WithLeaser(leases))...) // only Refresh re-reads
	start(t, d)
	appendEvents(src, 5)
	waitFor(t, "failed attempts", func() bool { return len(broken.all()) >= 2 })
	// The admin points it at the right URL, with a new secret.
	if _, err := store.Update(sub.ID, func(s *Subscription) { s.URL, s.Secret = fixed.url(), fixed.secret }); err != nil {
		t.Fatal(err)
	}
	d.Refresh()
	waitFor(t, "delivery to the new URL", func() bool { return len(fixed.acked()) == 5 })
	for _, dl := range fixed.all() {
		if dl.VerifyErr != nil {
			t.Fatalf("signed with the old secret: %v", dl.VerifyErr)
		}
	}
	// Deleted: nothing more is delivered, and its lease is given up.
	if err := store.Delete(sub.ID); err != nil {
		t.Fatal(err)
	}
	d.Refresh()
	waitFor(t, "the deleted subscription's lease given up", func() bool { return leases.Holder("webhook:1") == "" })
	appendEvents(src, 3)
	probe := newReceiver(t, nil)
	mustCreate(t, store, Subscription{URL: probe.url(), Secret: probe.secret, Types: []string{TypeAll}})
	d.Refresh()
	waitFor(t, "a later subscription served", func() bool { return len(probe.acked()) == 8 })
	if n := len(fixed.all()); n != 5 {
		t.Fatalf("a deleted subscription got %d requests", n)
	}
}

func TestRunTwiceIsRefused(t *testing.T) {
	d := New(NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{}), WithLogger(quiet))
	start(t, d)
	waitFor(t, "running", func() bool { return d.running.Load() })
	if err := d.Run(context.Background()); !errors.Is(err, ErrRunning) {
		t.Fatalf("second Run = %v", err)
	}
}

// diesHolding is a leaser whose owner never gives a lease back, like an
// instance that was killed.
type diesHolding struct{ *MemoryLeaser }

func (diesHolding) Release(context.Context, string, string) error { return nil }

func TestAnotherInstanceTakesOverWhenTheHolderDies(t *testing.T) {
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
	leases := NewMemoryLeaser(nil)
	rc := newReceiver(t, nil)
	sub := mustCreate(t, store, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{TypeAll}})
	opts := func(id string, l Leaser) []Option {
		return testOptions(WithLeaser(l), WithInstanceID(id), WithTimeout(300*time.Millisecond), WithLeaseTTL(time.Second))
	}
	stopA := start(t, New(src, store, opts("a", diesHolding{leases})...))
	appendEvents(src, 10)
	waitFor(t, "a delivers", func() bool { return getSub(t, store, sub.ID).Cursor == 10 })
	if h := leases.Holder("webhook:1"); h != "a" {
		t.Fatalf("lease held by %q", h)
	}
	stopA() // killed: the lease stays until it expires
	start(t, New(src, store, opts("b", leases)...))
	appendEvents(src, 10)
	waitFor(t, "b takes over", func() bool { return getSub(t, store, sub.ID).Cursor == 20 })
	if h := leases.Holder("webhook:1"); h != "b" {
		t.Fatalf("lease held by %q after the takeover", h)
	}
	if !slices.Equal(rc.acked(), seqs(1, 20)) {
		t.Fatalf("acknowledged %v", rc.acked())
	}
}
