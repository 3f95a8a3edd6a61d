package calendar_test

import (
	"context"
	"errors"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// A context that carries no principal has no rights: an app handler that
// forgets to attach its user must not act as an administrator.
func TestNoPrincipalIsAnonymous(t *testing.T) {
	f := newFixture(t)
	bare := context.Background()
	in := calendar.EventInput{Title: calendar.Some("Sneaky"), StartDate: calendar.Some("2026-04-01 10:00"), EndDate: calendar.Some("2026-04-01 11:00")}
	if _, err := f.cal.CreateEvent(bare, in, calendar.WriteOptions{}); !errors.Is(err, calendar.ErrUnauthenticated) {
		t.Fatalf("create without principal: err = %v, want unauthenticated", err)
	}
	if _, err := f.cal.CreateTerm(bare, calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some("Sneaky")}, calendar.WriteOptions{}); !errors.Is(err, calendar.ErrUnauthenticated) {
		t.Fatalf("term create without principal: err = %v, want unauthenticated", err)
	}
	draft := f.mustEvent(as(author), calendar.EventInput{Title: calendar.Some("Draft"), Status: calendar.Some(calendar.StatusDraft),
		StartDate: calendar.Some("2026-04-01 10:00"), EndDate: calendar.Some("2026-04-01 11:00")})
	if _, err := f.cal.GetEvent(bare, calendar.ByID(draft.ID), calendar.ReadOptions{}); !errors.Is(err, calendar.ErrUnauthenticated) && !errors.Is(err, calendar.ErrForbidden) {
		t.Fatalf("reading a draft without principal: err = %v, want refused", err)
	}
	if _, err := f.cal.DeleteEvent(bare, calendar.ByID(draft.ID), calendar.DeleteOptions{Force: true}); !errors.Is(err, calendar.ErrUnauthenticated) {
		t.Fatalf("force delete without principal: err = %v, want unauthenticated", err)
	}
	page, err := f.cal.ListEvents(bare, calendar.EventQuery{StartDate: "2026-01-01"})
	if err != nil || page.Total != 0 {
		t.Fatalf("anonymous list sees drafts: total=%v err=%v", page, err)
	}
}

// System has every right and its posts get the default author, never 0.
func TestSystemPrincipalAuthor(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []calendar.Option
		want int64
	}{
		{"default", nil, calendar.DefaultAuthor},
		{"option", []calendar.Option{calendar.WithDefaultAuthor(6)}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.opts...)
			ev := f.mustEvent(system, calendar.EventInput{Title: calendar.Some("By the system"), Status: calendar.Some(calendar.StatusPrivate),
				StartDate: calendar.Some("2026-04-01 10:00"), EndDate: calendar.Some("2026-04-01 11:00"),
				Venues: calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some("System Hall")}}})})
			if ev.Author != tc.want {
				t.Fatalf("author = %d, want %d", ev.Author, tc.want)
			}
			if len(ev.Venues) != 1 || ev.Venues[0].Author != tc.want {
				t.Fatalf("nested venue author = %+v, want %d", ev.Venues, tc.want)
			}
			// Naming an author explicitly is allowed for System.
			named := f.mustEvent(system, calendar.EventInput{Title: calendar.Some("Named"), Author: calendar.Some(int64(3)),
				StartDate: calendar.Some("2026-04-01 10:00"), EndDate: calendar.Some("2026-04-01 11:00")})
			if named.Author != 3 {
				t.Fatalf("named author = %d, want 3", named.Author)
			}
		})
	}
}

// No user table can hand out the system role.
func TestParseRoleRefusesSystem(t *testing.T) {
	if _, err := calendar.ParseRole("system"); err == nil {
		t.Fatal(`ParseRole("system") accepted`)
	}
	if calendar.System.IsAnonymous() || !calendar.System.IsSystem() {
		t.Fatal("System must be neither anonymous nor a user")
	}
	if (calendar.Principal{ID: 9, Role: calendar.RoleAdministrator}).IsSystem() {
		t.Fatal("an administrator is not System")
	}
}
