package storagetest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// linkListTests prove exact totals on lists of several records of one link
// kind — a category with its descendants, as the calendar asks for a parent
// category, or several tags, venues or organizers — where an event linked to
// two of them must be counted once. Drivers that count such lists on one
// index per record must correct for those events.
var linkListTests = []conformanceTest{
	{"Counts/TotalsOfLinkLists", testTotalsOfLinkLists},
}

// withDescendants returns id and every category below it, as
// calendar.Service does for a category filter.
func withDescendants(cats []*calendar.TermRecord, id int64) []int64 {
	out := []int64{id}
	for i := 0; i < len(out); i++ {
		for _, c := range cats {
			if c.Parent == out[i] && !slices.Contains(out, c.ID) {
				out = append(out, c.ID)
			}
		}
	}
	return out
}

func testTotalsOfLinkLists(t *testing.T, r calendar.Repository) {
	rng := rand.New(rand.NewPCG(15, 16))
	ds := seedDataset(t, r, rng, 200)
	parents := 0
	for _, c := range ds.categories {
		if len(withDescendants(ds.categories, c.ID)) > 1 {
			parents++
		}
	}
	if parents == 0 {
		t.Fatal("the dataset has no category with children; the test proves nothing")
	}
	for name, vis := range callerVisibility(rng, ds) {
		failures, nonEmpty := 0, 0
		const n = 80
		for i := 0; i < n && failures < 5; i++ {
			q := countQuery(rng, ds, vis)
			q.CategoryIDs, q.TagIDs, q.VenueIDs, q.OrganizerIDs = nil, nil, nil, nil
			switch rng.IntN(4) {
			case 0, 1:
				q.CategoryIDs = withDescendants(ds.categories, pick(rng, ds.categories).ID)
			case 2:
				q.TagIDs = someIDs(rng, termIDs(ds.tags), 3)
			default:
				q.VenueIDs = someIDs(rng, postIDs(ds.venues), 3)
			}
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
