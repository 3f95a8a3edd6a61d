package calendar_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

func TestConcurrentSameTitleGetsDistinctSlugs(t *testing.T) {
	f := newFixture(t)
	const n = 24
	slugs := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ev, err := f.cal.CreateEvent(as(author), eventIn("Jazz Night", "2026-04-01 20:00", "2026-04-01 23:00"), calendar.WriteOptions{})
			if err != nil {
				t.Error(err)
				return
			}
			slugs[i] = ev.Slug
		}(i)
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, sl := range slugs {
		if seen[sl] {
			t.Fatalf("slug %q given twice", sl)
		}
		seen[sl] = true
	}
	for i := 1; i <= n; i++ {
		want := "jazz-night"
		if i > 1 {
			want = fmt.Sprintf("jazz-night-%d", i)
		}
		if !seen[want] {
			t.Errorf("missing slug %q", want)
		}
		if _, err := f.cal.GetEvent(system, calendar.BySlug(want), calendar.ReadOptions{}); err != nil {
			t.Errorf("by slug %q: %v", want, err)
		}
	}
}

// Concurrent updates of different fields of one event: every write lands,
// because the service re-reads and re-applies on a version conflict.
func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	f := newFixture(t)
	ev := f.mustEvent(system, eventIn("Base", "2026-04-01 20:00", "2026-04-01 23:00"))
	const writers = 12
	var wg sync.WaitGroup
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			// Each writer adds its own category by name (created on the fly)
			// while keeping what the others added: it sends only its own field.
			var in calendar.EventInput
			switch i % 3 {
			case 0:
				in.Description = s(fmt.Sprintf("d%d", i))
			case 1:
				in.Excerpt = s(fmt.Sprintf("e%d", i))
			case 2:
				in.Cost = calendar.Some([]string{fmt.Sprintf("%d", i)})
			}
			if _, err := f.cal.UpdateEvent(as(editor), calendar.ByID(ev.ID), in, calendar.WriteOptions{}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	got, _ := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
	if got.Version != ev.Version+writers {
		t.Fatalf("version = %d, want %d: a write was lost", got.Version, ev.Version+writers)
	}
	if got.Description == "" || got.Excerpt == "" || len(got.Cost) != 1 {
		t.Fatalf("a field write was lost: %+v", got)
	}
}

// With a pinned version exactly one of two racing writers wins.
func TestConcurrentPinnedVersions(t *testing.T) {
	f := newFixture(t)
	ev := f.mustEvent(system, eventIn("Base", "2026-04-01 20:00", "2026-04-01 23:00"))
	const n = 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, conflicts := 0, 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := f.cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Title: s(fmt.Sprint(i))}, calendar.WriteOptions{IfVersion: ev.Version})
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				wins++
			} else if calendar.CodeOf(err) == calendar.CodePreconditionFailed {
				conflicts++
			} else {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if wins != 1 || conflicts != n-1 {
		t.Fatalf("wins %d conflicts %d", wins, conflicts)
	}
}

// Concurrent creates of one name make one record: the other writers get
// term_exists (terms) or the same record (venues, and terms named on events).
func TestConcurrentCreatesByName(t *testing.T) {
	f := newFixture(t)
	const n = 12
	var wg sync.WaitGroup
	var mu sync.Mutex
	termIDs, venueIDs, linked := map[int64]bool{}, map[int64]bool{}, map[int64]bool{}
	exists := 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			tm, terr := f.cal.CreateTerm(as(editor), calendar.TaxonomyCategory, calendar.TermInput{Name: s("Blues")}, calendar.WriteOptions{})
			v, verr := f.cal.CreateVenue(as(editor), calendar.VenueInput{Name: s("Same Hall")}, calendar.WriteOptions{})
			in := eventIn(fmt.Sprint("E", i), "2026-04-01 10:00", "2026-04-01 11:00")
			in.Tags = calendar.Some([]calendar.TermRef{{Name: "Late"}})
			ev, eerr := f.cal.CreateEvent(as(editor), in, calendar.WriteOptions{})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case terr == nil:
				termIDs[tm.ID] = true
			case calendar.CodeOf(terr) == calendar.CodeInvalid:
				exists++
			default:
				t.Error(terr)
			}
			if verr != nil || eerr != nil {
				t.Error(verr, eerr)
				return
			}
			venueIDs[v.ID] = true
			linked[ev.Tags[0].ID] = true
		}(i)
	}
	wg.Wait()
	if len(termIDs) != 1 || exists != n-1 {
		t.Fatalf("terms created %d, term_exists %d", len(termIDs), exists)
	}
	if len(venueIDs) != 1 || len(linked) != 1 {
		t.Fatalf("venues %v, tags named on events %v: one record each expected", venueIDs, linked)
	}
}
