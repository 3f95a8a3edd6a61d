package storagetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// linkBenchEvents and the counts below are the calendar BenchLinkCounts
// seeds: the size of the HTTP benchmark's calendar.
const (
	linkBenchEvents     = 10_000
	linkBenchVenues     = 300
	linkBenchLinked     = 250 // venues any event links to; the rest have none
	linkBenchCategories = 20
	linkBenchTags       = 50
)

// perIDRepo hides the LinkCounter of the repository it wraps: the Service
// then counts with one query per record, as it did before grouped counts.
type perIDRepo struct{ calendar.Repository }

// BenchLinkCounts measures the lists whose every record needs a count, on a
// calendar.Service over the driver: venues with has_events and with
// only_with_upcoming (300 venues, page of 50), and categories and tags with
// their counts (the count cache off, so each list counts). Each request runs
// twice in a row: "grouped" through the driver's LinkCounter and "per-id"
// with it hidden (one count query per record, the former way), so the pair
// comes from the same run. 10,000 events are seeded once, in batches of one
// Apply each.
func BenchLinkCounts(b *testing.B, newRepo Factory) {
	r := newRepo(b)
	seedLinkBench(b, r)
	now := func() time.Time { return benchNow }
	cals := []struct {
		name string
		cal  *calendar.Service
	}{
		{"grouped", calendar.New(r, calendar.WithClock(now), calendar.WithTermCountTTL(0))},
		{"per-id", calendar.New(perIDRepo{r}, calendar.WithClock(now), calendar.WithTermCountTTL(0))},
	}
	ctx := calendar.WithPrincipal(context.Background(), calendar.Anonymous)
	yes := true
	requests := []struct {
		name string
		run  func(*calendar.Service) (int, error)
	}{
		{"VenuesHasEvents", func(c *calendar.Service) (int, error) {
			p, err := c.ListVenues(ctx, calendar.VenueQuery{HasEvents: &yes, PerPage: 50})
			if err != nil {
				return 0, err
			}
			return p.Total, nil
		}},
		{"VenuesUpcoming", func(c *calendar.Service) (int, error) {
			p, err := c.ListVenues(ctx, calendar.VenueQuery{OnlyWithUpcoming: true, PerPage: 50})
			if err != nil {
				return 0, err
			}
			return p.Total, nil
		}},
		{"Categories", func(c *calendar.Service) (int, error) {
			p, err := c.ListTerms(ctx, calendar.TaxonomyCategory, calendar.TermQuery{PerPage: 50})
			if err != nil {
				return 0, err
			}
			return p.Total, nil
		}},
		{"Tags", func(c *calendar.Service) (int, error) {
			p, err := c.ListTerms(ctx, calendar.TaxonomyTag, calendar.TermQuery{PerPage: 50})
			if err != nil {
				return 0, err
			}
			return p.Total, nil
		}},
	}
	for _, req := range requests {
		// Both ways must answer alike, or the comparison means nothing.
		want, err := req.run(cals[0].cal)
		if err != nil {
			b.Fatal(err)
		}
		if got, err := req.run(cals[1].cal); err != nil || got != want {
			b.Fatalf("%s: per-id total %d (%v), grouped %d", req.name, got, err, want)
		}
		for _, c := range cals {
			b.Run(req.name+"/"+c.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := req.run(c.cal); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// seedLinkBench stores the BenchLinkCounts calendar: events over two years
// around benchNow (one in ten a draft), each at one of the first
// linkBenchLinked venues, with one or two categories and up to three tags.
func seedLinkBench(b *testing.B, r calendar.Repository) {
	b.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 2030))
	apply := func(steps []calendar.Step) []int64 {
		res, err := r.Apply(ctx, &calendar.Write{Steps: steps})
		if err != nil {
			b.Fatalf("seeding: %v", err)
		}
		ids := make([]int64, len(res.Steps))
		for i, st := range res.Steps {
			if st.Post != nil {
				ids[i] = st.Post.ID
			} else {
				ids[i] = st.Term.ID
			}
		}
		return ids
	}
	var steps []calendar.Step
	for i := range linkBenchCategories {
		steps = append(steps, calendar.Step{Op: calendar.OpCreateTerm, Term: newCategory(fmt.Sprintf("lc-category-%d", i), 0)})
	}
	cats := apply(steps)
	steps = steps[:0]
	for i := range linkBenchTags {
		steps = append(steps, calendar.Step{Op: calendar.OpCreateTerm, Term: newTag(fmt.Sprintf("lc-tag-%d", i))})
	}
	tags := apply(steps)
	steps = steps[:0]
	for i := range linkBenchVenues {
		v := newVenue(fmt.Sprintf("lc-venue-%d", i))
		v.Date = benchBase.Add(time.Duration(i) * time.Hour)
		steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: v})
	}
	venues := apply(steps)
	const batch = 200
	for lo := 0; lo < linkBenchEvents; lo += batch {
		steps = steps[:0]
		for i := lo; i < min(lo+batch, linkBenchEvents); i++ {
			e := benchEvent(rng, fmt.Sprintf("lc-event-%d", i), cats, venues[:linkBenchLinked])
			e.TagIDs = someIDs(rng, tags, 3)
			steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: e})
		}
		apply(steps)
	}
}
