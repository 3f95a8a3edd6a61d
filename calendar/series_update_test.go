package calendar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

func TestSeriesUpdate(t *testing.T) {
	f := newFixture(t)
	ser := f.mustEvent(as(author), seriesIn("Choir", "2026-03-10 19:00", "2026-03-10 21:00", "RRULE:FREQ=WEEKLY;COUNT=4"))
	occ := f.children(ser.ID)

	// Detach one occurrence (scope this, the default): it alone changes.
	// If-Match applies to the occurrence addressed.
	_, err := f.cal.UpdateEvent(as(author), calendar.ByID(occ[1].ID), calendar.EventInput{Title: s("Special")}, calendar.WriteOptions{IfVersion: occ[1].Version + 1})
	wantErr(t, err, calendar.CodePreconditionFailed, "")
	det, err := f.cal.UpdateEvent(as(author), calendar.ByID(occ[1].ID), calendar.EventInput{Title: s("Special")}, calendar.WriteOptions{IfVersion: occ[1].Version})
	if err != nil || !det.Series.Detached || det.Title != "Special" {
		t.Fatalf("detach: %v %+v", err, det)
	}
	if got := f.children(ser.ID); got[0].Title["en"] != "Choir" || got[2].Title["en"] != "Choir" {
		t.Errorf("detaching one changed others")
	}
	// recurrence on an occurrence is refused.
	_, err = f.cal.UpdateEvent(as(author), calendar.ByID(occ[2].ID), calendar.EventInput{Recurrence: calendar.Some([]string{"RRULE:FREQ=DAILY"})}, calendar.WriteOptions{})
	wantParams(t, err, "recurrence")

	// A contributor may not edit an author's series nor its occurrences, by id or slug.
	for _, ref := range []calendar.Ref{calendar.ByID(ser.ID), calendar.BySlug(occ[3].Slug)} {
		_, err := f.cal.UpdateEvent(as(contributor), ref, calendar.EventInput{Title: s("x")}, calendar.WriteOptions{})
		wantErr(t, err, calendar.CodeForbidden, "")
	}

	// Fields sent to the series reach every occurrence not detached.
	if _, err := f.cal.UpdateEvent(as(author), calendar.ByID(ser.ID), calendar.EventInput{Title: s("Chorus")}, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	got := f.children(ser.ID)
	if got[0].Title["en"] != "Chorus" || got[1].Title["en"] != "Special" || got[3].Title["en"] != "Chorus" || got[0].ID != occ[0].ID {
		t.Errorf("series edit: titles %q %q %q", got[0].Title["en"], got[1].Title["en"], got[3].Title["en"])
	}

	// A new rule recomputes: kept recurrence ids keep id and slug, the
	// dropped ones go, new ones come.
	if _, err := f.cal.UpdateEvent(as(author), calendar.ByID(ser.ID), calendar.EventInput{
		Recurrence: calendar.Some([]string{"RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4"})}, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	got = f.children(ser.ID)
	berlin, _ := calendar.ParseZone("Europe/Berlin")
	if len(got) != 4 || got[0].ID != occ[0].ID || got[1].ID != occ[2].ID || got[1].Slug != occ[2].Slug ||
		!got[3].RecurrenceID.Equal(time.Date(2026, 4, 21, 19, 0, 0, 0, berlin)) {
		t.Errorf("recompute: %d occurrences, ids %v (had %v)", len(got), ids(got, func(p *calendar.PostRecord) int64 { return p.ID }), ids(occ, func(p *calendar.PostRecord) int64 { return p.ID }))
	}
	for _, o := range []*calendar.PostRecord{occ[1], occ[3]} { // weeks 2 and 4 left the set (the detached one too)
		if _, err := f.repo.GetPost(t.Context(), o.ID); err == nil {
			t.Errorf("occurrence %d no longer in the set still exists", o.ID)
		}
	}

	// Trash the series by status, then restore it: every occurrence follows.
	for _, st := range []string{"trash", "publish"} {
		if _, err := f.cal.UpdateEvent(as(author), calendar.ByID(ser.ID), calendar.EventInput{Status: calendar.Some(calendar.Status(st))}, calendar.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, o := range f.children(ser.ID) {
			if string(o.Status) != st {
				t.Errorf("after %s: occurrence %d is %s", st, o.ID, o.Status)
			}
		}
	}

	// An empty recurrence makes it a single event; occurrences go.
	one, err := f.cal.UpdateEvent(as(author), calendar.ByID(ser.ID), calendar.EventInput{Recurrence: calendar.Some([]string{})}, calendar.WriteOptions{})
	if err != nil || len(one.Recurrence) != 0 || len(f.children(ser.ID)) != 0 {
		t.Errorf("remove rule: %v, recurrence %q, %d occurrences", err, one.Recurrence, len(f.children(ser.ID)))
	}
}

func TestSeriesDeleteThenRestore(t *testing.T) {
	f := newFixture(t)
	ser := f.mustEvent(as(author), seriesIn("Run", "2026-03-10 07:00", "2026-03-10 08:00", "RRULE:FREQ=DAILY;COUNT=3"))
	if _, err := f.cal.DeleteEvent(as(author), calendar.ByID(ser.ID), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.cal.UpdateEvent(as(author), calendar.ByID(ser.ID), calendar.EventInput{Status: calendar.Some(calendar.StatusPublish)}, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, o := range f.children(ser.ID) {
		if o.Status != calendar.StatusPublish {
			t.Errorf("occurrence %d is %s after restoring the series", o.ID, o.Status)
		}
	}
}

func TestSeriesSplit(t *testing.T) {
	f := newFixture(t)
	ser := f.mustEvent(as(author), seriesIn("Choir", "2026-03-10 19:00", "2026-03-10 21:00",
		"RRULE:FREQ=WEEKLY;COUNT=6", "RDATE:20260501T170000Z"))
	occ := f.children(ser.ID) // 6 weekly + the RDATE
	if len(occ) != 7 {
		t.Fatalf("%d occurrences, want 7", len(occ))
	}
	// From the third on: 20:00 instead of 19:00, new title.
	ev, err := f.cal.UpdateEvent(as(author), calendar.ByID(occ[2].ID), calendar.EventInput{
		Scope: calendar.ScopeFollowing, Title: s("Late choir"),
		StartDate: s("2026-03-24 20:00"), EndDate: s("2026-03-24 22:00")}, calendar.WriteOptions{IfVersion: occ[2].Version})
	if err != nil {
		t.Fatal(err)
	}
	if ev.ID != occ[2].ID || ev.Series == nil || ev.Series.ID == ser.ID || ev.Title != "Late choir" || ev.Start.Hour() != 20 {
		t.Fatalf("split: addressed occurrence %+v", ev)
	}
	head, _ := f.cal.GetEvent(system, calendar.ByID(ser.ID), calendar.ReadOptions{})
	if head.Recurrence[0] != "RRULE:FREQ=WEEKLY;UNTIL=20260324T175959Z" || len(head.Recurrence) != 1 {
		t.Errorf("old series lines: %q", head.Recurrence)
	}
	if got := f.children(ser.ID); len(got) != 2 || got[0].ID != occ[0].ID || got[1].ID != occ[1].ID {
		t.Errorf("old series keeps %d occurrences", len(got))
	}
	tail := f.children(ev.Series.ID)
	if len(tail) != 5 {
		t.Fatalf("new series has %d occurrences, want 5 (4 weekly + the RDATE)", len(tail))
	}
	for i, o := range tail {
		if o.ID != occ[i+2].ID || o.Slug != occ[i+2].Slug || o.Title["en"] != "Late choir" {
			t.Errorf("new series occurrence %d: id %d slug %s title %q, want id %d slug %s", i, o.ID, o.Slug, o.Title["en"], occ[i+2].ID, occ[i+2].Slug)
		}
	}
	newSeries, _ := f.cal.GetEvent(system, calendar.ByID(ev.Series.ID), calendar.ReadOptions{})
	if len(newSeries.Recurrence) != 2 || newSeries.Recurrence[0] != "RRULE:FREQ=WEEKLY;COUNT=4" {
		t.Errorf("new series lines: %q", newSeries.Recurrence)
	}
}

// TestSeriesSplitCountsExcludedInstances: COUNT counts the rule's instances,
// an occurrence deleted (EXDATE) before the split point included, so the
// new series ends where the old rule would have.
func TestSeriesSplitCountsExcludedInstances(t *testing.T) {
	f := newFixture(t)
	ser := f.mustEvent(as(author), seriesIn("Run", "2026-03-10 07:00", "2026-03-10 08:00", "RRULE:FREQ=DAILY;COUNT=6"))
	occ := f.children(ser.ID)
	if len(occ) != 6 {
		t.Fatalf("%d occurrences, want 6", len(occ))
	}
	if _, err := f.cal.DeleteEvent(as(author), calendar.ByID(occ[1].ID), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	ev, err := f.cal.UpdateEvent(as(author), calendar.ByID(occ[3].ID), calendar.EventInput{Scope: calendar.ScopeFollowing, Title: s("Later run")}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tail := f.children(ev.Series.ID)
	if len(tail) != 3 || tail[len(tail)-1].ID != occ[5].ID {
		t.Errorf("new series has %d occurrences (last %v), want 3 ending with the 6th instance", len(tail), tail[len(tail)-1].Start)
	}
	newSeries, _ := f.cal.GetEvent(system, calendar.ByID(ev.Series.ID), calendar.ReadOptions{})
	if !strings.Contains(newSeries.Recurrence[0], "COUNT=3") {
		t.Errorf("new series lines: %q", newSeries.Recurrence)
	}
}
