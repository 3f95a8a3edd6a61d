package calendar_test

import (
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
		if _, err := f.cal.UpdateEvent(as(author), calendar.ByID(ser.ID), calendar.EventInput{Status: s(st)}, calendar.WriteOptions{}); err != nil {
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
	if _, err := f.cal.UpdateEvent(as(author), calendar.ByID(ser.ID), calendar.EventInput{Status: s("publish")}, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, o := range f.children(ser.ID) {
		if o.Status != calendar.StatusPublish {
			t.Errorf("occurrence %d is %s after restoring the series", o.ID, o.Status)
		}
	}
}
