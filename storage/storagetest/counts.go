package storagetest

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

var countTests = []conformanceTest{
	{"Counts/TotalsPerCaller", testTotalsPerCaller},
	{"Counts/TotalsAfterWrites", testTotalsAfterWrites},
}

// callerVisibility is the visibility the calendar asks for each kind of
// caller: totals depend on it, so every kind is proven.
func callerVisibility(rng *rand.Rand, ds *dataset) map[string]calendar.Visibility {
	all := []calendar.Status{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusDraft, calendar.StatusPending, calendar.StatusPrivate}
	return map[string]calendar.Visibility{
		"system":    {},
		"anonymous": {Statuses: []calendar.Status{calendar.StatusPublish}},
		"author": {Statuses: []calendar.Status{calendar.StatusPublish}, Owner: pick(rng, ds.authors),
			OwnStatuses: []calendar.Status{calendar.StatusFuture, calendar.StatusDraft, calendar.StatusPending, calendar.StatusPrivate}},
		"editor":  {Statuses: all},
		"trashed": {Statuses: []calendar.Status{calendar.StatusTrash}, Owner: pick(rng, ds.authors), OwnStatuses: []calendar.Status{calendar.StatusDraft}},
	}
}

// countQuery is a list the way the calendar asks for it — the default
// window (not yet ended, starting within a horizon), a day or week window,
// or any window — at most one venue, organizer, category or tag, hidden
// events left out or not: the shapes whose totals drivers may take from
// counts kept by their indexes instead of visiting every match.
func countQuery(rng *rand.Rand, ds *dataset, vis calendar.Visibility) *calendar.PostQuery {
	q := &calendar.PostQuery{Kind: calendar.KindEvent, Now: randomNow(rng, ds), Visible: vis, ExcludeHidden: rng.IntN(3) != 0}
	// Event lists leave series records out by default.
	q.Series = calendar.StoredSeries(rng.IntN(3))
	day := func() time.Time { return pick(rng, ds.events).Start.Truncate(24 * time.Hour) }
	switch rng.IntN(4) {
	case 0: // default: ended by today excluded, starting within two years
		from := day()
		q.End = calendar.TimeRange{From: from}
		q.Start = calendar.TimeRange{To: from.AddDate(0, rng.IntN(25), rng.IntN(3))}
	case 1: // 1 to 7 days
		from := day()
		q.Start = calendar.TimeRange{From: from}
		q.End = calendar.TimeRange{To: from.AddDate(0, 0, 1+rng.IntN(7)).Add(-time.Nanosecond)}
	case 2:
		q.Start = randomRange(rng, ds, func(p *calendar.PostRecord) time.Time { return p.Start })
		q.End = randomRange(rng, ds, func(p *calendar.PostRecord) time.Time { return p.End })
	}
	switch rng.IntN(6) {
	case 0:
		q.CategoryIDs = []int64{pick(rng, termIDs(ds.categories))}
	case 1:
		q.TagIDs = []int64{pick(rng, termIDs(ds.tags))}
	case 2:
		q.VenueIDs = []int64{pick(rng, postIDs(ds.venues))}
	case 3:
		q.OrganizerIDs = []int64{pick(rng, postIDs(ds.organizers))}
	}
	randomPaging(rng, q)
	return q
}

// Exact totals for every caller kind, equal to brute force, on the query
// shapes drivers answer from index counts.
func testTotalsPerCaller(t *testing.T, r calendar.Repository) {
	rng := rand.New(rand.NewPCG(11, 12))
	ds := seedDataset(t, r, rng, 200)
	checkCountQueries(t, r, rng, ds, 100)
}

func checkCountQueries(t *testing.T, r calendar.Repository, rng *rand.Rand, ds *dataset, n int) {
	t.Helper()
	for name, vis := range callerVisibility(rng, ds) {
		failures, nonEmpty := 0, 0
		for i := 0; i < n && failures < 5; i++ {
			q := countQuery(rng, ds, vis)
			if !checkQuery(t, r, ds.events, q) {
				t.Logf("caller %s", name)
				failures++
			}
			if len(reference(ds.events, q)) > 0 {
				nonEmpty++
			}
		}
		if nonEmpty < n/4 {
			t.Errorf("caller %s: only %d of %d queries matched anything; the generator is too narrow", name, nonEmpty, n)
		}
	}
}

// Counts kept by indexes follow every kind of write: after updates that
// change status, author, dates, links and the hidden flag, and deletes,
// totals still equal brute force.
func testTotalsAfterWrites(t *testing.T, r calendar.Repository) {
	rng := rand.New(rand.NewPCG(13, 14))
	ds := seedDataset(t, r, rng, 120)
	rewriteEvents(t, r, rng, ds, 60)
	checkCountQueries(t, r, rng, ds, 60)
}

// rewriteEvents makes n random writes to ds's events: deletes, and updates
// of status, author, hidden flag, publication date, dates and every kind of
// link. It leaves ds.events as stored, re-read because a delete bumps the
// versions of children.
func rewriteEvents(t *testing.T, r calendar.Repository, rng *rand.Rand, ds *dataset, n int) {
	t.Helper()
	ctx := t.Context()
	for range n {
		j := rng.IntN(len(ds.events))
		p := ds.events[j]
		if rng.IntN(8) == 0 {
			if err := r.DeletePost(ctx, p.ID, 0); err != nil {
				t.Fatal(err)
			}
			ds.events = append(ds.events[:j], ds.events[j+1:]...)
			continue
		}
		cur, err := r.GetPost(ctx, p.ID) // a delete may have bumped it (parent unlinked)
		if err != nil {
			t.Fatal(err)
		}
		cur.Status = pick(rng, allStatuses)
		cur.Author = pick(rng, ds.authors)
		cur.HideFromListings = rng.IntN(4) == 0
		cur.Date = randomInstant(rng, ds.base, 730*24*time.Hour)
		if rng.IntN(2) == 0 {
			cur.Start = randomInstant(rng, ds.base, 730*24*time.Hour)
			cur.End = cur.Start.Add(time.Duration(rng.IntN(72*60)) * time.Minute)
		}
		cur.CategoryIDs = someIDs(rng, termIDs(ds.categories), 2)
		cur.TagIDs = someIDs(rng, termIDs(ds.tags), 2)
		cur.VenueIDs = someIDs(rng, postIDs(ds.venues), 2)
		cur.OrganizerIDs = someIDs(rng, postIDs(ds.organizers), 2)
		if ds.events[j], err = r.UpdatePost(ctx, cur); err != nil {
			t.Fatal(err)
		}
	}
	fresh, err := r.GetPosts(ctx, postIDs(ds.events))
	if err != nil {
		t.Fatal(err)
	}
	ds.events = fresh
}
