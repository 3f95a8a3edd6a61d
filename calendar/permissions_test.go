package calendar_test

import (
	"fmt"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// Oracles written from the capability table of domain §3.
func mayRead(p calendar.Principal, own bool, st calendar.Status) bool {
	if st == calendar.StatusPublish {
		return true
	}
	switch p.Role {
	case calendar.RoleAdministrator, calendar.RoleEditor:
		return true
	case calendar.RoleAuthor, calendar.RoleContributor:
		return own
	}
	return false
}

func mayEdit(p calendar.Principal, own bool, st calendar.Status) bool {
	switch p.Role {
	case calendar.RoleAdministrator, calendar.RoleEditor:
		return true
	case calendar.RoleAuthor:
		return own
	case calendar.RoleContributor:
		return own && (st == calendar.StatusDraft || st == calendar.StatusPending || st == calendar.StatusTrash)
	}
	return false
}

func denyCode(p calendar.Principal) calendar.Code {
	if p.IsAnonymous() {
		return calendar.CodeUnauthenticated
	}
	return calendar.CodeForbidden
}

var allStatuses = []calendar.Status{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusDraft,
	calendar.StatusPending, calendar.StatusPrivate, calendar.StatusTrash}

// seedRecord creates an event by owner in status st (as system code).
func seedRecord(f *fixture, owner calendar.Principal, st calendar.Status) *calendar.Event {
	f.t.Helper()
	in := eventIn(fmt.Sprintf("%s %d", st, owner.ID), "2026-04-01 10:00", "2026-04-01 12:00")
	in.Author = calendar.Some(owner.ID)
	switch st {
	case calendar.StatusTrash:
		in.Status = calendar.Some(calendar.StatusDraft)
	case calendar.StatusFuture:
		in.Status = calendar.Some(calendar.StatusPublish)
		in.Date = s("2026-05-01 00:00")
	default:
		in.Status = calendar.Some(st)
	}
	ev := f.mustEvent(system, in)
	if st == calendar.StatusTrash {
		if _, err := f.cal.DeleteEvent(system, calendar.ByID(ev.ID), calendar.DeleteOptions{}); err != nil {
			f.t.Fatal(err)
		}
	}
	got, err := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
	if err != nil || got.Status != st {
		f.t.Fatalf("seeded %s event has status %v (%v)", st, got, err)
	}
	return got
}

func TestPermissionMatrix(t *testing.T) {
	principals := []calendar.Principal{admin, editor, author, contributor, subscriber, anonymous}
	for _, p := range principals {
		for _, ownerIsCaller := range []bool{true, false} {
			if ownerIsCaller && (p.IsAnonymous() || p.Role == calendar.RoleSubscriber) {
				continue // they cannot own posts
			}
			for _, st := range allStatuses {
				owner := author2
				if ownerIsCaller {
					owner = p
				}
				name := fmt.Sprintf("%s/own=%v/%s", p.Role, ownerIsCaller, st)
				t.Run(name, func(t *testing.T) {
					checkPermissionCase(t, p, owner, ownerIsCaller, st)
				})
			}
		}
	}
}

func checkPermissionCase(t *testing.T, p, owner calendar.Principal, own bool, st calendar.Status) {
	f := newFixture(t)
	ev := seedRecord(f, owner, st)
	ctx := as(p)
	canRead, canEdit := mayRead(p, own, st), mayEdit(p, own, st)

	// Read by id and by slug.
	for _, ref := range []calendar.Ref{calendar.ByID(ev.ID), calendar.BySlug(ev.Slug)} {
		got, err := f.cal.GetEvent(ctx, ref, calendar.ReadOptions{})
		switch {
		case st == calendar.StatusTrash && !canEdit:
			wantErr(t, err, calendar.CodeForbidden, "event-no-longer-available")
		case !canRead:
			wantErr(t, err, calendar.CodeForbidden, "event-not-accessible")
		case err != nil:
			t.Fatalf("read %+v: %v", ref, err)
		case got.ID != ev.ID:
			t.Fatalf("read %+v returned event %d", ref, got.ID)
		}
	}

	// Default list: published plus readable non-published, never trash.
	page, err := f.cal.ListEvents(ctx, calendar.EventQuery{StartDate: "2026-01-01"})
	if err != nil {
		t.Fatal(err)
	}
	listed := len(page.Events) == 1
	if want := canRead && st != calendar.StatusTrash; listed != want {
		t.Errorf("listed = %v, want %v", listed, want)
	}

	// Update by id, then by slug.
	for i, ref := range []calendar.Ref{calendar.ByID(ev.ID), calendar.BySlug(ev.Slug)} {
		desc := fmt.Sprintf("changed %d", i)
		_, err := f.cal.UpdateEvent(ctx, ref, calendar.EventInput{Description: s(desc)}, calendar.WriteOptions{})
		if !canEdit {
			wantErr(t, err, denyCode(p), "rest_forbidden")
		} else if err != nil {
			t.Fatalf("update %+v: %v", ref, err)
		}
		stored, _ := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
		if changed := stored.Description == desc; changed != canEdit {
			t.Errorf("update %+v changed the record = %v, want %v", ref, changed, canEdit)
		}
	}

	// Force delete: editors and admins only; nothing changes otherwise.
	_, err = f.cal.DeleteEvent(ctx, calendar.ByID(ev.ID), calendar.DeleteOptions{Force: true})
	mayForce := p.Role == calendar.RoleAdministrator || p.Role == calendar.RoleEditor
	if !mayForce {
		wantErr(t, err, denyCode(p), "rest_forbidden")
		if _, err := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{}); err != nil {
			t.Fatalf("refused force delete removed the event: %v", err)
		}
	} else if err != nil {
		t.Fatalf("force delete: %v", err)
	} else {
		_, err := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
		wantErr(t, err, calendar.CodeNotFound, "rest-event-not-found")
		return
	}

	// Trash by slug.
	_, err = f.cal.DeleteEvent(ctx, calendar.BySlug(ev.Slug), calendar.DeleteOptions{})
	switch {
	case !canEdit:
		wantErr(t, err, denyCode(p), "rest_forbidden")
	case st == calendar.StatusTrash:
		wantErr(t, err, calendar.CodeGone, "event-is-in-trash")
	case err != nil:
		t.Fatalf("trash: %v", err)
	default:
		stored, _ := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
		if stored.Status != calendar.StatusTrash {
			t.Errorf("status after delete = %s", stored.Status)
		}
	}
}

func TestCreatePermissions(t *testing.T) {
	f := newFixture(t)
	for _, p := range []calendar.Principal{subscriber, anonymous} {
		// Refused before validation: an empty input still gets 401/403, not 400.
		_, err := f.cal.CreateEvent(as(p), calendar.EventInput{}, calendar.WriteOptions{})
		wantErr(t, err, denyCode(p), "rest_forbidden")
		_, err = f.cal.CreateVenue(as(p), calendar.VenueInput{}, calendar.WriteOptions{})
		wantErr(t, err, denyCode(p), "rest_forbidden")
		_, err = f.cal.CreateOrganizer(as(p), calendar.OrganizerInput{}, calendar.WriteOptions{})
		wantErr(t, err, denyCode(p), "rest_forbidden")
		_, err = f.cal.UpdateEvent(as(p), calendar.ByID(1), calendar.EventInput{}, calendar.WriteOptions{})
		wantErr(t, err, denyCode(p), "rest_forbidden")
		_, err = f.cal.DeleteEvent(as(p), calendar.ByID(1), calendar.DeleteOptions{})
		wantErr(t, err, denyCode(p), "rest_forbidden")
	}
	terms := []struct {
		p           calendar.Principal
		cat, tag    bool
		description string
	}{
		{admin, true, true, "admin"}, {editor, true, true, "editor"}, {author, true, false, "author"},
		{contributor, false, false, "contributor"}, {subscriber, false, false, "subscriber"}, {anonymous, false, false, "anonymous"},
	}
	for i, tc := range terms {
		for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
			want := tc.cat
			if tax == calendar.TaxonomyTag {
				want = tc.tag
			}
			tm, err := f.cal.CreateTerm(as(tc.p), tax, calendar.TermInput{Name: s(fmt.Sprintf("T%d", i))}, calendar.WriteOptions{})
			if !want {
				wantErr(t, err, denyCode(tc.p), "rest_forbidden")
				continue
			}
			if err != nil {
				t.Fatalf("%s create %s: %v", tc.description, tax, err)
			}
			if _, err := f.cal.UpdateTerm(as(tc.p), tax, tm.ID, calendar.TermInput{Description: s("d")}, calendar.WriteOptions{}); err != nil {
				t.Fatalf("%s update %s: %v", tc.description, tax, err)
			}
			if _, err := f.cal.DeleteTerm(as(tc.p), tax, tm.ID, calendar.DeleteOptions{}); err != nil {
				t.Fatalf("%s delete %s: %v", tc.description, tax, err)
			}
		}
	}
}

func TestAuthorField(t *testing.T) {
	f := newFixture(t)
	// Setting another author needs the right to edit others' posts.
	in := eventIn("Mine", "2026-04-01 10:00", "2026-04-01 11:00")
	in.Author = calendar.Some(author2.ID)
	_, err := f.cal.CreateEvent(as(author), in, calendar.WriteOptions{})
	wantErr(t, err, calendar.CodeForbidden, "rest_forbidden")
	ev, err := f.cal.CreateEvent(as(editor), in, calendar.WriteOptions{})
	if err != nil || ev.Author != author2.ID {
		t.Fatalf("editor setting author: %v %v", ev, err)
	}
	// An unknown user is invalid and names the argument.
	in.Author = calendar.Some(int64(999))
	_, err = f.cal.CreateEvent(as(editor), in, calendar.WriteOptions{})
	wantParams(t, err, "author")
	// Without an author the caller is the author.
	ev = f.mustEvent(as(contributor), eventIn("Contrib", "2026-04-01 10:00", "2026-04-01 11:00"))
	if ev.Author != contributor.ID {
		t.Fatalf("author = %d", ev.Author)
	}
}
