package calendar_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// storeCounts is how many records of each kind the store holds.
func storeCounts(t *testing.T, r calendar.Repository) map[string]int {
	t.Helper()
	ctx := context.Background()
	out := map[string]int{}
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer} {
		p, err := r.ListPosts(ctx, &calendar.PostQuery{Kind: k, CountOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		out[k.String()] = p.Total
	}
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		terms, err := r.ListTerms(ctx, tax)
		if err != nil {
			t.Fatal(err)
		}
		out[string(tax)] = len(terms)
	}
	return out
}

func nestedEvent(title string) calendar.EventInput {
	in := eventIn(title, "2026-04-01 20:00", "2026-04-01 22:00")
	in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: s("New Hall")}}})
	in.Organizers = calendar.Some([]calendar.OrganizerRef{{New: &calendar.OrganizerInput{Name: s("New Org")}}})
	in.Categories = calendar.Some([]calendar.TermRef{{Name: "New Cat"}})
	in.Tags = calendar.Some([]calendar.TermRef{{Name: "new-tag-1"}, {Name: "new-tag-2"}})
	return in
}

// 50 parallel updates pinned to one version, each naming a new tag: one
// wins, the others get 412 and leave nothing behind — not even their tag.
func TestPinnedUpdatesLeaveNothingOnPreconditionFailure(t *testing.T) {
	f := newFixture(t)
	ev := f.mustEvent(system, eventIn("Race", "2026-04-01 20:00", "2026-04-01 22:00"))
	const n = 50
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = f.cal.UpdateEvent(as(admin), calendar.ByID(ev.ID),
				calendar.EventInput{Tags: calendar.Some([]calendar.TermRef{{Name: fmt.Sprintf("race-%d", i)}})},
				calendar.WriteOptions{IfVersion: ev.Version})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, calendar.ErrPreconditionFailed):
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d updates succeeded, want 1", ok)
	}
	if got := storeCounts(t, f.repo)[string(calendar.TaxonomyTag)]; got != 1 {
		t.Errorf("%d race tags exist, want 1 (refused writes must create nothing)", got)
	}
}

// 50 parallel updates without a pinned version all succeed: no caller who
// did not ask for a version check gets 412, and no change is lost.
func TestUnpinnedUpdatesNeverFail(t *testing.T) {
	f := newFixture(t)
	ev := f.mustEvent(system, eventIn("Race", "2026-04-01 20:00", "2026-04-01 22:00"))
	const n = 50
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = f.cal.UpdateEvent(as(admin), calendar.ByID(ev.ID),
				calendar.EventInput{Tags: calendar.Some([]calendar.TermRef{{Name: fmt.Sprintf("t-%d", i)}})}, calendar.WriteOptions{})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("update %d: %v", i, err)
		}
	}
	got, _ := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
	if got.Version != ev.Version+n {
		t.Errorf("version %d after %d updates from %d: a write was lost", got.Version, n, ev.Version)
	}
}

// failLast makes every multi-record write fail inside the store after its
// steps ran (it adds a step that cannot succeed), as a storage failure
// between records would.
type failLast struct{ calendar.Repository }

func (f failLast) Apply(ctx context.Context, w *calendar.Write) (*calendar.WriteResult, error) {
	steps := append(append([]calendar.Step(nil), w.Steps...), calendar.Step{Op: calendar.OpUpdateTerm,
		Term: &calendar.TermRecord{ID: 1 << 40, Taxonomy: calendar.TaxonomyTag, Version: 1}})
	if _, err := f.Repository.Apply(ctx, &calendar.Write{Steps: steps}); err != nil {
		return nil, errors.New("storage failed mid-write")
	}
	return nil, errors.New("the injected step did not fail")
}

// A write that fails in the store after its nested records were written
// leaves none of them: no orphan venue, organizer or term.
func TestFailedNestedWriteLeavesNothing(t *testing.T) {
	f := newFixture(t)
	before := storeCounts(t, f.repo)
	broken := calendar.New(failLast{f.repo}, calendar.WithClock(f.clock.Now))
	if _, err := broken.CreateEvent(system, nestedEvent("Gala"), calendar.WriteOptions{}); err == nil {
		t.Fatal("create succeeded through a failing store")
	}
	if after := storeCounts(t, f.repo); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("a failed create left records: before %v, after %v", before, after)
	}
	ev := f.mustEvent(system, eventIn("Plain", "2026-04-01 20:00", "2026-04-01 22:00"))
	before = storeCounts(t, f.repo)
	if _, err := broken.UpdateEvent(system, calendar.ByID(ev.ID), nestedEvent("Gala"), calendar.WriteOptions{}); err == nil {
		t.Fatal("update succeeded through a failing store")
	}
	if after := storeCounts(t, f.repo); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("a failed update left records: before %v, after %v", before, after)
	}
	// Refusals (validation, permission) create nothing either.
	bad := nestedEvent("Bad")
	bad.EndDate = s("2026-03-01")
	if _, err := f.cal.CreateEvent(system, bad, calendar.WriteOptions{}); !errors.Is(err, calendar.ErrInvalid) {
		t.Fatalf("invalid create: %v", err)
	}
	if _, err := f.cal.CreateEvent(as(subscriber), nestedEvent("Nope"), calendar.WriteOptions{}); err == nil {
		t.Fatal("subscriber created an event")
	}
	if after := storeCounts(t, f.repo); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("refused writes left records: before %v, after %v", before, after)
	}
}

// Concurrent creates naming one new venue, organizer, category and tag make
// one of each, linked by every event.
func TestConcurrentCreatesShareNewNames(t *testing.T) {
	f := newFixture(t)
	const n = 30
	var wg sync.WaitGroup
	evs := make([]*calendar.Event, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			evs[i], errs[i] = f.cal.CreateEvent(as(editor), nestedEvent(fmt.Sprintf("E%d", i)), calendar.WriteOptions{})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
	}
	got := storeCounts(t, f.repo)
	want := map[string]int{"event": n, "venue": 1, "organizer": 1, string(calendar.TaxonomyCategory): 1, string(calendar.TaxonomyTag): 2}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("records after concurrent creates: %v, want %v", got, want)
	}
	for _, e := range evs[1:] {
		if e.Venues[0].ID != evs[0].Venues[0].ID || e.Organizers[0].ID != evs[0].Organizers[0].ID {
			t.Errorf("events link different venues/organizers")
		}
	}
}

// Concurrent creates of one category name: one 201, the rest term_exists
// naming it.
func TestConcurrentTermCreatesMakeOne(t *testing.T) {
	f := newFixture(t)
	const n = 30
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ids []int64
	exists := 0
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tm, err := f.cal.CreateTerm(as(editor), calendar.TaxonomyCategory, calendar.TermInput{Name: s("Dup2")}, calendar.WriteOptions{})
			mu.Lock()
			defer mu.Unlock()
			var ce *calendar.Error
			switch {
			case err == nil:
				ids = append(ids, tm.ID)
			case errors.As(err, &ce) && ce.Reason == "term_exists" && ce.TermID != 0:
				exists++
			default:
				t.Errorf("create: %v", err)
			}
		}()
	}
	wg.Wait()
	if len(ids) != 1 || exists != n-1 {
		t.Errorf("%d created, %d term_exists; want 1 and %d", len(ids), exists, n-1)
	}
}

// Array arguments are bounded: above the limit the write is refused naming
// the argument, before anything is looked up or created.
func TestArrayArgumentsAreBounded(t *testing.T) {
	f := newFixture(t, calendar.WithMaxItems(5))
	in := eventIn("Many", "2026-04-01 20:00", "2026-04-01 22:00")
	var tags []calendar.TermRef
	for i := range 6 {
		tags = append(tags, calendar.TermRef{Name: fmt.Sprintf("tag-%d", i)})
	}
	in.Tags = calendar.Some(tags)
	_, err := f.cal.CreateEvent(system, in, calendar.WriteOptions{})
	ce := wantErr(t, err, calendar.CodeInvalid, "")
	if !strings.Contains(ce.Params["tags"], "at most 5") {
		t.Errorf("tags message %q", ce.Params["tags"])
	}
	if got := storeCounts(t, f.repo); got[string(calendar.TaxonomyTag)] != 0 || got["event"] != 0 {
		t.Errorf("an oversized write stored records: %v", got)
	}
	in.Tags = calendar.Some(tags[:5])
	if _, err := f.cal.CreateEvent(system, in, calendar.WriteOptions{}); err != nil {
		t.Errorf("a write at the limit: %v", err)
	}
}

// Concurrent forced deletes of one event: one succeeds, the others get the
// event's own not-found code.
func TestConcurrentDeletesGetTheKindsNotFound(t *testing.T) {
	f := newFixture(t)
	ev := f.mustEvent(system, eventIn("Doomed", "2026-04-01 20:00", "2026-04-01 22:00"))
	const n = 30
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = f.cal.DeleteEvent(as(admin), calendar.ByID(ev.ID), calendar.DeleteOptions{Force: true})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		var ce *calendar.Error
		switch {
		case err == nil:
			ok++
		case errors.As(err, &ce) && ce.Reason == "rest-event-not-found":
		default:
			t.Errorf("delete: %v (reason %v)", err, ce)
		}
	}
	if ok != 1 {
		t.Errorf("%d deletes succeeded, want 1", ok)
	}
}
