package redisstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// The exact window path must answer exactly like the candidate path and like
// brute force over the records, on data made to hit its edge cases: ties and
// sub-microsecond starts, events on the bounds, long events, events ending
// before they start or lying outside the exact score range, future events
// around Now, series records and occurrences, and bounds tight enough that
// it gives up.
func TestWindowMatchesCandidatePath(t *testing.T) {
	c := singleClient(t)
	ctx := context.Background()
	fast := newTestStore(t, c)
	// tight shares the calendar with bounds low enough to fall back often and
	// to have a non-trivial set of irregular events.
	tight, err := New(c, WithPrefix(fast.k.tag[1:len(fast.k.tag)-2]))
	if err != nil {
		t.Fatal(err)
	}
	tight.maxIrregular, tight.windowBudget = 8, 60
	slow, _ := New(c, WithPrefix(fast.k.tag[1:len(fast.k.tag)-2]))
	slow.noWindow = true

	rng := rand.New(rand.NewPCG(11, 12))
	instant := func() time.Time {
		at := t0.Add(time.Duration(rng.IntN(60)) * 6 * time.Hour)
		switch rng.IntN(4) {
		case 0:
			at = at.Add(time.Duration(rng.IntN(3)) * 300 * time.Nanosecond)
		case 1:
			at = at.Add(time.Duration(rng.IntN(1000)) * time.Microsecond)
		}
		return at
	}
	// Links must name records that exist: venues, organizers, parent
	// events, categories and tags to pick from.
	var all []*calendar.PostRecord
	var venues, orgs, parents, cats, tags []int64
	for i := range 4 {
		v := mustCreate(t, fast, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "v"})
		o := mustCreate(t, fast, &calendar.PostRecord{Kind: calendar.KindOrganizer, Status: calendar.StatusPublish, Date: t0, Slug: "o"})
		venues, orgs, all = append(venues, v.ID), append(orgs, o.ID), append(all, v, o)
		if i < 2 {
			e := mustCreate(t, fast, event(fmt.Sprint("parent", i), instant()))
			parents, all = append(parents, e.ID), append(all, e)
		}
	}
	for i := range 6 {
		cats = append(cats, mustTerm(t, fast, calendar.TaxonomyCategory, fmt.Sprint("c", i), 0).ID)
		tags = append(tags, mustTerm(t, fast, calendar.TaxonomyTag, fmt.Sprint("t", i), 0).ID)
	}
	for i := range 700 {
		start := instant()
		p := event(fmt.Sprintf("e%d", i), start)
		switch r := rng.IntN(100); {
		case r < 70: // short
			p.End = start.Add(time.Duration(rng.IntN(7*60)) * time.Minute)
		case r < 85: // long
			p.End = start.Add(time.Duration(rng.IntN(40*24)) * time.Hour)
		case r < 92: // ends before it starts
			p.End = start.Add(-time.Duration(1+rng.IntN(100)) * time.Hour)
		case r < 96: // on another's bound
			p.End = instant()
		case r < 98: // beyond the exact score range
			p.Start = time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)
			p.End = p.Start.Add(time.Hour)
		default:
			p.End = time.Time{}
		}
		p.Status = calendar.Statuses[rng.IntN(len(calendar.Statuses))]
		p.Date = t0.Add(time.Duration(rng.IntN(20)-10) * 24 * time.Hour)
		p.Author = int64(1 + rng.IntN(3))
		p.Featured = rng.IntN(5) == 0
		p.HideFromListings = rng.IntN(8) == 0
		if n := rng.IntN(3); n > 0 {
			p.PostParent = parents[n-1]
		}
		// Series records and occurrences, owned or detached (links to a
		// series need not be consistent here: only the flags are indexed).
		switch rng.IntN(6) {
		case 0:
			p.Recurrence = []string{"RRULE:FREQ=DAILY;COUNT=3"}
		case 1, 2:
			p.RecurrenceID, p.Detached = start, rng.IntN(3) == 0
		}
		p.VenueIDs, p.OrganizerIDs = someOf(rng, venues), someOf(rng, orgs)
		p.CategoryIDs, p.TagIDs = someOf(rng, cats), someOf(rng, tags)
		all = append(all, mustCreate(t, fast, p))
	}
	var events []*calendar.PostRecord
	for _, p := range all {
		if p.Kind == calendar.KindEvent {
			events = append(events, p)
		}
	}
	bound := func() (time.Time, bool) {
		switch rng.IntN(4) {
		case 0:
			return time.Time{}, false
		case 1: // exactly an event's start or end
			e := events[rng.IntN(len(events))]
			if rng.IntN(2) == 0 {
				return e.Start, rng.IntN(2) == 0
			}
			return e.End, rng.IntN(2) == 0
		}
		return instant(), rng.IntN(2) == 0
	}
	timeRange := func() calendar.TimeRange {
		var r calendar.TimeRange
		r.From, r.FromExclusive = bound()
		r.To, r.ToExclusive = bound()
		if rng.IntN(3) == 0 {
			r.To = time.Time{}
		}
		return r
	}
	statuses := func() []calendar.Status {
		var out []calendar.Status
		for _, st := range calendar.Statuses {
			if rng.IntN(3) == 0 {
				out = append(out, st)
			}
		}
		return out
	}
	answered := 0
	const queries = 1500
	for i := range queries {
		q := calendar.PostQuery{Kind: calendar.KindEvent, Now: instant(), Start: timeRange(), End: timeRange(),
			Offset: rng.IntN(30), Limit: rng.IntN(25), CountOnly: rng.IntN(10) == 0}
		if rng.IntN(4) == 0 {
			q.Start, q.End = calendar.TimeRange{}, calendar.TimeRange{}
		}
		if rng.IntN(4) != 0 {
			q.Visible = calendar.Visibility{Statuses: statuses()}
			if rng.IntN(3) == 0 {
				q.Visible.Owner, q.Visible.OwnStatuses = int64(1+rng.IntN(3)), statuses()
			}
		}
		if rng.IntN(4) == 0 {
			for range 1 + rng.IntN(4) {
				q.ExcludeIDs = append(q.ExcludeIDs, all[rng.IntN(len(all))].ID)
			}
		}
		if rng.IntN(3) == 0 {
			q.ExcludeHidden = true
		}
		if rng.IntN(5) == 0 {
			f := rng.IntN(2) == 0
			q.Featured = &f
		}
		q.Series = calendar.StoredSeries(rng.IntN(3))
		switch rng.IntN(14) {
		case 0:
			q.Kind = calendar.KindVenue
		case 1:
			q.PostParent = parents[rng.IntN(2)]
		case 2:
			q.VenueIDs = someOf(rng, venues)
		case 3:
			q.NotVenueIDs = someOf(rng, venues)
		case 4:
			q.OrganizerIDs, q.TagIDs = someOf(rng, orgs), someOf(rng, tags)
		case 5:
			q.CategoryIDs = someOf(rng, cats)
		case 6:
			q.Search = []string{"e1"}
		case 7:
			q.TagIDs = someOf(rng, tags)
		case 8:
			q.OrganizerIDs = someOf(rng, orgs)
		}
		if !q.Start.Empty() && !q.End.Empty() && q.Kind == calendar.KindEvent {
			if page, _, err := fast.firstTrip(ctx, &q); err != nil {
				t.Fatal(err)
			} else if page != nil {
				answered++
			}
		}
		var want []*calendar.PostRecord
		for _, p := range all {
			if storage.MatchPost(&q, p) {
				want = append(want, p)
			}
		}
		storage.SortPosts(want)
		wantIDs := postIDs(storage.Window(want, &q))
		for _, s := range []struct {
			name string
			s    *Store
		}{{"window", fast}, {"tight", tight}, {"candidates", slow}} {
			page, err := s.s.ListPosts(ctx, &q)
			if err != nil {
				t.Fatalf("query %d, %s: %v", i, s.name, err)
			}
			if got := postIDs(page.Records); page.Total != len(want) || !slices.Equal(got, wantIDs) {
				t.Fatalf("query %d (%+v), %s path: total %d ids %v, want total %d ids %v",
					i, q, s.name, page.Total, got, len(want), wantIDs)
			}
		}
	}
	// Most eligible queries must have been answered by the window path, or
	// this test proves nothing about it.
	if answered < queries/2 {
		t.Errorf("the window path answered %d of %d queries", answered, queries)
	}
	t.Logf("the window path answered %d of %d queries", answered, queries)
}

// someOf returns up to two of ids (maybe twice the same).
func someOf(rng *rand.Rand, ids []int64) []int64 {
	var out []int64
	for range rng.IntN(3) {
		out = append(out, ids[rng.IntN(len(ids))])
	}
	return out
}

func postIDs(ps []*calendar.PostRecord) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}
