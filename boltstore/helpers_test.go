package boltstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	bolt "go.etcd.io/bbolt"
)

// base is the reference instant of the fixtures.
var base = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// openTemp opens a store on a new file in t's temp dir, closed at cleanup.
func openTemp(tb testing.TB, opts ...Option) *Store {
	tb.Helper()
	s, err := Open(filepath.Join(tb.TempDir(), "cal.db"), opts...)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// mustCheck fails tb when the store's indexes disagree with its records.
func mustCheck(tb testing.TB, s *Store) {
	tb.Helper()
	if err := s.Check(context.Background()); err != nil {
		tb.Fatalf("Check: %v", err)
	}
}

func event(slug string, start time.Time) *calendar.PostRecord {
	return &calendar.PostRecord{
		Kind: calendar.KindEvent, Status: calendar.StatusPublish, Author: 1,
		Date: base.Add(-time.Hour), Modified: base.Add(-time.Hour), Slug: slug, Lang: "en",
		Title: calendar.Text{"en": "Event " + slug}, Start: start, End: start.Add(2 * time.Hour),
		TimeZone: "UTC",
	}
}

func post(kind calendar.Kind, slug string, date time.Time) *calendar.PostRecord {
	return &calendar.PostRecord{
		Kind: kind, Status: calendar.StatusPublish, Author: 1, Date: date, Modified: date,
		Slug: slug, Lang: "en", Title: calendar.Text{"en": kind.String() + " " + slug},
	}
}

func mustCreate(tb testing.TB, s *Store, p *calendar.PostRecord) *calendar.PostRecord {
	tb.Helper()
	got, err := s.CreatePost(context.Background(), p)
	if err != nil {
		tb.Fatalf("CreatePost %q: %v", p.Slug, err)
	}
	return got
}

func mustCreateTerm(tb testing.TB, s *Store, t *calendar.TermRecord) *calendar.TermRecord {
	tb.Helper()
	got, err := s.CreateTerm(context.Background(), t)
	if err != nil {
		tb.Fatalf("CreateTerm %q: %v", t.Slug, err)
	}
	return got
}

// dataset is a random calendar: a few venues, organizers and terms, and
// events linked to them with every status and flag.
type dataset struct {
	venues, organizers []int64
	categories, tags   []int64
	events             []int64
}

// seedData fills s with n random events (and their venues, organizers and
// terms) through the public API, so that every write path is exercised.
func seedData(tb testing.TB, s *Store, rng *rand.Rand, n int) *dataset {
	tb.Helper()
	d := &dataset{}
	for i := range 4 {
		d.venues = append(d.venues, mustCreate(tb, s, post(calendar.KindVenue, fmt.Sprint("hall-", i), base.Add(time.Duration(rng.IntN(100))*time.Hour))).ID)
		d.organizers = append(d.organizers, mustCreate(tb, s, post(calendar.KindOrganizer, fmt.Sprint("org-", i), base.Add(time.Duration(rng.IntN(3))*time.Hour))).ID)
	}
	for i := range 5 {
		d.categories = append(d.categories, mustCreateTerm(tb, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: fmt.Sprint("cat-", i), Lang: "en", Name: calendar.Text{"en": fmt.Sprint("Cat ", i)}}).ID)
		d.tags = append(d.tags, mustCreateTerm(tb, s, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: fmt.Sprint("tag-", i), Lang: "en", Name: calendar.Text{"en": fmt.Sprint("Tag ", i)}}).ID)
	}
	for i := range n {
		d.events = append(d.events, mustCreate(tb, s, randomEvent(rng, d, i)).ID)
	}
	return d
}

func randomEvent(rng *rand.Rand, d *dataset, i int) *calendar.PostRecord {
	// Starts on whole hours over 60 days so that ties on Start are common
	// and the id tie-break is exercised.
	e := event(fmt.Sprint("ev-", i%40), base.Add(time.Duration(rng.IntN(60*24))*time.Hour))
	e.End = e.Start.Add(time.Duration(rng.IntN(72)) * time.Hour)
	if rng.IntN(20) == 0 {
		e.End = time.Time{} // no end: never in an End range
	}
	e.Status = calendar.Statuses[rng.IntN(len(calendar.Statuses))]
	e.Date = base.Add(time.Duration(rng.IntN(48)-24) * time.Hour)
	e.Author = int64(1 + rng.IntN(3))
	e.Featured = rng.IntN(5) == 0
	e.HideFromListings = rng.IntN(7) == 0
	e.Title = calendar.Text{"en": fmt.Sprint("Concert ", []string{"jazz", "rock", "folk"}[rng.IntN(3)], " ", i)}
	pick := func(ids []int64, max int) []int64 {
		var out []int64
		for range rng.IntN(max + 1) {
			out = append(out, ids[rng.IntN(len(ids))])
		}
		return out
	}
	e.VenueIDs = pick(d.venues, 1)
	e.OrganizerIDs = pick(d.organizers, 2)
	e.CategoryIDs = pick(d.categories, 2)
	e.TagIDs = pick(d.tags, 3)
	if len(d.events) > 0 && rng.IntN(6) == 0 {
		e.PostParent = d.events[rng.IntN(len(d.events))]
	}
	return e
}

// seedBulk writes n events straight into the buckets in one transaction,
// the way CreatePost would one by one: fast seeding for benchmarks and the
// reopen measurement.
func seedBulk(tb testing.TB, s *Store, n int, span time.Duration) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	const batch = 10000
	for done := 0; done < n; done += batch {
		err := s.db.Update(func(tx *bolt.Tx) error {
			for i := done; i < min(done+batch, n); i++ {
				id, err := nextID(tx, kPostSeq)
				if err != nil {
					return err
				}
				e := event(fmt.Sprint("bulk-", i), base.Add(time.Duration(rng.Int64N(int64(span)))))
				e.ID, e.Version = id, 1
				if e.Slug, err = reserveSlug(tx.Bucket(bPostSlugs), e.Kind, e.Slug, id); err != nil {
					return err
				}
				if err := writePost(tx, nil, e); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatalf("seedBulk: %v", err)
		}
	}
}
