package calendar_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

func TestChangesPermissions(t *testing.T) {
	f := newFixture(t)
	for _, p := range []calendar.Principal{admin, editor} {
		if _, err := f.cal.Changes(as(p), "", 0); err != nil {
			t.Errorf("%s: %v", p.Role, err)
		}
	}
	if _, err := f.cal.Changes(system, "", 0); err != nil {
		t.Errorf("System: %v", err)
	}
	for _, p := range []calendar.Principal{author, contributor, subscriber} {
		if _, err := f.cal.Changes(as(p), "", 0); calendar.CodeOf(err) != calendar.CodeForbidden {
			t.Errorf("%s: err = %v, want forbidden", p.Role, err)
		}
	}
	if _, err := f.cal.Changes(as(anonymous), "", 0); calendar.CodeOf(err) != calendar.CodeUnauthenticated {
		t.Errorf("anonymous: err = %v, want unauthenticated", err)
	}
	n := 0
	for c, err := range f.cal.WatchChanges(as(author), "") {
		if n++; calendar.CodeOf(err) != calendar.CodeForbidden {
			t.Fatalf("an author watched change %+v, %v", c, err)
		}
	}
	if n != 1 {
		t.Errorf("an author's watch yielded %d times, want the refusal once", n)
	}
}

func TestChangesPaging(t *testing.T) {
	f := newFixture(t)
	ev := f.mustEvent(system, eventIn("One", "2026-04-01 10:00", "2026-04-01 11:00"))
	start, err := f.cal.Changes(as(editor), "", 0)
	if err != nil || len(start.Changes) != 0 || start.More {
		t.Fatalf("no since: %+v, %v; want no change and the current cursor", start, err)
	}
	if _, err := f.cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Title: s("Two")}, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.cal.DeleteEvent(system, calendar.ByID(ev.ID), calendar.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	p1, err := f.cal.Changes(as(editor), start.Next, 1)
	if err != nil || len(p1.Changes) != 1 || !p1.More || p1.Changes[0].Action != calendar.ChangeUpdated {
		t.Fatalf("first page: %+v, %v", p1, err)
	}
	p2, err := f.cal.Changes(as(editor), p1.Next, 5)
	if err != nil || len(p2.Changes) != 1 || p2.More || p2.Changes[0].Action != calendar.ChangeTrashed || p2.Changes[0].ID != ev.ID {
		t.Fatalf("second page: %+v, %v", p2, err)
	}
	p3, err := f.cal.Changes(as(editor), p2.Next, 5)
	if err != nil || len(p3.Changes) != 0 || p3.Next != p2.Next {
		t.Fatalf("at the end: %+v, %v", p3, err)
	}
	for _, bad := range []string{"x", "AQ", calendar.ChangeCursor(5)[:4]} {
		if _, err := f.cal.Changes(as(editor), bad, 5); calendar.CodeOf(err) != calendar.CodeInvalid {
			t.Errorf("cursor %q: err = %v, want invalid", bad, err)
		}
	}
	if _, err := f.cal.Changes(as(editor), start.Next, -1); calendar.CodeOf(err) != calendar.CodeInvalid {
		t.Errorf("negative limit: %v", err)
	}
}

func TestChangesExpired(t *testing.T) {
	repo := memstore.New(memstore.WithChangeRetention(calendar.ChangeRetention{MaxCount: 2}))
	cal := calendar.New(repo)
	first, err := cal.Changes(system, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if _, err := cal.CreateTerm(system, calendar.TaxonomyTag, calendar.TermInput{Name: s("tag " + string(rune('a'+i)))}, calendar.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = cal.Changes(system, first.Next, 10)
	var ce *calendar.Error
	if !errors.Is(err, calendar.ErrChangesExpired) || !errors.As(err, &ce) || ce.Code != calendar.CodeGone || ce.Reason != "rest_changes_expired" {
		t.Fatalf("cursor older than the retention: %v", err)
	}
	page, err := cal.Changes(system, calendar.ChangeCursor(2), 10)
	if err != nil || len(page.Changes) != 2 || page.Changes[0].Seq != 3 {
		t.Fatalf("cursor within the retention: %+v, %v", page, err)
	}
}

func TestWatchChanges(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithTimeout(as(admin), 10*time.Second)
	defer cancel()
	got := make(chan calendar.Change)
	go func() {
		defer close(got)
		for c, err := range f.cal.WatchChanges(ctx, calendar.ChangeCursor(0)) {
			if err != nil {
				t.Error(err)
				return
			}
			got <- c
		}
	}()
	want := []int64{}
	for i := range 3 {
		ev := f.mustEvent(system, eventIn("E", "2026-04-01 10:00", "2026-04-01 11:00"))
		want = append(want, ev.ID)
		if i == 1 {
			time.Sleep(10 * time.Millisecond) // let the watcher wait
		}
	}
	for i, id := range want {
		c := <-got
		if c.ID != id || c.Seq != int64(i+1) {
			t.Fatalf("watched change %d: %+v, want event %d", i, c, id)
		}
	}
	cancel()
	if _, open := <-got; open {
		t.Fatal("the watch went on after its context ended")
	}
}
