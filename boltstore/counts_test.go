package boltstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// countData seeds events of every count class: each status (scheduled ones
// on both sides of the queries' Now), hidden, series records, several
// authors, categories and tags, long events and events ending before they
// start or never.
func countData(t *testing.T, s *Store, rng *rand.Rand, n int) *dataset {
	t.Helper()
	d := seedData(t, s, rng, 0)
	for i := range n {
		e := randomEvent(rng, d, i)
		e.PostParent = 0
		switch rng.IntN(12) {
		case 0:
			e.End = e.Start.Add(-time.Hour)
		case 1:
			e.End = e.Start.Add(time.Duration(rng.IntN(40*24)) * time.Hour)
		case 2:
			e.Recurrence = []string{"RRULE:FREQ=DAILY;COUNT=3"}
		}
		d.events = append(d.events, mustCreate(t, s, e).ID)
	}
	return d
}

// countInstant returns a bound a window may have: an event's own Start or
// End (ties), the edge of a count bucket, or any instant.
func countInstant(rng *rand.Rand, all []*calendar.PostRecord) time.Time {
	p := all[rng.IntN(len(all))]
	t := p.Start
	if rng.IntN(2) == 0 && !p.End.IsZero() {
		t = p.End
	}
	switch rng.IntN(4) {
	case 0:
		sh := countShifts[rng.IntN(len(countShifts)-1)]
		u := timeU64(t) &^ (1<<sh - 1)
		return time.Unix(0, int64(u^1<<63)).UTC()
	case 1:
		return t.Add(time.Duration(rng.IntN(1000)-500) * time.Minute)
	}
	return t
}

// countShapeQuery draws a query of a shape the counts answer.
func countShapeQuery(rng *rand.Rand, d *dataset, all []*calendar.PostRecord) *calendar.PostQuery {
	vis := []calendar.Visibility{
		{},
		{Statuses: []calendar.Status{calendar.StatusPublish}},
		{Statuses: []calendar.Status{calendar.StatusPublish}, Owner: int64(1 + rng.IntN(3)),
			OwnStatuses: []calendar.Status{calendar.StatusFuture, calendar.StatusDraft, calendar.StatusPending, calendar.StatusPrivate}},
		{Statuses: []calendar.Status{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusDraft, calendar.StatusPending, calendar.StatusPrivate}},
		{Statuses: []calendar.Status{calendar.StatusTrash}, Owner: int64(1 + rng.IntN(3)), OwnStatuses: []calendar.Status{calendar.StatusDraft}},
		// Published events as the caller's own only: counted match by match.
		{Statuses: []calendar.Status{calendar.StatusPrivate}, Owner: int64(1 + rng.IntN(3)), OwnStatuses: []calendar.Status{calendar.StatusPublish}},
	}[rng.IntN(6)]
	q := &calendar.PostQuery{
		Kind: calendar.KindEvent, Visible: vis, ExcludeHidden: rng.IntN(2) == 0,
		Series: []calendar.StoredSeries{calendar.SeriesAny, calendar.SeriesHideTemplates}[rng.IntN(2)],
		Now:    base.Add(time.Duration(rng.IntN(48)-24) * time.Hour),
		Offset: rng.IntN(3) * 5, Limit: []int{0, 9, 50}[rng.IntN(3)], CountOnly: rng.IntN(5) == 0,
	}
	a, b := countInstant(rng, all), countInstant(rng, all)
	if b.Before(a) {
		a, b = b, a
	}
	if rng.IntN(6) == 0 {
		b = a // a window of one instant: the edges meet
	}
	excl := func() bool { return rng.IntN(3) == 0 }
	switch rng.IntN(5) {
	case 0: // default window: not ended before a, starting by b
		q.End = calendar.TimeRange{From: a, FromExclusive: excl()}
		q.Start = calendar.TimeRange{To: b, ToExclusive: excl()}
	case 1: // a week: starting from a, ending by b
		q.Start = calendar.TimeRange{From: a, FromExclusive: excl()}
		q.End = calendar.TimeRange{To: b, ToExclusive: excl()}
	case 2:
		q.Start = calendar.TimeRange{From: a, To: b, FromExclusive: excl(), ToExclusive: excl()}
	case 3:
		q.End = calendar.TimeRange{From: a, To: b, FromExclusive: excl(), ToExclusive: excl()}
		if rng.IntN(2) == 0 {
			q.End.From = time.Time{}
		}
	}
	switch rng.IntN(3) {
	case 0:
		q.CategoryIDs = []int64{d.categories[rng.IntN(len(d.categories))]}
	case 1:
		q.TagIDs = []int64{d.tags[rng.IntN(len(d.tags))]}
	}
	return q
}

// The totals taken from event_counts equal a count of every match, for
// every caller kind and every shape the counts answer, with bounds on
// bucket edges and on the events' own instants, before and after edits
// that move events between buckets, statuses and terms; and the page a
// walk cuts short is the page of all matches.
func TestCountTotalsMatchBruteForce(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	rng := rand.New(rand.NewPCG(7, 9))
	d := countData(t, s, rng, 400)
	check := func(round int) {
		counted := 0
		all, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 400 {
			q := countShapeQuery(rng, d, all.Records)
			var matches []*calendar.PostRecord
			for _, p := range all.Records {
				if storage.MatchPost(q, p) {
					matches = append(matches, p)
				}
			}
			var total int
			var ok bool
			err := s.db.View(func(tx *bolt.Tx) error {
				var err error
				total, ok, err = newLister(ctx, tx, q).countTotal()
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				edgesMeet := q.Start.To.Equal(q.End.From) && q.Start.ToExclusive && q.End.FromExclusive
				ownPublished := slices.Contains(q.Visible.OwnStatuses, calendar.StatusPublish)
				if !ownPublished && (q.Start.IsZero() || q.End.IsZero() || !q.Start.To.Before(q.End.From) && !edgesMeet) {
					t.Fatalf("round %d query %d: counts do not answer %+v", round, i, q)
				}
				continue // starting before it may end: not a shape the counts take
			}
			if total > 0 {
				counted++
			}
			if total != len(matches) {
				t.Fatalf("round %d query %d: counted total %d, %d matches; query %+v", round, i, total, len(matches), q)
			}
			page, err := s.ListPosts(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			want := storage.Window(matches, q)
			if q.CountOnly {
				want = nil
			}
			if page.Total != len(matches) || !slices.EqualFunc(page.Records, want, func(a, b *calendar.PostRecord) bool { return a.ID == b.ID }) {
				t.Fatalf("round %d query %d: page %d records of %d, want %d of %d", round, i, len(page.Records), page.Total, len(want), len(matches))
			}
		}
		if counted < 120 {
			t.Fatalf("round %d: only %d of 400 queries had a non-zero counted total", round, counted)
		}
	}
	check(0)
	// Move events between buckets, statuses, classes and terms, and delete some.
	for i, id := range d.events {
		p, err := s.GetPost(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		switch i % 5 {
		case 0:
			p.Start, p.End = p.Start.Add(37*time.Hour), p.End.Add(-5*time.Hour)
		case 1:
			p.Status, p.HideFromListings = calendar.Statuses[rng.IntN(len(calendar.Statuses))], !p.HideFromListings
		case 2:
			p.CategoryIDs, p.TagIDs, p.Author = []int64{d.categories[0], d.categories[0]}, nil, 3
		case 3:
			if err := s.DeletePost(ctx, id, p.Version); err != nil {
				t.Fatal(err)
			}
			continue
		default:
			continue
		}
		if _, err := s.UpdatePost(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	mustCheck(t, s)
	check(1)
}

// A file of layout 2 (no counts) gets its counts, scheduled and odd-ended
// event indexes built when opened, and its totals are exact.
func TestMigrateLayout2BuildsCounts(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	path := s.db.Path()
	rng := rand.New(rand.NewPCG(3, 4))
	countData(t, s, rng, 150)
	q := &calendar.PostQuery{Kind: calendar.KindEvent, Now: base, Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}},
		End: calendar.TimeRange{From: base}, Start: calendar.TimeRange{To: base.AddDate(0, 2, 0)}, Limit: 9}
	want, err := s.ListPosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if want.Total == 0 {
		t.Fatal("no event in the window: the test proves nothing")
	}
	s.Close()
	// Turn the file back into layout 2.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bEventCounts, bEventFuture, bEventOdd} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		return tx.Bucket(bMeta).Put(kLayout, u64(2))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	s2, err := Open(path)
	if err != nil {
		t.Fatalf("Open layout 2: %v", err)
	}
	defer s2.Close()
	mustCheck(t, s2)
	got, err := s2.ListPosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != want.Total || len(got.Records) != len(want.Records) {
		t.Fatalf("after migration: %d of %d, before %d of %d", len(got.Records), got.Total, len(want.Records), want.Total)
	}
	err = s2.db.View(func(tx *bolt.Tx) error {
		if n := tx.Bucket(bEventCounts).Stats().KeyN; n == 0 {
			return errors.New("no counts built")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Check compares every count with the records: a count off by one is
// reported.
func TestCheckFindsWrongCount(t *testing.T) {
	s := openTemp(t)
	mustCreate(t, s, event("one", base))
	err := s.db.Update(func(tx *bolt.Tx) error {
		c := tx.Bucket(bEventCounts).Cursor()
		k, v := c.First()
		n, _ := readU64(v)
		return tx.Bucket(bEventCounts).Put(append([]byte(nil), k...), u64(n+1))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(context.Background()); !errors.Is(err, ErrInconsistent) {
		t.Fatalf("Check = %v, want ErrInconsistent", err)
	}
}

// A default window page at 4,000 events visits about as many entries as
// at 400: the total comes from the counts and the walk stops at the page.
func TestDefaultPageStepsDoNotGrow(t *testing.T) {
	ctx := context.Background()
	steps := func(n int) int {
		s := openTemp(t)
		seedBulk(t, s, n, 365*24*time.Hour)
		q := &calendar.PostQuery{Kind: calendar.KindEvent, Now: base.AddDate(0, 6, 0),
			Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}},
			End:     calendar.TimeRange{From: base.AddDate(0, 6, 0)}, Start: calendar.TimeRange{To: base.AddDate(2, 0, 0)}, Limit: 9}
		var got int
		err := s.db.View(func(tx *bolt.Tx) error {
			l := newLister(ctx, tx, q)
			page, err := l.run()
			if err == nil && (page.Total < n/3 || len(page.Records) != 9) {
				err = fmt.Errorf("%d events: page of %d, total %d", n, len(page.Records), page.Total)
			}
			got = l.steps
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	small, large := steps(400), steps(4000)
	if large > 2*small+50 {
		t.Fatalf("default page: %d steps at 400 events, %d at 4,000", small, large)
	}
}

// When the Start bound and the End bound are one instant, both exclusive,
// an event starting and ending at that instant lies outside both ranges:
// the counts cannot take the window, the list counts it, and the total is
// still exact.
func TestCountEdgesMeet(t *testing.T) {
	s := openTemp(t)
	a := base.Add(3 * time.Hour)
	before := event("before", a.Add(-2*time.Hour))
	before.End = a.Add(-time.Hour)
	instant := event("instant", a)
	instant.End = a
	across := event("across", a.Add(-time.Hour))
	across.End = a.Add(time.Hour)
	for _, e := range []*calendar.PostRecord{before, instant, across} {
		mustCreate(t, s, e)
	}
	q := &calendar.PostQuery{Kind: calendar.KindEvent, Now: base,
		Start: calendar.TimeRange{To: a, ToExclusive: true}, End: calendar.TimeRange{From: a, FromExclusive: true}}
	page, err := s.ListPosts(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 1 || len(page.Records) != 1 || page.Records[0].Slug != "across" {
		t.Fatalf("got %d records of %d, want the event across the instant", len(page.Records), page.Total)
	}
}
