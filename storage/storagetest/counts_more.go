package storagetest

import (
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

func init() {
	countTests = append(countTests, conformanceTest{"Counts/EdgeWindows", testTotalsAtEdges})
}

// Totals stay exact where counts kept by time buckets are easiest to get
// wrong: windows whose Start and End bounds are one instant (each bound
// inclusive or exclusive), events starting or ending exactly there or
// lasting no time, events ending before they start or never, one event
// longer than the window, and scheduled events that the query's Now has
// published or not, in one category, seen by every kind of caller.
func testTotalsAtEdges(t *testing.T, r calendar.Repository) {
	a := time.Date(2031, 5, 14, 13, 7, 0, 0, time.UTC)
	cat := mustCreateTerm(t, r, newCategory("edges", 0))
	span := func(slug string, from, to time.Time) *calendar.PostRecord {
		e := newEvent(slug, from)
		e.End = to
		return e
	}
	h := time.Hour
	events := []*calendar.PostRecord{
		span("before", a.Add(-2*h), a.Add(-h)),
		span("instant", a, a),
		span("across", a.Add(-h), a.Add(h)),
		span("from-a", a, a.Add(h)),
		span("to-a", a.Add(-h), a),
		span("after", a.Add(h), a.Add(2*h)),
		span("odd", a.Add(h), a.Add(-h)),
		span("no-end", a.Add(-h), time.Time{}),
		span("month", a.Add(-30*24*h), a.Add(30*24*h)),
		span("scheduled", a.Add(-h), a.Add(h)),
		span("draft", a, a.Add(h)),
		span("hidden", a.Add(-h), a.Add(h)),
	}
	const author, other = 41, 42
	var all []*calendar.PostRecord
	for i, e := range events {
		e.Author = []int64{author, other}[i%2]
		switch e.Slug {
		case "scheduled":
			e.Status, e.Date = calendar.StatusFuture, a
		case "draft":
			e.Status = calendar.StatusDraft
		case "hidden":
			e.HideFromListings = true
		}
		if i%3 != 0 {
			e.CategoryIDs = []int64{cat.ID}
		}
		all = append(all, mustCreatePost(t, r, e))
	}
	callers := map[string]calendar.Visibility{
		"system":    {},
		"anonymous": {Statuses: []calendar.Status{calendar.StatusPublish}},
		"author": {Statuses: []calendar.Status{calendar.StatusPublish}, Owner: author,
			OwnStatuses: []calendar.Status{calendar.StatusFuture, calendar.StatusDraft, calendar.StatusPending, calendar.StatusPrivate}},
		"editor": {Statuses: []calendar.Status{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusDraft, calendar.StatusPending, calendar.StatusPrivate}},
	}
	var windows []func(q *calendar.PostQuery)
	for _, x := range []bool{false, true} {
		for _, y := range []bool{false, true} {
			windows = append(windows,
				func(q *calendar.PostQuery) { // the default window's shape
					q.Start = calendar.TimeRange{To: a, ToExclusive: x}
					q.End = calendar.TimeRange{From: a, FromExclusive: y}
				},
				func(q *calendar.PostQuery) { // a week's shape
					q.Start = calendar.TimeRange{From: a, FromExclusive: x}
					q.End = calendar.TimeRange{To: a, ToExclusive: y}
				},
				func(q *calendar.PostQuery) {
					q.Start = calendar.TimeRange{From: a.Add(-h), To: a, FromExclusive: x, ToExclusive: y}
				},
				func(q *calendar.PostQuery) {
					q.End = calendar.TimeRange{From: a, To: a.Add(h), FromExclusive: x, ToExclusive: y}
				})
		}
	}
	for name, vis := range callers {
		for wi, w := range windows {
			for _, now := range []time.Time{a.Add(-h), a.Add(h)} {
				for _, inCat := range []bool{false, true} {
					for _, hide := range []bool{false, true} {
						q := &calendar.PostQuery{Kind: calendar.KindEvent, Now: now, Visible: vis, ExcludeHidden: hide, Limit: 3}
						if inCat {
							q.CategoryIDs = []int64{cat.ID}
						}
						w(q)
						if !checkQuery(t, r, all, q) {
							t.Logf("caller %s, window %d, now %v, category %v, hidden left out %v", name, wi, now, inCat, hide)
						}
						q.CountOnly, q.Limit = true, 0
						if !checkQuery(t, r, all, q) {
							t.Logf("count only: caller %s, window %d, now %v, category %v, hidden left out %v", name, wi, now, inCat, hide)
						}
					}
				}
			}
		}
	}
}
