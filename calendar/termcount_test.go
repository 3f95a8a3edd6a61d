package calendar_test

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// Writes through the Service keep cached term counts exact: after a random
// mix of creates, updates, trashes and deletes, the cached counts equal those
// of a Service on the same store that never caches.
func TestTermCountCacheStaysExact(t *testing.T) {
	f := newFixture(t)
	fresh := calendar.New(f.repo, calendar.WithClock(f.clock.Now), calendar.WithTermCountTTL(0))
	var cats []int64
	for i := 0; i < 4; i++ {
		cats = append(cats, f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s(fmt.Sprint("c", i))}).ID)
	}
	tag := f.mustTerm(calendar.TaxonomyTag, calendar.TermInput{Name: s("t")}).ID
	refs := func(r *rand.Rand) []calendar.TermRef {
		var out []calendar.TermRef
		for _, c := range cats {
			if r.Intn(2) == 0 {
				out = append(out, calendar.TermRef{ID: c})
			}
		}
		return out
	}
	statuses := []string{"publish", "draft", "private", "pending"}
	r := rand.New(rand.NewSource(7))
	var events []int64
	check := func(step int) {
		t.Helper()
		for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
			no := false
			want, err := fresh.ListTerms(system, tax, calendar.TermQuery{HideEmpty: &no})
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.cal.ListTerms(system, tax, calendar.TermQuery{HideEmpty: &no})
			if err != nil {
				t.Fatal(err)
			}
			for i := range want.Terms {
				if want.Terms[i].Count != got.Terms[i].Count {
					t.Fatalf("step %d: %s count cached %d, true %d", step, want.Terms[i].Name, got.Terms[i].Count, want.Terms[i].Count)
				}
			}
		}
	}
	for step := 0; step < 200; step++ {
		switch op := r.Intn(5); {
		case op <= 1 || len(events) == 0:
			in := eventIn(fmt.Sprint("e", step), "2026-04-01 10:00", "2026-04-01 11:00")
			in.Categories = calendar.Some(refs(r))
			in.Status = calendar.Some(calendar.Status(statuses[r.Intn(len(statuses))]))
			if r.Intn(2) == 0 {
				in.Tags = calendar.Some([]calendar.TermRef{{ID: tag}})
			}
			events = append(events, f.mustEvent(system, in).ID)
		case op == 2:
			in := calendar.EventInput{Categories: calendar.Some(refs(r)), Status: calendar.Some(calendar.Status(statuses[r.Intn(len(statuses))]))}
			if _, err := f.cal.UpdateEvent(system, calendar.ByID(events[r.Intn(len(events))]), in, calendar.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		case op == 3:
			i := r.Intn(len(events))
			_, err := f.cal.DeleteEvent(system, calendar.ByID(events[i]), calendar.DeleteOptions{Force: r.Intn(2) == 0})
			if err != nil && calendar.CodeOf(err) != calendar.CodeGone {
				t.Fatal(err)
			}
			if err == nil {
				// Forced or trashed: either way it no longer counts; keep
				// trashed ones around for later updates (restores).
				if rec, _ := f.repo.GetPost(system, events[i]); rec == nil {
					events = append(events[:i], events[i+1:]...)
				}
			}
		case op == 4:
			check(step)
		}
	}
	check(-1)
}

// Scheduled events passing their date, and writes the cache cannot see,
// show up once the TTL has passed.
func TestTermCountCacheTTL(t *testing.T) {
	f := newFixture(t, calendar.WithTermCountTTL(time.Minute))
	c := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("c")})
	in := eventIn("later", "2026-04-01 10:00", "2026-04-01 11:00")
	in.Date = s("2026-03-06 15:00:30") // publishes 30 s after testNow
	in.Categories = calendar.Some([]calendar.TermRef{{ID: c.ID}})
	f.mustEvent(system, in)
	count := func() int {
		tm, err := f.cal.GetTerm(system, calendar.TaxonomyCategory, c.ID, calendar.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return tm.Count
	}
	if n := count(); n != 0 {
		t.Fatalf("count before publication = %d", n)
	}
	f.clock.Set(testNow.Add(45 * time.Second))
	if n := count(); n != 0 {
		t.Fatalf("within the TTL the cached count (0) is served, got %d", n)
	}
	f.clock.Set(testNow.Add(2 * time.Minute))
	if n := count(); n != 1 {
		t.Fatalf("after the TTL the count is fresh: %d", n)
	}
}

// gatedCountRepo counts the count-only event lists asked of the store.
type gatedCountRepo struct {
	calendar.Repository
	counts atomic.Int64
	gate   atomic.Pointer[chan struct{}] // when set, each count waits for it
}

func (r *gatedCountRepo) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	if q.CountOnly && q.Kind == calendar.KindEvent {
		r.counts.Add(1)
		if g := r.gate.Load(); g != nil {
			<-*g
		}
	}
	return r.Repository.ListPosts(ctx, q)
}

// Readers asking for an expired count at once share one recount: with a
// count just past the TTL they are served the old value while it runs; with
// none (or one older than twice the TTL) they wait for that one recount.
func TestTermCountSingleRecount(t *testing.T) {
	repo := &gatedCountRepo{Repository: memstore.New()}
	clk := &clock{t: testNow}
	cal := calendar.New(repo, calendar.WithClock(clk.Now), calendar.WithTermCountTTL(time.Minute))
	c, err := cal.CreateTerm(system, calendar.TaxonomyCategory, calendar.TermInput{Name: s("c")}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := eventIn("e", "2026-04-01 10:00", "2026-04-01 11:00")
	in.Categories = calendar.Some([]calendar.TermRef{{ID: c.ID}})
	if _, err := cal.CreateEvent(system, in, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	readers := func(want int) {
		t.Helper()
		var wg sync.WaitGroup
		got := make([]int, 32)
		errs := make([]error, 32)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tm, err := cal.GetTerm(system, calendar.TaxonomyCategory, c.ID, calendar.ReadOptions{})
				if err == nil {
					got[i] = tm.Count
				}
				errs[i] = err
			}()
		}
		// The readers are all blocked on (or past) one recount: release it.
		time.Sleep(50 * time.Millisecond)
		close(*repo.gate.Load())
		wg.Wait()
		for i := range got {
			if errs[i] != nil || got[i] != want {
				t.Fatalf("reader %d: count %d, %v; want %d", i, got[i], errs[i], want)
			}
		}
	}
	repo.gate.Store(new(make(chan struct{})))
	readers(1) // no cached count: all wait for one recount
	if n := repo.counts.Load(); n != 1 {
		t.Fatalf("%d recounts for 32 readers of an uncached count, want 1", n)
	}

	// A write the cache cannot see (straight to the store), then the TTL passes.
	ev2 := eventIn("e2", "2026-04-02 10:00", "2026-04-02 11:00")
	ev2.Categories = calendar.Some([]calendar.TermRef{{ID: c.ID}})
	other := calendar.New(repo.Repository, calendar.WithClock(clk.Now))
	if _, err := other.CreateEvent(system, ev2, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	clk.Set(testNow.Add(90 * time.Second))
	repo.counts.Store(0)
	repo.gate.Store(new(make(chan struct{})))
	readers(1) // stale but within twice the TTL: the old value, one recount behind
	for i := 0; repo.counts.Load() == 0 && i < 1000; i++ {
		time.Sleep(time.Millisecond)
	}
	if n := repo.counts.Load(); n != 1 {
		t.Fatalf("%d recounts for 32 readers of a stale count, want 1", n)
	}
	// The recount done, the fresh value is served.
	repo.gate.Store(nil)
	var tm *calendar.Term
	for range 100 {
		if tm, err = cal.GetTerm(system, calendar.TaxonomyCategory, c.ID, calendar.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		if tm.Count == 2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if tm.Count != 2 {
		t.Fatalf("after the background recount: count %d, want 2", tm.Count)
	}
}
