package calendar_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

func seriesIn(title, start, end string, lines ...string) calendar.EventInput {
	in := eventIn(title, start, end)
	in.TimeZone = s("Europe/Berlin")
	in.Status = calendar.Some(calendar.StatusPublish)
	in.Recurrence = calendar.Some(lines)
	return in
}

// children returns the occurrences of series id as stored, by start.
func (f *fixture) children(id int64) []*calendar.PostRecord {
	f.t.Helper()
	page, err := f.repo.ListPosts(context.Background(), &calendar.PostQuery{Kind: calendar.KindEvent, PostParent: id})
	if err != nil {
		f.t.Fatal(err)
	}
	return page.Records
}

func (f *fixture) postCount() int {
	f.t.Helper()
	page, err := f.repo.ListPosts(context.Background(), &calendar.PostQuery{Kind: calendar.KindEvent, CountOnly: true})
	if err != nil {
		f.t.Fatal(err)
	}
	return page.Total
}

func TestSeriesCreate(t *testing.T) {
	f := newFixture(t)
	ser := f.mustEvent(as(author), seriesIn("Choir", "2026-03-10 19:00", "2026-03-10 21:00",
		"RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=10"))
	if len(ser.Recurrence) != 1 || ser.Series != nil {
		t.Fatalf("series view: recurrence %q series %+v", ser.Recurrence, ser.Series)
	}
	occ := f.children(ser.ID)
	if len(occ) != 10 {
		t.Fatalf("%d occurrences, want 10", len(occ))
	}
	berlin, _ := calendar.ParseZone("Europe/Berlin")
	for i, o := range occ {
		wantStart := time.Date(2026, 3, 10+14*i, 19, 0, 0, 0, berlin)
		if !o.Start.Equal(wantStart) || !o.RecurrenceID.Equal(wantStart) || o.End.Sub(o.Start) != 2*time.Hour {
			t.Errorf("occurrence %d: start %v rid %v end %v, want %v (wall clock kept across DST)", i, o.Start, o.RecurrenceID, o.End, wantStart)
		}
		if o.Slug != "choir-"+wantStart.Format("2006-01-02") || o.Author != author.ID || o.Status != calendar.StatusPublish ||
			o.Title["en"] != "Choir" || len(o.Recurrence) != 0 || o.Detached {
			t.Errorf("occurrence %d does not inherit the series: %+v", i, o)
		}
	}
	// An occurrence reads like any event, with its series link.
	ev, err := f.cal.GetEvent(context.Background(), calendar.BySlug("choir-2026-03-24"), calendar.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Series == nil || ev.Series.ID != ser.ID || !ev.Series.RecurrenceID.Equal(time.Date(2026, 3, 24, 19, 0, 0, 0, berlin)) || ev.Series.Detached {
		t.Errorf("occurrence link: %+v", ev.Series)
	}
}

func TestSeriesHostileRulesStoreNothing(t *testing.T) {
	f := newFixture(t)
	var many []string
	for i := range 10 {
		many = append(many, "RDATE:"+strings.Repeat("20270101T100000Z,", 999)+"2027010"+string(rune('1'+i%9))+"T100000Z")
	}
	for _, lines := range [][]string{
		{"RRULE:FREQ=DAILY;COUNT=1000000"},
		{"RRULE:FREQ=DAILY;UNTIL=20200101T000000Z"},
		{"RRULE:FREQ=MONTHLY;BYDAY=9MO"},
		{"RRULE:FREQ=SECONDLY"},
		{"RRULE:FREQ=DAILY"}, // 727 within 24 months (to 2028-03-05): fine with the default
		many,
		{"RRULE FREQ=DAILY"},
		{"RRULE:FREQ=DAILY;;"},
	} {
		_, err := f.cal.CreateEvent(as(author), seriesIn("Bad", "2026-03-10 19:00", "2026-03-10 20:00", lines...), calendar.WriteOptions{})
		if lines[0] == "RRULE:FREQ=DAILY" {
			if err != nil {
				t.Fatalf("daily within the horizon: %v", err)
			}
			continue
		}
		wantParams(t, err, "recurrence")
	}
	if n := f.postCount(); n != 728 {
		t.Errorf("%d events stored, want only the daily series and its 727 occurrences", n)
	}

	// More than MaxOccurrences within the horizon: 400, nothing stored.
	g := newFixture(t, calendar.WithMaxOccurrences(50))
	_, err := g.cal.CreateEvent(as(author), seriesIn("Daily", "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=DAILY"), calendar.WriteOptions{})
	wantParams(t, err, "recurrence")
	if n := g.postCount(); n != 0 {
		t.Errorf("%d events stored after a refused series", n)
	}
}

func TestSeriesHorizonAndExtend(t *testing.T) {
	f := newFixture(t, calendar.WithSeriesHorizon(2))
	ser := f.mustEvent(as(author), seriesIn("Weekly", "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=WEEKLY"))
	first := len(f.children(ser.ID))
	if first != 9 { // 2026-03-10 … 2026-05-05, the horizon being 2026-05-06 15:00Z
		t.Fatalf("%d occurrences within a 2-month horizon, want 9", first)
	}
	if _, err := f.cal.ExtendSeries(as(admin)); err == nil {
		t.Error("ExtendSeries as a user: want an error (System only)")
	}
	if n, err := f.cal.ExtendSeries(system); err != nil || n != 0 {
		t.Fatalf("extend with nothing new: %d, %v", n, err)
	}
	f.clock.Set(testNow.AddDate(0, 1, 0))
	n, err := f.cal.ExtendSeries(system)
	if err != nil || n != 4 || len(f.children(ser.ID)) != first+4 {
		t.Fatalf("extend a month later: created %d (%v), now %d occurrences", n, err, len(f.children(ser.ID)))
	}
	if n, _ := f.cal.ExtendSeries(system); n != 0 {
		t.Errorf("second extend created %d: not idempotent", n)
	}
}

// Two extenders at once create each occurrence once.
func TestSeriesExtendConcurrent(t *testing.T) {
	f := newFixture(t, calendar.WithSeriesHorizon(1))
	var ids []int64
	for i := range 5 {
		ids = append(ids, f.mustEvent(as(author), seriesIn("S"+string(rune('a'+i)), "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=DAILY")).ID)
	}
	f.clock.Set(testNow.AddDate(0, 6, 0))
	want := len(f.children(ids[0])) + 183 // March 6 → September 6
	var wg sync.WaitGroup
	total := make([]int, 4)
	for w := range total {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := f.cal.ExtendSeries(system)
			if err != nil {
				t.Error(err)
			}
			total[w] = n
		}()
	}
	wg.Wait()
	sum := 0
	for _, n := range total {
		sum += n
	}
	for _, id := range ids {
		occ := f.children(id)
		seen := map[time.Time]bool{}
		for _, o := range occ {
			if seen[o.RecurrenceID] {
				t.Fatalf("series %d: recurrence id %v twice", id, o.RecurrenceID)
			}
			seen[o.RecurrenceID] = true
		}
		if len(occ) != want {
			t.Errorf("series %d: %d occurrences, want %d", id, len(occ), want)
		}
	}
	if sum != 5*183 {
		t.Errorf("extenders report %d created, want %d", sum, 5*183)
	}
}

func TestSeriesDelete(t *testing.T) {
	f := newFixture(t)
	ser := f.mustEvent(as(author), seriesIn("Yoga", "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=WEEKLY;COUNT=5"))
	occ := f.children(ser.ID)

	// One occurrence: trashed, and its recurrence id becomes an EXDATE.
	// If-Match applies to the occurrence addressed.
	_, err := f.cal.DeleteEvent(as(author), calendar.ByID(occ[1].ID), calendar.DeleteOptions{IfVersion: occ[1].Version + 1})
	wantErr(t, err, calendar.CodePreconditionFailed, "")
	ev, err := f.cal.DeleteEvent(as(author), calendar.ByID(occ[1].ID), calendar.DeleteOptions{IfVersion: occ[1].Version})
	if err != nil || ev.Status != calendar.StatusTrash {
		t.Fatalf("delete occurrence: %v %+v", err, ev)
	}
	got, _ := f.cal.GetEvent(system, calendar.ByID(ser.ID), calendar.ReadOptions{})
	if len(got.Recurrence) != 2 || got.Recurrence[1] != "EXDATE:20260317T180000Z" {
		t.Errorf("series lines after deleting one: %q", got.Recurrence)
	}
	// A contributor cannot delete an author's occurrence (the series' permissions).
	_, err = f.cal.DeleteEvent(as(contributor), calendar.ByID(occ[2].ID), calendar.DeleteOptions{})
	wantErr(t, err, calendar.CodeForbidden, "")
	// Force removes it (editor), and the EXDATE is there too.
	if _, err := f.cal.DeleteEvent(as(editor), calendar.BySlug(occ[2].Slug), calendar.DeleteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if n := len(f.children(ser.ID)); n != 4 {
		t.Errorf("%d occurrences after force-deleting one, want 4", n)
	}

	// The series: everything to the trash, then force removes everything.
	if _, err := f.cal.DeleteEvent(as(author), calendar.ByID(ser.ID), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, o := range f.children(ser.ID) {
		if o.Status != calendar.StatusTrash {
			t.Errorf("occurrence %d is %s after trashing the series", o.ID, o.Status)
		}
	}
	if _, err := f.cal.DeleteEvent(as(editor), calendar.ByID(ser.ID), calendar.DeleteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if n := f.postCount(); n != 0 {
		t.Errorf("%d events left after force-deleting the series", n)
	}
}

// Occurrences of a draft series are not visible to anonymous callers.
func TestSeriesDraftHidden(t *testing.T) {
	f := newFixture(t)
	in := seriesIn("Secret", "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=DAILY;COUNT=3")
	in.Status = calendar.Some(calendar.StatusDraft)
	ser := f.mustEvent(as(author), in)
	occ := f.children(ser.ID)
	if _, err := f.cal.GetEvent(context.Background(), calendar.ByID(occ[0].ID), calendar.ReadOptions{}); err == nil {
		t.Error("anonymous reads a draft occurrence by id")
	}
	if _, err := f.cal.GetEvent(context.Background(), calendar.BySlug(occ[0].Slug), calendar.ReadOptions{}); err == nil {
		t.Error("anonymous reads a draft occurrence by slug")
	}
}
