package calendar_test

import (
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

func TestStatusScaleBack(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		p     calendar.Principal
		asked string
		want  calendar.Status
		code  calendar.Code
	}{
		{contributor, "", calendar.StatusDraft, ""},
		{contributor, "publish", calendar.StatusPending, ""},
		{contributor, "future", calendar.StatusPending, ""},
		{contributor, "draft", calendar.StatusDraft, ""},
		{contributor, "pending", calendar.StatusPending, ""},
		{contributor, "private", "", calendar.CodeForbidden},
		{contributor, "trash", "", calendar.CodeForbidden},
		{author, "", calendar.StatusPublish, ""},
		{author, "private", calendar.StatusPrivate, ""},
		{editor, "pending", calendar.StatusPending, ""},
		{admin, "bogus", "", calendar.CodeInvalid},
	}
	for _, tc := range cases {
		in := eventIn("Gig", "2026-04-01 10:00", "2026-04-01 11:00")
		if tc.asked != "" {
			in.Status = calendar.Some(calendar.Status(tc.asked))
		}
		ev, err := f.cal.CreateEvent(as(tc.p), in, calendar.WriteOptions{})
		if tc.code != "" {
			wantErr(t, err, tc.code, "")
			continue
		}
		if err != nil {
			t.Fatalf("%s asking %q: %v", tc.p.Role, tc.asked, err)
		}
		if ev.Status != tc.want {
			t.Errorf("%s asking %q got %s, want %s", tc.p.Role, tc.asked, ev.Status, tc.want)
		}
	}
	// Updates scale back too: a contributor publishing their draft gets pending.
	ev := f.mustEvent(as(contributor), eventIn("Draft", "2026-04-01 10:00", "2026-04-01 11:00"))
	up, err := f.cal.UpdateEvent(as(contributor), calendar.ByID(ev.ID), calendar.EventInput{Status: calendar.Some(calendar.StatusPublish)}, calendar.WriteOptions{})
	if err != nil || up.Status != calendar.StatusPending {
		t.Fatalf("contributor publish on update: %v %v", up, err)
	}
}

func TestScheduledPublish(t *testing.T) {
	f := newFixture(t)
	in := eventIn("Later", "2026-06-01 10:00", "2026-06-01 11:00")
	in.Date = s("2026-03-10 09:00")
	ev := f.mustEvent(system, in)
	if ev.Status != calendar.StatusFuture {
		t.Fatalf("publish with a future date stored %s, want future", ev.Status)
	}
	// Anonymous callers cannot see it yet, by id or in lists.
	_, err := f.cal.GetEvent(as(anonymous), calendar.ByID(ev.ID), calendar.ReadOptions{})
	wantErr(t, err, calendar.CodeForbidden, "event-not-accessible")
	page, _ := f.cal.ListEvents(as(anonymous), calendar.EventQuery{})
	if page.Total != 0 {
		t.Fatalf("future event listed: %v", eventIDs(page))
	}
	// Once the date passes it is published at once: no job needed.
	f.clock.Set(time.Date(2026, 3, 10, 9, 0, 1, 0, time.UTC))
	got, err := f.cal.GetEvent(as(anonymous), calendar.ByID(ev.ID), calendar.ReadOptions{})
	if err != nil || got.Status != calendar.StatusPublish {
		t.Fatalf("after the date: %v %v", got, err)
	}
	page, _ = f.cal.ListEvents(as(anonymous), calendar.EventQuery{})
	if page.Total != 1 {
		t.Fatalf("published future event not listed")
	}
	// Writing future with a past date stores publish.
	in2 := eventIn("Past", "2026-06-01 10:00", "2026-06-01 11:00")
	in2.Status, in2.Date = calendar.Some(calendar.StatusFuture), s("2026-01-01")
	if ev2 := f.mustEvent(system, in2); ev2.Status != calendar.StatusPublish {
		t.Fatalf("future with past date stored %s", ev2.Status)
	}
}

func TestTrashRestoreAndForce(t *testing.T) {
	f := newFixture(t)
	v := f.mustVenue(system, calendar.VenueInput{Name: s("Hall")})
	o := f.mustOrganizer(system, calendar.OrganizerInput{Name: s("Org")})
	in := eventIn("Show", "2026-04-01 10:00", "2026-04-01 11:00")
	in.Venues = calendar.Some([]calendar.VenueRef{{ID: v.ID}})
	in.Organizers = calendar.Some([]calendar.OrganizerRef{{ID: o.ID}})
	ev := f.mustEvent(system, in)

	// Trash the venue: the event keeps its link, but does not embed it for the public.
	tv, err := f.cal.DeleteVenue(as(editor), calendar.ByID(v.ID), calendar.DeleteOptions{})
	if err != nil || tv.Status != calendar.StatusTrash {
		t.Fatalf("trash venue: %v %v", tv, err)
	}
	_, err = f.cal.DeleteVenue(as(editor), calendar.ByID(v.ID), calendar.DeleteOptions{})
	wantErr(t, err, calendar.CodeGone, "venue-is-in-trash")
	pub, _ := f.cal.GetEvent(as(anonymous), calendar.ByID(ev.ID), calendar.ReadOptions{})
	if len(pub.Venues) != 0 {
		t.Fatalf("trashed venue embedded for anonymous")
	}
	ed, _ := f.cal.GetEvent(as(editor), calendar.ByID(ev.ID), calendar.ReadOptions{})
	if len(ed.Venues) != 1 {
		t.Fatalf("editor should still see the trashed venue link")
	}
	// Restore by setting a status: the link is intact.
	if _, err := f.cal.UpdateVenue(as(editor), calendar.ByID(v.ID), calendar.VenueInput{Status: calendar.Some(calendar.StatusPublish)}, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	pub, _ = f.cal.GetEvent(as(anonymous), calendar.ByID(ev.ID), calendar.ReadOptions{})
	if len(pub.Venues) != 1 || pub.Venues[0].ID != v.ID {
		t.Fatalf("restored venue not embedded: %+v", pub.Venues)
	}
	// Force-deleting the organizer removes the link in the same write.
	gone, err := f.cal.DeleteOrganizer(as(admin), calendar.ByID(o.ID), calendar.DeleteOptions{Force: true})
	if err != nil || gone.ID != o.ID || gone.Name != "Org" {
		t.Fatalf("force delete organizer: %v %v", gone, err)
	}
	rec, _ := f.repo.GetPost(system, ev.ID)
	if len(rec.OrganizerIDs) != 0 || len(rec.VenueIDs) != 1 {
		t.Fatalf("links after force delete: venues %v organizers %v", rec.VenueIDs, rec.OrganizerIDs)
	}
	_, err = f.cal.GetOrganizer(system, calendar.ByID(o.ID), calendar.ReadOptions{})
	wantParams(t, err, "id")
}

func TestTermDeleteUnlinksAndReparents(t *testing.T) {
	f := newFixture(t)
	top := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Music")})
	mid := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Jazz"), Parent: calendar.Some(top.ID)})
	leaf := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Bebop"), Parent: calendar.Some(mid.ID)})
	in := eventIn("Set", "2026-04-01 20:00", "2026-04-01 23:00")
	in.Categories = calendar.Some([]calendar.TermRef{{ID: mid.ID}, {ID: leaf.ID}})
	ev := f.mustEvent(system, in)

	deleted, err := f.cal.DeleteTerm(as(editor), calendar.TaxonomyCategory, mid.ID, calendar.DeleteOptions{})
	if err != nil || deleted.ID != mid.ID || deleted.Count != 1 {
		t.Fatalf("delete term: %+v %v", deleted, err)
	}
	got, _ := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
	if len(got.Categories) != 1 || got.Categories[0].ID != leaf.ID {
		t.Fatalf("event categories after delete: %+v", got.Categories)
	}
	l, _ := f.cal.GetTerm(system, calendar.TaxonomyCategory, leaf.ID, calendar.ReadOptions{})
	if l.Parent != top.ID {
		t.Fatalf("child parent = %d, want %d", l.Parent, top.ID)
	}
	_, err = f.cal.GetTerm(system, calendar.TaxonomyCategory, mid.ID, calendar.ReadOptions{})
	wantParams(t, err, "id")
}

func TestVersionsAndPreconditions(t *testing.T) {
	f := newFixture(t)
	ev := f.mustEvent(system, eventIn("V", "2026-04-01 10:00", "2026-04-01 11:00"))
	_, err := f.cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Title: s("x")}, calendar.WriteOptions{IfVersion: ev.Version + 1})
	wantErr(t, err, calendar.CodePreconditionFailed, "rest_precondition_failed")
	up, err := f.cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Title: s("y")}, calendar.WriteOptions{IfVersion: ev.Version})
	if err != nil || up.Version != ev.Version+1 || up.Title != "y" {
		t.Fatalf("update with the right version: %v %v", up, err)
	}
	_, err = f.cal.DeleteEvent(system, calendar.ByID(ev.ID), calendar.DeleteOptions{IfVersion: ev.Version})
	wantErr(t, err, calendar.CodePreconditionFailed, "")
	tm := f.mustTerm(calendar.TaxonomyTag, calendar.TermInput{Name: s("t")})
	_, err = f.cal.UpdateTerm(system, calendar.TaxonomyTag, tm.ID, calendar.TermInput{Name: s("u")}, calendar.WriteOptions{IfVersion: 9})
	wantErr(t, err, calendar.CodePreconditionFailed, "")
	got, _ := f.cal.GetTerm(system, calendar.TaxonomyTag, tm.ID, calendar.ReadOptions{})
	if got.Name != "t" {
		t.Fatalf("refused update changed the term")
	}
}

func TestPasswordProtection(t *testing.T) {
	f := newFixture(t)
	v := f.mustVenue(system, calendar.VenueInput{Name: s("Secret Club"), Address: s("1 Hidden St")})
	in := eventIn("Private party", "2026-04-01 20:00", "2026-04-01 23:00")
	in.Password = s("open sesame")
	in.Description = s("the details")
	in.Cost = calendar.Some([]string{"$10"})
	in.Venues = calendar.Some([]calendar.VenueRef{{ID: v.ID}})
	in.Featured = calendar.Some(true)
	ev := f.mustEvent(as(author), in)
	if !ev.HasPassword {
		t.Fatalf("owner should see that the event has a password")
	}
	_, err := f.cal.GetEvent(as(anonymous), calendar.ByID(ev.ID), calendar.ReadOptions{})
	wantErr(t, err, calendar.CodeForbidden, "event-password-protected")
	_, err = f.cal.GetEvent(as(anonymous), calendar.ByID(ev.ID), calendar.ReadOptions{Password: "wrong"})
	wantErr(t, err, calendar.CodeForbidden, "event-password-protected")
	got, err := f.cal.GetEvent(as(anonymous), calendar.ByID(ev.ID), calendar.ReadOptions{Password: "open sesame"})
	if err != nil || got.Description != "the details" || got.HasPassword {
		t.Fatalf("with password: %+v %v", got, err)
	}
	// Lists blank the content for callers who cannot edit it.
	page, _ := f.cal.ListEvents(as(subscriber), calendar.EventQuery{})
	if len(page.Events) != 1 {
		t.Fatalf("protected event should be listed")
	}
	b := page.Events[0]
	if !b.Protected || b.Description != "" || len(b.Cost) != 0 || len(b.Venues) != 0 || b.Featured != nil || b.Title != "Private party" {
		t.Fatalf("blanked event = %+v", b)
	}
	page, _ = f.cal.ListEvents(as(author), calendar.EventQuery{})
	if page.Events[0].Protected || page.Events[0].Description != "the details" {
		t.Fatalf("owner's list view should not be blanked")
	}
}
