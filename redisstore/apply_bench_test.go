package redisstore

import (
	"context"
	"fmt"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// benchStore is a Store on the single node under a fresh prefix, with a
// round-trip counter on its own client.
func benchStore(b *testing.B) (*Store, *tripCounter) {
	c := singleClient(b)
	h := &tripCounter{}
	c.AddHook(h)
	return newTestStore(b, c), h
}

func reportTrips(b *testing.B, h *tripCounter, before int64) {
	b.ReportMetric(float64(h.n.Load()-before)/float64(b.N), "trips/op")
}

// An event created with a new venue, organizer, category and two tags: one
// Apply of six steps (the calendar's way now) against six separate writes
// (its way before, which could leave the first ones behind).
func BenchmarkNestedCreate(b *testing.B) {
	ctx := context.Background()
	venue := func(i int) *calendar.PostRecord {
		return &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: fmt.Sprint("hall-", i),
			Lang: "en", Title: calendar.Text{"en": fmt.Sprint("Hall ", i)}, City: "Paris"}
	}
	org := func(i int) *calendar.PostRecord {
		return &calendar.PostRecord{Kind: calendar.KindOrganizer, Status: calendar.StatusPublish, Date: t0, Slug: fmt.Sprint("org-", i),
			Lang: "en", Title: calendar.Text{"en": fmt.Sprint("Org ", i)}}
	}
	term := func(tax calendar.Taxonomy, name string, i int) *calendar.TermRecord {
		return &calendar.TermRecord{Taxonomy: tax, Slug: fmt.Sprint(name, "-", i), Lang: "en", Name: calendar.Text{"en": fmt.Sprint(name, " ", i)}}
	}
	b.Run("apply", func(b *testing.B) {
		s, h := benchStore(b)
		before := h.n.Load()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			ev := event(fmt.Sprint("gala-", i), t0)
			ev.VenueIDs, ev.OrganizerIDs = []int64{calendar.StepRef(0)}, []int64{calendar.StepRef(1)}
			ev.CategoryIDs, ev.TagIDs = []int64{calendar.StepRef(2)}, []int64{calendar.StepRef(3), calendar.StepRef(4)}
			_, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
				{Op: calendar.OpEnsurePost, Post: venue(i), Now: t0},
				{Op: calendar.OpEnsurePost, Post: org(i), Now: t0},
				{Op: calendar.OpEnsureTerm, Term: term(calendar.TaxonomyCategory, "cat", i)},
				{Op: calendar.OpEnsureTerm, Term: term(calendar.TaxonomyTag, "a", i)},
				{Op: calendar.OpEnsureTerm, Term: term(calendar.TaxonomyTag, "b", i)},
				{Op: calendar.OpCreatePost, Post: ev},
			}})
			if err != nil {
				b.Fatal(err)
			}
		}
		reportTrips(b, h, before)
	})
	b.Run("separate", func(b *testing.B) {
		s, h := benchStore(b)
		before := h.n.Load()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			v, err1 := s.CreatePost(ctx, venue(i))
			o, err2 := s.CreatePost(ctx, org(i))
			c, err3 := s.CreateTerm(ctx, term(calendar.TaxonomyCategory, "cat", i))
			ta, err4 := s.CreateTerm(ctx, term(calendar.TaxonomyTag, "a", i))
			tb, err5 := s.CreateTerm(ctx, term(calendar.TaxonomyTag, "b", i))
			for _, err := range []error{err1, err2, err3, err4, err5} {
				if err != nil {
					b.Fatal(err)
				}
			}
			ev := event(fmt.Sprint("gala-", i), t0)
			ev.VenueIDs, ev.OrganizerIDs, ev.CategoryIDs, ev.TagIDs = []int64{v.ID}, []int64{o.ID}, []int64{c.ID}, []int64{ta.ID, tb.ID}
			if _, err := s.CreatePost(ctx, ev); err != nil {
				b.Fatal(err)
			}
		}
		reportTrips(b, h, before)
	})
}

// An event created with 100 new tag names, on a calendar holding no tags and
// on one holding 10,000: the cost does not grow with the store, since every
// name is looked up in its own index entry.
func BenchmarkNewTags(b *testing.B) {
	ctx := context.Background()
	for _, existing := range []int{0, 10_000} {
		b.Run(fmt.Sprintf("existing=%d", existing), func(b *testing.B) {
			s, h := benchStore(b)
			for lo := 0; lo < existing; lo += 500 {
				var steps []calendar.Step
				for i := lo; i < min(lo+500, existing); i++ {
					steps = append(steps, calendar.Step{Op: calendar.OpCreateTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag,
						Slug: fmt.Sprint("old-", i), Lang: "en", Name: calendar.Text{"en": fmt.Sprint("old tag ", i)}}})
				}
				if _, err := s.Apply(ctx, &calendar.Write{Steps: steps}); err != nil {
					b.Fatal(err)
				}
			}
			before := h.n.Load()
			b.ReportAllocs()
			for n := 0; b.Loop(); n++ {
				steps := make([]calendar.Step, 0, 101)
				ev := event("tagged", t0)
				for i := range 100 {
					steps = append(steps, calendar.Step{Op: calendar.OpEnsureTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag,
						Slug: fmt.Sprint("new-", n, "-", i), Lang: "en", Name: calendar.Text{"en": fmt.Sprint("new tag ", n, " ", i)}}})
					ev.TagIDs = append(ev.TagIDs, calendar.StepRef(i))
				}
				steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: ev})
				if _, err := s.Apply(ctx, &calendar.Write{Steps: steps}); err != nil {
					b.Fatal(err)
				}
			}
			reportTrips(b, h, before)
		})
	}
}
