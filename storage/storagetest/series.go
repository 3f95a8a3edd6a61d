package storagetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Recurring events at the storage level: a series record (a post with a
// Recurrence) and its occurrences (PostParent = the series, a RecurrenceID,
// maybe Detached) are ordinary posts written together by Apply. The calendar
// computes them; these cases prove that every driver stores, lists and
// changes them atomically and answers PostQuery.Series exactly.
var seriesTests = []conformanceTest{
	{"Series/CreateInOneWrite", testSeriesCreate},
	{"Series/Restrictions", testSeriesRestrictions},
	{"Series/RandomQueries", testSeriesRandomQueries},
	{"Series/RecomputeKeepsIDs", testSeriesRecompute},
	{"Series/Split", testSeriesSplit},
	{"Series/Exdate", testSeriesExdate},
	{"Series/StaleOccurrenceVersion", testSeriesStaleOccurrence},
	{"Series/ForceDeleteAll", testSeriesForceDelete},
	{"Series/InjectedFailure", testSeriesInjectedFailure},
}

// SeriesWrite returns one Write creating a weekly series slug starting at
// start and n occurrences of it (placeholders link them to the series,
// which is step 0). Drivers' own crash and concurrency tests use it too.
func SeriesWrite(slug string, start time.Time, n int) *calendar.Write {
	s := newEvent(slug, start)
	s.Recurrence = []string{fmt.Sprintf("RRULE:FREQ=WEEKLY;COUNT=%d", n)}
	steps := []calendar.Step{{Op: calendar.OpCreatePost, Post: s}}
	for i := range n {
		steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: occurrence(s, calendar.StepRef(0), start.AddDate(0, 0, 7*i))})
	}
	return &calendar.Write{Steps: steps}
}

// occurrence returns the occurrence of series s (stored as parent) at at.
func occurrence(s *calendar.PostRecord, parent int64, at time.Time) *calendar.PostRecord {
	o := s.Clone()
	o.ID, o.Version, o.Recurrence = 0, 0, nil
	o.Slug = s.Slug + "-" + at.Format("2006-01-02")
	o.PostParent = parent
	o.RecurrenceID = at
	o.Start, o.End = at, at.Add(s.End.Sub(s.Start))
	return o
}

// storedSeries is what mustSeries wrote: the series and its occurrences.
type storedSeries struct {
	series *calendar.PostRecord
	occ    []*calendar.PostRecord
}

func mustSeries(t *testing.T, r calendar.Repository, slug string, start time.Time, n int) storedSeries {
	t.Helper()
	res := mustApply(t, r, SeriesWrite(slug, start, n))
	s := storedSeries{series: res.Steps[0].Post}
	for _, st := range res.Steps[1:] {
		s.occ = append(s.occ, st.Post)
	}
	return s
}

func children(t *testing.T, r calendar.Repository, parent int64) []*calendar.PostRecord {
	t.Helper()
	return mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, PostParent: parent}).Records
}

// The series and its occurrences are stored in one write, the placeholders
// resolved to the series' id; the parent list gives the occurrences in
// start order, each with its recurrence id.
func testSeriesCreate(t *testing.T, r calendar.Repository) {
	s := mustSeries(t, r, "weekly", t0, 12)
	got := mustGetPost(t, r, s.series.ID)
	if !slices.Equal(got.Recurrence, []string{"RRULE:FREQ=WEEKLY;COUNT=12"}) || got.PostParent != 0 {
		t.Errorf("series stored with recurrence %q parent %d", got.Recurrence, got.PostParent)
	}
	kids := children(t, r, s.series.ID)
	if len(kids) != 12 {
		t.Fatalf("%d occurrences listed by parent, want 12", len(kids))
	}
	for i, o := range kids {
		at := t0.AddDate(0, 0, 7*i)
		if o.ID != s.occ[i].ID || o.PostParent != s.series.ID || !o.RecurrenceID.Equal(at) || !o.Start.Equal(at) || o.Detached {
			t.Errorf("occurrence %d: id %d parent %d recurrence id %v start %v detached %v", i, o.ID, o.PostParent, o.RecurrenceID, o.Start, o.Detached)
		}
		if want := "weekly-" + at.Format("2006-01-02"); o.Slug != want {
			t.Errorf("occurrence %d: slug %q, want %q", i, o.Slug, want)
		}
		if d := diffPost(s.occ[i], o); d != "" {
			t.Errorf("occurrence %d as listed differs from the write's result:\n%s", i, d)
		}
		if d := diffPost(o, mustGetPost(t, r, o.ID)); d != "" {
			t.Errorf("occurrence %d by id differs from the list:\n%s", i, d)
		}
	}
}

// Each Series restriction leaves out exactly its records, with exact totals
// on every page, whatever else the query restricts.
func testSeriesRestrictions(t *testing.T, r calendar.Repository) {
	single := mustCreatePost(t, r, newEvent("single", t0.Add(30*time.Minute)))
	s := mustSeries(t, r, "club", t0, 6)
	// Detach one occurrence, as an edit of it alone does.
	det := s.occ[2].Clone()
	det.Detached, det.Title = true, calendar.Text{"en": "Special club night"}
	s.occ[2] = mustUpdatePost(t, r, det)
	// A child that is no occurrence (post_parent set by hand, no recurrence id).
	child := newEvent("child", t0.Add(time.Hour))
	child.PostParent = single.ID
	child = mustCreatePost(t, r, child)

	all := append([]*calendar.PostRecord{single, s.series, child}, s.occ...)
	ids := func(ps ...*calendar.PostRecord) []int64 {
		out := postIDs(ps)
		slices.Sort(out)
		return out
	}
	want := map[calendar.StoredSeries][]int64{
		calendar.SeriesAny:           ids(all...),
		calendar.SeriesHideTemplates: ids(append([]*calendar.PostRecord{single, child}, s.occ...)...),
		calendar.SeriesHideInstances: ids(single, s.series, child, s.occ[2]),
	}
	for mode, wantIDs := range want {
		for _, q := range []calendar.PostQuery{
			{},
			{Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}},
			{Start: calendar.TimeRange{From: t0.Add(-time.Hour), To: t0.AddDate(1, 0, 0)}, End: calendar.TimeRange{From: t0}},
			{Featured: ptr(true), ExcludeHidden: true},
		} {
			q.Kind, q.Series, q.Now = calendar.KindEvent, mode, t0
			page := mustList(t, r, &q)
			got := postIDs(page.Records)
			slices.Sort(got)
			if page.Total != len(wantIDs) || !slices.Equal(got, wantIDs) {
				t.Errorf("series %d, query %s: total %d ids %v, want %v", mode, describe(&q), page.Total, got, wantIDs)
			}
			for limit := 1; limit <= 4; limit++ {
				checkQuery(t, r, all, &calendar.PostQuery{Kind: calendar.KindEvent, Series: mode, Offset: 1, Limit: limit,
					Start: q.Start, End: q.End, Visible: q.Visible, Featured: q.Featured, ExcludeHidden: q.ExcludeHidden, Now: t0})
			}
		}
		// Occurrences by parent: the detached one stays a child.
		q := calendar.PostQuery{Kind: calendar.KindEvent, PostParent: s.series.ID, Series: mode}
		wantKids := ids(s.occ...)
		if mode == calendar.SeriesHideInstances {
			wantKids = ids(s.occ[2])
		}
		if got := ids(mustList(t, r, &q).Records...); !slices.Equal(got, wantKids) {
			t.Errorf("series %d: children %v, want %v", mode, got, wantKids)
		}
	}
}

// Random queries over a calendar with several series (some occurrences
// detached) answer like the reference, every Series mode included.
func testSeriesRandomQueries(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	var all []*calendar.PostRecord
	for i := range 5 {
		s := mustSeries(t, r, fmt.Sprint("s", i), t0.Add(time.Duration(i*29)*time.Hour), 8+i*3)
		for j, o := range s.occ {
			if (i+j)%5 == 0 {
				up := o.Clone()
				up.Detached, up.Featured = true, false
				s.occ[j] = mustUpdatePost(t, r, up)
			}
		}
		all = append(append(all, s.series), s.occ...)
	}
	for i := range 20 {
		all = append(all, mustCreatePost(t, r, newEvent(fmt.Sprint("one", i), t0.Add(time.Duration(i*31)*time.Hour))))
	}
	// Read back: the detaching updates above changed versions.
	for i, p := range all {
		got, err := r.GetPost(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		all[i] = got
	}
	starts := func() time.Time { return all[len(all)/3].Start }
	queries := []calendar.PostQuery{}
	for mode := range calendar.StoredSeries(3) {
		for _, lim := range []int{0, 3, 10} {
			queries = append(queries,
				calendar.PostQuery{Series: mode, Limit: lim},
				calendar.PostQuery{Series: mode, Limit: lim, Offset: 2, Start: calendar.TimeRange{From: starts()}},
				calendar.PostQuery{Series: mode, Limit: lim, End: calendar.TimeRange{To: starts(), ToExclusive: true}},
				calendar.PostQuery{Series: mode, Limit: lim, Featured: ptr(false)},
				calendar.PostQuery{Series: mode, Limit: lim, PostParent: all[0].ID},
				calendar.PostQuery{Series: mode, Limit: lim, ExcludeIDs: []int64{all[0].ID, all[3].ID}},
				calendar.PostQuery{Series: mode, Limit: lim, CountOnly: true, Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}},
			)
		}
	}
	for _, q := range queries {
		q.Kind, q.Now = calendar.KindEvent, t0
		checkQuery(t, r, all, &q)
	}
}

// Recomputing a series is one write: kept occurrences are updated in place
// (same id and slug, new start), the ones the new rule drops are deleted,
// new ones are created.
func testSeriesRecompute(t *testing.T, r calendar.Repository) {
	s := mustSeries(t, r, "yoga", t0, 6)
	// The new rule: 8 weeks, every week but the 2nd and 3rd, an hour later.
	up := s.series.Clone()
	up.Recurrence = []string{"RRULE:FREQ=WEEKLY;COUNT=8", "EXDATE:" + t0.AddDate(0, 0, 7).Format("20060102T150405Z"),
		"EXDATE:" + t0.AddDate(0, 0, 14).Format("20060102T150405Z")}
	steps := []calendar.Step{{Op: calendar.OpUpdatePost, Post: up}}
	var keptIDs []int64
	for i, o := range s.occ {
		if i == 1 || i == 2 {
			steps = append(steps, calendar.Step{Op: calendar.OpDeletePost, ID: o.ID, Version: o.Version})
			continue
		}
		k := o.Clone()
		k.Start, k.End = k.Start.Add(time.Hour), k.End.Add(time.Hour)
		steps = append(steps, calendar.Step{Op: calendar.OpUpdatePost, Post: k})
		keptIDs = append(keptIDs, o.ID)
	}
	for i := 6; i < 8; i++ {
		steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: occurrence(up, s.series.ID, t0.AddDate(0, 0, 7*i))})
	}
	mustApply(t, r, &calendar.Write{Steps: steps})

	kids := children(t, r, s.series.ID)
	if len(kids) != 6 {
		t.Fatalf("%d occurrences after the recompute, want 6", len(kids))
	}
	for i, o := range kids[:4] {
		old := s.occ[[]int{0, 3, 4, 5}[i]]
		if o.ID != keptIDs[i] || o.Slug != old.Slug || !o.RecurrenceID.Equal(old.RecurrenceID) ||
			!o.Start.Equal(old.Start.Add(time.Hour)) || o.Version != old.Version+1 {
			t.Errorf("kept occurrence %d: id %d slug %q recurrence id %v start %v version %d; was id %d slug %q start %v version %d",
				i, o.ID, o.Slug, o.RecurrenceID, o.Start, o.Version, old.ID, old.Slug, old.Start, old.Version)
		}
	}
	for _, o := range kids[4:] {
		if slices.Contains(postIDs(s.occ), o.ID) {
			t.Errorf("new occurrence reuses id %d", o.ID)
		}
	}
	for _, o := range s.occ[1:3] {
		if _, err := r.GetPost(context.Background(), o.ID); !errors.Is(err, calendar.ErrNotFound) {
			t.Errorf("dropped occurrence %d: %v", o.ID, err)
		}
		if _, err := r.PostBySlug(context.Background(), calendar.KindEvent, o.Slug); !errors.Is(err, calendar.ErrNotFound) {
			t.Errorf("dropped occurrence's slug %q: %v", o.Slug, err)
		}
	}
	if got := mustGetPost(t, r, s.series.ID); len(got.Recurrence) != 3 || got.Version != 2 {
		t.Errorf("series after recompute: %q version %d", got.Recurrence, got.Version)
	}
	// The slugs freed by the deletes are free again.
	again := occurrence(up, s.series.ID, s.occ[1].RecurrenceID)
	if got := mustCreatePost(t, r, again); got.Slug != s.occ[1].Slug {
		t.Errorf("freed slug: got %q, want %q", got.Slug, s.occ[1].Slug)
	}
}

// A split ends the old series before occurrence k and moves the following
// occurrences, ids kept, under a new series created in the same write.
func testSeriesSplit(t *testing.T, r calendar.Repository) {
	s := mustSeries(t, r, "talks", t0, 10)
	const k = 6
	old := s.series.Clone()
	old.Recurrence = []string{"RRULE:FREQ=WEEKLY;UNTIL=" + s.occ[k-1].Start.Format("20060102T150405Z")}
	next := newEvent("talks-2", s.occ[k].Start)
	next.Title = calendar.Text{"en": "Talks, new season"}
	next.Recurrence = []string{fmt.Sprintf("RRULE:FREQ=WEEKLY;COUNT=%d", 10-k)}
	steps := []calendar.Step{{Op: calendar.OpCreatePost, Post: next}, {Op: calendar.OpUpdatePost, Post: old}}
	for _, o := range s.occ[k:] {
		m := o.Clone()
		m.PostParent = calendar.StepRef(0)
		m.Title = next.Title
		steps = append(steps, calendar.Step{Op: calendar.OpUpdatePost, Post: m})
	}
	res := mustApply(t, r, &calendar.Write{Steps: steps})
	newID := res.Steps[0].Post.ID
	if got := postIDs(children(t, r, s.series.ID)); !slices.Equal(got, postIDs(s.occ[:k])) {
		t.Errorf("old series keeps %v, want %v", got, postIDs(s.occ[:k]))
	}
	moved := children(t, r, newID)
	if !slices.Equal(postIDs(moved), postIDs(s.occ[k:])) {
		t.Fatalf("new series has %v, want %v", postIDs(moved), postIDs(s.occ[k:]))
	}
	for i, o := range moved {
		if o.PostParent != newID || o.Slug != s.occ[k+i].Slug || o.Title["en"] != "Talks, new season" {
			t.Errorf("moved occurrence %d: parent %d slug %q title %q", o.ID, o.PostParent, o.Slug, o.Title["en"])
		}
	}
	page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, Series: calendar.SeriesHideInstances})
	if got := postIDs(page.Records); page.Total != 2 || !slices.Equal(got, []int64{s.series.ID, newID}) {
		t.Errorf("series records after the split: %v (total %d)", got, page.Total)
	}
}

// Deleting one occurrence is one write: the series gains an EXDATE and the
// occurrence is trashed (or removed with force).
func testSeriesExdate(t *testing.T, r calendar.Repository) {
	s := mustSeries(t, r, "market", t0, 5)
	gone := s.occ[1]
	up := s.series.Clone()
	up.Recurrence = append(up.Recurrence, "EXDATE:"+gone.RecurrenceID.Format("20060102T150405Z"))
	tr := gone.Clone()
	tr.Status = calendar.StatusTrash
	mustApply(t, r, &calendar.Write{Steps: []calendar.Step{{Op: calendar.OpUpdatePost, Post: up}, {Op: calendar.OpUpdatePost, Post: tr}}})
	public := calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}
	page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, Visible: public, Now: t0, Series: calendar.SeriesHideTemplates})
	if slices.Contains(postIDs(page.Records), gone.ID) || page.Total != 4 {
		t.Errorf("public list after the exception: %v total %d", postIDs(page.Records), page.Total)
	}
	if got := mustGetPost(t, r, s.series.ID); len(got.Recurrence) != 2 {
		t.Errorf("series rule after the exception: %q", got.Recurrence)
	}
	if got := mustGetPost(t, r, gone.ID); got.Status != calendar.StatusTrash || got.PostParent != s.series.ID {
		t.Errorf("excepted occurrence: status %s parent %d", got.Status, got.PostParent)
	}
	// force: the record goes, the EXDATE stays.
	tr = mustGetPost(t, r, gone.ID)
	mustApply(t, r, &calendar.Write{Steps: []calendar.Step{{Op: calendar.OpDeletePost, ID: tr.ID, Version: tr.Version}}})
	if n := len(children(t, r, s.series.ID)); n != 4 {
		t.Errorf("%d occurrences after the forced delete, want 4", n)
	}
}

// A write that updates an occurrence at a version it no longer has (an
// If-Match on it) changes nothing, the series included.
func testSeriesStaleOccurrence(t *testing.T, r calendar.Repository) {
	s := mustSeries(t, r, "choir", t0, 4)
	o := s.occ[2].Clone()
	o.Title = calendar.Text{"en": "first"}
	mustUpdatePost(t, r, o)
	before := takeSnapshot(t, r)
	up := s.series.Clone()
	up.Title = calendar.Text{"en": "renamed"}
	stale := s.occ[2].Clone() // version 1; 2 is stored
	stale.Title = up.Title
	_, err := r.Apply(context.Background(), &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpUpdatePost, Post: up}, {Op: calendar.OpUpdatePost, Post: stale}}})
	if !errors.Is(err, calendar.ErrConflict) {
		t.Fatalf("stale occurrence: err = %v, want a conflict", err)
	}
	if d := before.diff(takeSnapshot(t, r)); d != "" {
		t.Errorf("a refused series write changed the store: %s", d)
	}
}

// Force-deleting a series is one write of every occurrence and the series:
// nothing is left, in lists, by id or by slug, and the slugs are free.
func testSeriesForceDelete(t *testing.T, r calendar.Repository) {
	keep := mustCreatePost(t, r, newEvent("keep", t0))
	s := mustSeries(t, r, "gone", t0, 7)
	var steps []calendar.Step
	for _, o := range s.occ {
		steps = append(steps, calendar.Step{Op: calendar.OpDeletePost, ID: o.ID, Version: o.Version})
	}
	steps = append(steps, calendar.Step{Op: calendar.OpDeletePost, ID: s.series.ID, Version: s.series.Version})
	mustApply(t, r, &calendar.Write{Steps: steps})
	for _, p := range append([]*calendar.PostRecord{s.series}, s.occ...) {
		if _, err := r.GetPost(context.Background(), p.ID); !errors.Is(err, calendar.ErrNotFound) {
			t.Errorf("post %d after the forced delete: %v", p.ID, err)
		}
	}
	for mode := range calendar.StoredSeries(3) {
		page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent, Series: mode})
		if page.Total != 1 || page.Records[0].ID != keep.ID {
			t.Errorf("series %d after the forced delete: %v", mode, postIDs(page.Records))
		}
	}
	again := mustSeries(t, r, "gone", t0, 2)
	if again.series.Slug != "gone" || again.occ[0].Slug != s.occ[0].Slug {
		t.Errorf("slugs after the forced delete: %q, %q", again.series.Slug, again.occ[0].Slug)
	}
}

// A failure inside the driver in the middle of a series write leaves no part
// of it: neither of a new series nor of a recompute.
func testSeriesInjectedFailure(t *testing.T, r calendar.Repository) {
	f, ok := r.(Faulty)
	if !ok {
		t.Skip("the driver's test wrapper offers no failure injection (its atomicity is proven by its own tests)")
	}
	s := mustSeries(t, r, "base", t0, 4)
	before := takeSnapshot(t, r)
	boom := errors.New("injected failure")
	for _, n := range []int{1, 5, 20} {
		f.FailApplyAfter(n, boom)
		if _, err := r.Apply(context.Background(), SeriesWrite("new", t0, 30)); !errors.Is(err, boom) {
			t.Fatalf("create, failure after %d steps: err = %v", n, err)
		}
		if d := before.diff(takeSnapshot(t, r)); d != "" {
			t.Fatalf("create, failure after %d steps changed the store: %s", n, d)
		}
	}
	for _, n := range []int{1, 3} {
		f.FailApplyAfter(n, boom)
		up := s.series.Clone()
		up.Recurrence = []string{"RRULE:FREQ=WEEKLY;COUNT=3"}
		k := s.occ[0].Clone()
		k.Start = k.Start.Add(time.Hour)
		_, err := r.Apply(context.Background(), &calendar.Write{Steps: []calendar.Step{
			{Op: calendar.OpUpdatePost, Post: up},
			{Op: calendar.OpUpdatePost, Post: k},
			{Op: calendar.OpDeletePost, ID: s.occ[3].ID, Version: s.occ[3].Version},
			{Op: calendar.OpCreatePost, Post: occurrence(up, s.series.ID, t0.AddDate(0, 1, 0))},
		}})
		if !errors.Is(err, boom) {
			t.Fatalf("recompute, failure after %d steps: err = %v", n, err)
		}
		if d := before.diff(takeSnapshot(t, r)); d != "" {
			t.Fatalf("recompute, failure after %d steps changed the store: %s", n, d)
		}
	}
}
