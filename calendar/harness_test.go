package calendar_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// The test clock: a Friday, two days before the US switches to summer time.
var testNow = time.Date(2026, 3, 6, 15, 0, 0, 0, time.UTC)

// clock is a settable clock for tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// users is a user directory for tests.
type users map[int64]calendar.Principal

func (u users) LookupUser(_ context.Context, id int64) (calendar.Principal, bool, error) {
	p, ok := u[id]
	return p, ok, nil
}

// The cast of principals.
var (
	admin       = calendar.Principal{ID: 1, Role: calendar.RoleAdministrator}
	editor      = calendar.Principal{ID: 2, Role: calendar.RoleEditor}
	author      = calendar.Principal{ID: 3, Role: calendar.RoleAuthor}
	contributor = calendar.Principal{ID: 4, Role: calendar.RoleContributor}
	subscriber  = calendar.Principal{ID: 5, Role: calendar.RoleSubscriber}
	author2     = calendar.Principal{ID: 6, Role: calendar.RoleAuthor}
	contrib2    = calendar.Principal{ID: 7, Role: calendar.RoleContributor}
	anonymous   = calendar.Anonymous
)

type fixture struct {
	t     *testing.T
	cal   *calendar.Service
	repo  *memstore.Store
	clock *clock
}

func newFixture(t *testing.T, opts ...calendar.Option) *fixture {
	t.Helper()
	f := &fixture{t: t, repo: memstore.New(), clock: &clock{t: testNow}}
	dir := users{}
	for _, p := range []calendar.Principal{admin, editor, author, contributor, subscriber, author2, contrib2} {
		dir[p.ID] = p
	}
	base := []calendar.Option{calendar.WithClock(f.clock.Now), calendar.WithUsers(dir)}
	f.cal = calendar.New(f.repo, append(base, opts...)...)
	return f
}

func as(p calendar.Principal) context.Context {
	return calendar.WithPrincipal(context.Background(), p)
}

var system = calendar.WithPrincipal(context.Background(), calendar.System)

func s(v string) calendar.Opt[string] { return calendar.Some(v) }

// event makes a valid event input starting at the given wall-clock time.
func eventIn(title, start, end string) calendar.EventInput {
	return calendar.EventInput{Title: s(title), StartDate: s(start), EndDate: s(end)}
}

func (f *fixture) mustEvent(ctx context.Context, in calendar.EventInput) *calendar.Event {
	f.t.Helper()
	ev, err := f.cal.CreateEvent(ctx, in, calendar.WriteOptions{})
	if err != nil {
		f.t.Fatalf("CreateEvent(%v): %v", in.Title.Value, err)
	}
	return ev
}

func (f *fixture) mustVenue(ctx context.Context, in calendar.VenueInput) *calendar.Venue {
	f.t.Helper()
	v, err := f.cal.CreateVenue(ctx, in, calendar.WriteOptions{})
	if err != nil {
		f.t.Fatalf("CreateVenue: %v", err)
	}
	return v
}

func (f *fixture) mustOrganizer(ctx context.Context, in calendar.OrganizerInput) *calendar.Organizer {
	f.t.Helper()
	o, err := f.cal.CreateOrganizer(ctx, in, calendar.WriteOptions{})
	if err != nil {
		f.t.Fatalf("CreateOrganizer: %v", err)
	}
	return o
}

func (f *fixture) mustTerm(tax calendar.Taxonomy, in calendar.TermInput) *calendar.Term {
	f.t.Helper()
	tm, err := f.cal.CreateTerm(system, tax, in, calendar.WriteOptions{})
	if err != nil {
		f.t.Fatalf("CreateTerm: %v", err)
	}
	return tm
}

// wantErr asserts err is a *calendar.Error with code and reason ("" = any).
func wantErr(t *testing.T, err error, code calendar.Code, reason string) *calendar.Error {
	t.Helper()
	var ce *calendar.Error
	if !errors.As(err, &ce) {
		t.Fatalf("error = %v, want a *calendar.Error with code %s", err, code)
	}
	if ce.Code != code || reason != "" && ce.Reason != reason {
		t.Fatalf("error = %s/%s (%v), want %s/%s", ce.Code, ce.Reason, ce, code, reason)
	}
	return ce
}

// wantParams asserts err is an invalid-argument error naming exactly these arguments.
func wantParams(t *testing.T, err error, names ...string) {
	t.Helper()
	ce := wantErr(t, err, calendar.CodeInvalid, "")
	got := map[string]bool{}
	for k := range ce.Params {
		got[k] = true
	}
	for _, m := range ce.Missing {
		got[m] = true
	}
	for _, n := range names {
		if !got[n] {
			t.Errorf("error %v does not name %q", err, n)
		}
	}
	if len(got) != len(names) {
		t.Errorf("error %v names %d arguments, want %v", err, len(got), names)
	}
}

func ids[T any](items []T, id func(T) int64) []int64 {
	out := []int64{}
	for _, it := range items {
		out = append(out, id(it))
	}
	return out
}

func eventIDs(p *calendar.EventPage) []int64 {
	return ids(p.Events, func(e calendar.Event) int64 { return e.ID })
}
