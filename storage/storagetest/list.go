package storagetest

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

var listTests = []conformanceTest{
	{"Lists/RandomEventQueries", testRandomEventQueries},
	{"Lists/RandomVenueAndOrganizerQueries", testRandomOtherQueries},
	{"Lists/Paging", testPaging},
	{"Lists/TimeRangeBounds", testTimeRangeBounds},
	{"Lists/VenueAndOrganizerOrder", testVenueOrder},
	{"Lists/EndWindowsWithUnusualEnds", testUnusualEnds},
}

// checkQuery compares ListPosts with the brute-force reference over all:
// exact total, same records in the same order, the page q selects.
func checkQuery(t *testing.T, r calendar.Repository, all []*calendar.PostRecord, q *calendar.PostQuery) bool {
	t.Helper()
	page := mustList(t, r, q)
	ref := reference(all, q)
	want := storage.Window(ref, q)
	ok := true
	if page.Total != len(ref) {
		t.Errorf("query %s: total %d, want %d", describe(q), page.Total, len(ref))
		ok = false
	}
	if !slices.Equal(postIDs(page.Records), postIDs(want)) {
		t.Errorf("query %s:\n got ids %v\nwant ids %v", describe(q), postIDs(page.Records), postIDs(want))
		return false
	}
	for i := range want {
		if d := diffPost(want[i], page.Records[i]); d != "" {
			t.Errorf("query %s: record %d differs (-want +got):\n%s", describe(q), want[i].ID, d)
			ok = false
		}
	}
	return ok
}

// describe prints the set fields of q, for failure messages.
func describe(q *calendar.PostQuery) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{Kind:%s Now:%s", q.Kind, q.Now.Format(time.RFC3339))
	field := func(name string, set bool, v any) {
		if set {
			fmt.Fprintf(&b, " %s:%v", name, v)
		}
	}
	field("Visible", !q.Visible.IsZero(), q.Visible)
	field("IDs", len(q.IDs) > 0, q.IDs)
	field("ExcludeIDs", len(q.ExcludeIDs) > 0, q.ExcludeIDs)
	field("Start", !q.Start.IsZero(), fmtRange(q.Start))
	field("End", !q.End.IsZero(), fmtRange(q.End))
	field("VenueIDs", len(q.VenueIDs) > 0, q.VenueIDs)
	field("NotVenueIDs", len(q.NotVenueIDs) > 0, q.NotVenueIDs)
	field("OrganizerIDs", len(q.OrganizerIDs) > 0, q.OrganizerIDs)
	field("CategoryIDs", len(q.CategoryIDs) > 0, q.CategoryIDs)
	field("TagIDs", len(q.TagIDs) > 0, q.TagIDs)
	if q.Featured != nil {
		field("Featured", true, *q.Featured)
	}
	field("PostParent", q.PostParent != 0, q.PostParent)
	field("ExcludeHidden", q.ExcludeHidden, true)
	field("Series", q.Series != calendar.SeriesAny, q.Series)
	field("Search", len(q.Search) > 0, q.Search)
	field("Lang", q.Lang != "", q.Lang)
	field("Name", q.Name != "", fmt.Sprintf("%q", q.Name))
	field("Offset", q.Offset != 0, q.Offset)
	field("Limit", q.Limit != 0, q.Limit)
	field("CountOnly", q.CountOnly, true)
	b.WriteString("}")
	return b.String()
}

func fmtRange(r calendar.TimeRange) string {
	lb, rb := "[", "]"
	if r.FromExclusive {
		lb = "("
	}
	if r.ToExclusive {
		rb = ")"
	}
	f := func(t time.Time) string {
		if t.IsZero() {
			return "∞"
		}
		return t.Format(time.RFC3339)
	}
	return lb + f(r.From) + "," + f(r.To) + rb
}

func randomStatuses(rng *rand.Rand) []calendar.Status {
	var out []calendar.Status
	for _, s := range calendar.Statuses {
		if rng.IntN(3) == 0 {
			out = append(out, s)
		}
	}
	return out
}

// randomVisibility: none, publish only (the public view), or a mix with an owner.
func randomVisibility(rng *rand.Rand, ds *dataset) calendar.Visibility {
	switch rng.IntN(10) {
	case 0, 1, 2:
		return calendar.Visibility{}
	case 3, 4, 5, 6:
		return calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}
	}
	return calendar.Visibility{Statuses: randomStatuses(rng), Owner: pick(rng, ds.authors), OwnStatuses: randomStatuses(rng)}
}

// randomNow: the query instant decides whether a future post reads as published.
func randomNow(rng *rand.Rand, ds *dataset) time.Time {
	switch rng.IntN(3) {
	case 0:
		return ds.now
	case 1:
		return ds.base
	}
	return randomInstant(rng, ds.base, 730*24*time.Hour)
}

// randomRange returns a window over the instants of at(): bounds are often
// an existing instant exactly, to exercise inclusive and exclusive ends.
func randomRange(rng *rand.Rand, ds *dataset, at func(*calendar.PostRecord) time.Time) calendar.TimeRange {
	bound := func() time.Time {
		switch rng.IntN(4) {
		case 0:
			return time.Time{}
		case 1, 2:
			return at(pick(rng, ds.events))
		}
		return randomInstant(rng, ds.base.Add(-10*24*time.Hour), 750*24*time.Hour)
	}
	if rng.IntN(3) == 0 { // a narrow window: one day
		from := at(pick(rng, ds.events)).Truncate(24 * time.Hour)
		return calendar.TimeRange{From: from, To: from.Add(24 * time.Hour), ToExclusive: true}
	}
	r := calendar.TimeRange{From: bound(), To: bound(), FromExclusive: rng.IntN(2) == 0, ToExclusive: rng.IntN(2) == 0}
	if !r.From.IsZero() && !r.To.IsZero() && r.From.After(r.To) && rng.IntN(4) != 0 {
		r.From, r.To = r.To, r.From // mostly non-empty; sometimes empty on purpose
	}
	return r
}

// randomSearch returns one or two lower-case words or word parts.
func randomSearch(rng *rand.Rand) []string {
	n := 1 + rng.IntN(2)
	out := make([]string, n)
	for i := range out {
		w := []rune(pick(rng, vocabulary[pick(rng, dataLangs)]))
		if rng.IntN(2) == 0 && len(w) > 4 {
			w = w[:3+rng.IntN(len(w)-3)]
		}
		out[i] = string(w)
	}
	return out
}

// randomName returns the title of a record in one of its languages, with
// its case and surrounding spaces changed.
func randomName(rng *rand.Rand, from []*calendar.PostRecord) string {
	p := pick(rng, from)
	langs := slices.Sorted(maps.Keys(p.Title)) // sorted: map order would defeat the seed
	if len(langs) == 0 {
		return "nothing"
	}
	s := p.Title[pick(rng, langs)]
	switch rng.IntN(3) {
	case 0:
		return strings.ToUpper(s)
	case 1:
		return " " + strings.ToLower(s) + " "
	}
	return s
}

func randomPaging(rng *rand.Rand, q *calendar.PostQuery) {
	if rng.IntN(2) == 0 {
		q.Offset = rng.IntN(30)
	}
	if rng.IntN(5) != 0 {
		q.Limit = 1 + rng.IntN(20)
	}
	q.CountOnly = rng.IntN(10) == 0
}

// randomEventQuery sets each restriction of PostQuery with some probability.
func randomEventQuery(rng *rand.Rand, ds *dataset) *calendar.PostQuery {
	q := &calendar.PostQuery{Kind: calendar.KindEvent, Now: randomNow(rng, ds), Visible: randomVisibility(rng, ds)}
	eventIDs := postIDs(ds.events)
	if rng.IntN(10) == 0 {
		pool := append(slices.Clone(eventIDs[:40]), ds.venues[0].ID, 1<<40)
		q.IDs = someIDs(rng, pool, 25)
	}
	if rng.IntN(10) == 0 {
		q.ExcludeIDs = someIDs(rng, eventIDs, 60)
	}
	if rng.IntN(5) < 2 {
		q.Start = randomRange(rng, ds, func(p *calendar.PostRecord) time.Time { return p.Start })
	}
	if rng.IntN(4) == 0 {
		q.End = randomRange(rng, ds, func(p *calendar.PostRecord) time.Time { return p.End })
	}
	if rng.IntN(6) == 0 {
		q.VenueIDs = someIDs(rng, postIDs(ds.venues), 3)
	}
	if rng.IntN(10) == 0 {
		q.NotVenueIDs = someIDs(rng, postIDs(ds.venues), 3)
	}
	if rng.IntN(6) == 0 {
		q.OrganizerIDs = someIDs(rng, postIDs(ds.organizers), 3)
	}
	if rng.IntN(5) == 0 {
		q.CategoryIDs = someIDs(rng, termIDs(ds.categories), 3)
	}
	if rng.IntN(6) == 0 {
		q.TagIDs = someIDs(rng, termIDs(ds.tags), 3)
	}
	if rng.IntN(6) == 0 {
		q.Featured = ptr(rng.IntN(2) == 0)
	}
	if rng.IntN(10) == 0 {
		q.PostParent = pick(rng, eventIDs[:25])
	}
	q.ExcludeHidden = rng.IntN(2) == 0
	if rng.IntN(3) != 0 {
		q.Series = calendar.StoredSeries(1 + rng.IntN(2))
	}
	if rng.IntN(6) == 0 {
		q.Search = randomSearch(rng)
		q.Lang = pick(rng, append([]calendar.Lang{""}, dataLangs...))
	}
	if rng.IntN(20) == 0 {
		q.Name = randomName(rng, ds.events)
	}
	randomPaging(rng, q)
	return q
}

// randomOtherQuery builds a venue or organizer query from the fields that
// apply to them.
func randomOtherQuery(rng *rand.Rand, ds *dataset, kind calendar.Kind) *calendar.PostQuery {
	all := ds.posts(kind)
	q := &calendar.PostQuery{Kind: kind, Now: randomNow(rng, ds), Visible: randomVisibility(rng, ds)}
	if rng.IntN(5) == 0 {
		q.IDs = someIDs(rng, append(postIDs(all), ds.events[0].ID), 8)
	}
	if rng.IntN(5) == 0 {
		q.ExcludeIDs = someIDs(rng, postIDs(all), 5)
	}
	if rng.IntN(4) == 0 {
		q.Search = randomSearch(rng)
		q.Lang = pick(rng, append([]calendar.Lang{""}, dataLangs...))
	}
	if rng.IntN(8) == 0 {
		q.Name = randomName(rng, all)
	}
	randomPaging(rng, q)
	return q
}

func testRandomEventQueries(t *testing.T, r calendar.Repository) {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := seedDataset(t, r, rng, 300)
	failures, nonEmpty := 0, 0
	for i := 0; i < 600 && failures < 10; i++ {
		q := randomEventQuery(rng, ds)
		if !checkQuery(t, r, ds.events, q) {
			failures++
		}
		if len(reference(ds.events, q)) > 0 {
			nonEmpty++
		}
	}
	// Guard the generator: queries that all match nothing prove nothing.
	if nonEmpty < 200 {
		t.Errorf("only %d of 600 random queries matched anything; the generator is too narrow", nonEmpty)
	}
}

func testRandomOtherQueries(t *testing.T, r calendar.Repository) {
	rng := rand.New(rand.NewPCG(3, 4))
	ds := seedDataset(t, r, rng, 30)
	for _, kind := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
		failures := 0
		for i := 0; i < 150 && failures < 5; i++ {
			if !checkQuery(t, r, ds.posts(kind), randomOtherQuery(rng, ds, kind)) {
				failures++
			}
		}
	}
}

// testPaging: walking a list page by page returns every match exactly once,
// in order, with the same total on every page.
func testPaging(t *testing.T, r calendar.Repository) {
	rng := rand.New(rand.NewPCG(5, 6))
	ds := seedDataset(t, r, rng, 200)
	for i := 0; i < 30; i++ {
		kind := calendar.KindEvent
		var q *calendar.PostQuery
		switch i % 5 {
		case 3:
			kind = calendar.KindVenue
			q = randomOtherQuery(rng, ds, kind)
		case 4:
			kind = calendar.KindOrganizer
			q = randomOtherQuery(rng, ds, kind)
		default:
			q = randomEventQuery(rng, ds)
		}
		q.Offset, q.CountOnly = 0, false
		q.Limit = pick(rng, []int{1, 4, 9, 25})
		want := postIDs(reference(ds.posts(kind), q))
		var got []int64
		for q.Offset = 0; q.Offset <= len(want)+q.Limit; q.Offset += q.Limit {
			page := mustList(t, r, q)
			if page.Total != len(want) {
				t.Fatalf("query %s: total %d, want %d", describe(q), page.Total, len(want))
			}
			if len(page.Records) > q.Limit {
				t.Fatalf("query %s: %d records on a page of %d", describe(q), len(page.Records), q.Limit)
			}
			got = append(got, postIDs(page.Records)...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("paging %s by %d:\n got %v\nwant %v", describe(q), q.Limit, got, want)
		}
	}
}

// testTimeRangeBounds: inclusive and exclusive bounds of Start and End
// windows, at instants where events start and end exactly.
func testTimeRangeBounds(t *testing.T, r calendar.Repository) {
	var all []*calendar.PostRecord
	for i := 0; i < 3; i++ {
		e := newEvent(fmt.Sprintf("e%d", i), t0.Add(time.Duration(i)*time.Hour))
		e.End = e.Start.Add(30 * time.Minute)
		all = append(all, mustCreatePost(t, r, e))
	}
	a, b, c := t0, t0.Add(time.Hour), t0.Add(2*time.Hour)
	ranges := []struct {
		r    calendar.TimeRange
		want int
	}{
		{calendar.TimeRange{From: a}, 3},
		{calendar.TimeRange{From: a, FromExclusive: true}, 2},
		{calendar.TimeRange{To: c}, 3},
		{calendar.TimeRange{To: c, ToExclusive: true}, 2},
		{calendar.TimeRange{From: b, To: b}, 1},
		{calendar.TimeRange{From: b, To: b, ToExclusive: true}, 0},
		{calendar.TimeRange{From: b, To: b, FromExclusive: true}, 0},
		{calendar.TimeRange{From: a, To: c, FromExclusive: true, ToExclusive: true}, 1},
		{calendar.TimeRange{From: c, To: a}, 0},
	}
	for _, tc := range ranges {
		q := &calendar.PostQuery{Kind: calendar.KindEvent, Start: tc.r}
		if page := mustList(t, r, q); page.Total != tc.want {
			t.Errorf("Start %s: total %d, want %d", fmtRange(tc.r), page.Total, tc.want)
		}
		checkQuery(t, r, all, q)
		shifted := tc.r // the same window over End, 30 minutes later
		if !shifted.From.IsZero() {
			shifted.From = shifted.From.Add(30 * time.Minute)
		}
		if !shifted.To.IsZero() {
			shifted.To = shifted.To.Add(30 * time.Minute)
		}
		q = &calendar.PostQuery{Kind: calendar.KindEvent, End: shifted}
		if page := mustList(t, r, q); page.Total != tc.want {
			t.Errorf("End %s: total %d, want %d", fmtRange(shifted), page.Total, tc.want)
		}
	}
}

// testVenueOrder: venues and organizers list by Date descending, then id descending.
func testVenueOrder(t *testing.T, r calendar.Repository) {
	for _, mk := range []func(string) *calendar.PostRecord{newVenue, newOrganizer} {
		var made []*calendar.PostRecord
		for i, d := range []time.Duration{0, 5, 5, -3, 5, 0} {
			p := mk(fmt.Sprintf("p%d", i))
			p.Date = t0.Add(d * time.Hour)
			made = append(made, mustCreatePost(t, r, p))
		}
		// Dates +5h: ids 1, 2, 4; 0h: 0, 5; -3h: 3 (indexes into made).
		var want []int64
		for _, i := range []int{4, 2, 1, 5, 0, 3} {
			want = append(want, made[i].ID)
		}
		kind := made[0].Kind
		page := mustList(t, r, &calendar.PostQuery{Kind: kind})
		if !slices.Equal(postIDs(page.Records), want) || page.Total != len(want) {
			t.Errorf("%s order: ids %v total %d, want %v", kind, postIDs(page.Records), page.Total, want)
		}
	}
}

// testUnusualEnds: End windows must follow MatchPost whatever an event's
// End is: missing, before its Start, or long after it, also after an update
// that changes only the End. A driver that narrows its Start scan with End
// bounds must account for such events.
func testUnusualEnds(t *testing.T, r calendar.Repository) {
	day := 24 * time.Hour
	short := mustCreatePost(t, r, newEvent("short", t0))
	later := mustCreatePost(t, r, newEvent("later", t0.Add(10*day)))
	long := mustCreatePost(t, r, newEvent("long", t0.Add(-30*day)))
	current := map[int64]*calendar.PostRecord{short.ID: short, later.ID: later, long.ID: long}
	all := func() []*calendar.PostRecord {
		return []*calendar.PostRecord{current[short.ID], current[later.ID], current[long.ID]}
	}
	setEnd := func(p *calendar.PostRecord, end time.Time) {
		up := current[p.ID].Clone()
		up.End = end
		current[p.ID] = mustUpdatePost(t, r, up)
	}
	queries := []calendar.TimeRange{
		{To: t0.Add(day)},
		{To: t0.Add(10 * day), ToExclusive: true},
		{From: t0.Add(20 * day)},
		{From: t0.Add(5 * day), To: t0.Add(60 * day)},
	}
	check := func(stage string) {
		t.Helper()
		for _, w := range queries {
			if !checkQuery(t, r, all(), &calendar.PostQuery{Kind: calendar.KindEvent, End: w}) {
				t.Errorf("(stage: %s)", stage)
			}
		}
	}
	check("ordinary ends")
	setEnd(later, time.Time{})
	check("an end removed")
	setEnd(later, later.Start.Add(-time.Hour))
	check("an end before the start")
	setEnd(long, t0.Add(30*day))
	check("a 60-day event")
	setEnd(long, t0.Add(50*day))
	check("an 80-day event")
}
