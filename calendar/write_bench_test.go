package calendar_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// benchNestedCreate measures CreateEvent with a new venue, a new organizer,
// a new category and two new tags named by value (six records in one
// write) through a Service on repo. examples/server has the same
// benchmark per driver (BenchmarkServiceWrites).
func benchNestedCreate(b *testing.B, repo calendar.Repository) {
	cal := calendar.New(repo)
	ctx := calendar.WithPrincipal(context.Background(), calendar.System)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		in := eventIn(fmt.Sprintf("Bench %d", i), "2030-04-01 20:00", "2030-04-01 22:00")
		in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: s(fmt.Sprintf("Bench Hall %d", i))}}})
		in.Organizers = calendar.Some([]calendar.OrganizerRef{{New: &calendar.OrganizerInput{Name: s(fmt.Sprintf("Bench Org %d", i))}}})
		in.Categories = calendar.Some([]calendar.TermRef{{Name: fmt.Sprintf("Bench Cat %d", i)}})
		in.Tags = calendar.Some([]calendar.TermRef{{Name: fmt.Sprintf("bench-a-%d", i)}, {Name: fmt.Sprintf("bench-b-%d", i)}})
		if _, err := cal.CreateEvent(ctx, in, calendar.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchManyNewTags measures CreateEvent naming 100 new tags on a store that
// already holds stored tags: the cost must follow the names, not the store.
func benchManyNewTags(b *testing.B, repo calendar.Repository) {
	cal := calendar.New(repo)
	ctx := calendar.WithPrincipal(context.Background(), calendar.System)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		in := eventIn(fmt.Sprintf("Tagged %d", i), "2030-04-01 20:00", "2030-04-01 22:00")
		refs := make([]calendar.TermRef, 100)
		for k := range refs {
			refs[k] = calendar.TermRef{Name: fmt.Sprintf("fresh %d %d", i, k)}
		}
		in.Tags = calendar.Some(refs)
		if _, err := cal.CreateEvent(ctx, in, calendar.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreateNestedEvent: an event with a new venue, organizer, category
// and two tags, through the Service on memstore.
func BenchmarkCreateNestedEvent(b *testing.B) { benchNestedCreate(b, memstore.New()) }

// BenchmarkCreate100NewTagsOn10kTags: an event naming 100 new tags on a
// memstore holding 10,000 tags. Run with -benchtime=20x so every run sees
// about the same store size.
func BenchmarkCreate100NewTagsOn10kTags(b *testing.B) {
	repo := memstore.New()
	addTags(b, repo, "stored", 10_000)
	benchManyNewTags(b, repo)
}
