package calendar_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// conflicting makes the first n writes fail with a conflict, as a
// concurrent writer on another process would; always > 0 fails all of them.
type conflicting struct {
	calendar.Repository
	left   atomic.Int64
	always bool
	writes atomic.Int64
}

func (c *conflicting) fail() error {
	c.writes.Add(1)
	if c.always || c.left.Add(-1) >= 0 {
		return &calendar.StepError{Step: 0, Op: calendar.OpUpdatePost, Err: fmt.Errorf("injected: %w", calendar.ErrConflict)}
	}
	return nil
}

func (c *conflicting) Apply(ctx context.Context, w *calendar.Write) (*calendar.WriteResult, error) {
	if err := c.fail(); err != nil {
		return nil, err
	}
	return c.Repository.Apply(ctx, w)
}

func (c *conflicting) DeletePost(ctx context.Context, id, version int64) error {
	if err := c.fail(); err != nil {
		return err
	}
	return c.Repository.DeletePost(ctx, id, version)
}

func (c *conflicting) UpdateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if err := c.fail(); err != nil {
		return nil, err
	}
	return c.Repository.UpdateTerm(ctx, t)
}

func (c *conflicting) DeleteTerm(ctx context.Context, id, version int64) error {
	if err := c.fail(); err != nil {
		return err
	}
	return c.Repository.DeleteTerm(ctx, id, version)
}

// A write without a pinned version goes through conflicts: it reads again
// and retries, and the caller never sees a precondition failure.
func TestUnpinnedWritesRetryThroughConflicts(t *testing.T) {
	const conflicts = 6
	for _, tc := range []struct {
		name  string
		write func(cal *calendar.Service, ev *calendar.Event, tag *calendar.Term) error
	}{
		{"update event", func(cal *calendar.Service, ev *calendar.Event, _ *calendar.Term) error {
			in := calendar.EventInput{Title: s("Renamed"), Tags: calendar.Some([]calendar.TermRef{{Name: "fresh"}})}
			_, err := cal.UpdateEvent(as(admin), calendar.ByID(ev.ID), in, calendar.WriteOptions{})
			return err
		}},
		{"trash event", func(cal *calendar.Service, ev *calendar.Event, _ *calendar.Term) error {
			_, err := cal.DeleteEvent(as(admin), calendar.ByID(ev.ID), calendar.DeleteOptions{})
			return err
		}},
		{"delete event", func(cal *calendar.Service, ev *calendar.Event, _ *calendar.Term) error {
			_, err := cal.DeleteEvent(as(admin), calendar.ByID(ev.ID), calendar.DeleteOptions{Force: true})
			return err
		}},
		{"update term", func(cal *calendar.Service, _ *calendar.Event, tag *calendar.Term) error {
			_, err := cal.UpdateTerm(as(admin), calendar.TaxonomyTag, tag.ID, calendar.TermInput{Name: s("Renamed")}, calendar.WriteOptions{})
			return err
		}},
		{"delete term", func(cal *calendar.Service, _ *calendar.Event, tag *calendar.Term) error {
			_, err := cal.DeleteTerm(as(admin), calendar.TaxonomyTag, tag.ID, calendar.DeleteOptions{})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			ev := f.mustEvent(system, eventIn("Contended", "2026-04-01 20:00", "2026-04-01 22:00"))
			tag := f.mustTerm(calendar.TaxonomyTag, calendar.TermInput{Name: s("Old")})
			repo := &conflicting{Repository: f.repo}
			repo.left.Store(conflicts)
			cal := calendar.New(repo, calendar.WithClock(f.clock.Now))
			if err := tc.write(cal, ev, tag); err != nil {
				t.Fatalf("after %d conflicts: %v", conflicts, err)
			}
			if got := repo.writes.Load(); got != conflicts+1 {
				t.Errorf("%d write attempts, want %d", got, conflicts+1)
			}
			// A pinned version is the caller's check: a conflict is a 412 at once.
			repo.left.Store(1)
			repo.writes.Store(0)
			_, err := cal.UpdateEvent(as(admin), calendar.ByID(ev.ID), calendar.EventInput{Title: s("Pinned")},
				calendar.WriteOptions{IfVersion: currentVersion(t, f, ev.ID)})
			if tc.name == "delete event" {
				wantErr(t, err, calendar.CodeNotFound, "rest-event-not-found")
				return
			}
			wantErr(t, err, calendar.CodePreconditionFailed, "rest_precondition_failed")
			if got := repo.writes.Load(); got != 1 {
				t.Errorf("a pinned write was tried %d times", got)
			}
		})
	}
}

func currentVersion(t *testing.T, f *fixture, id int64) int64 {
	t.Helper()
	p, err := f.repo.GetPost(context.Background(), id)
	if errors.Is(err, calendar.ErrNotFound) {
		return 1
	}
	if err != nil {
		t.Fatal(err)
	}
	return p.Version
}

// A write that keeps losing retries until the context's deadline and then
// reports the deadline — never a precondition failure the caller did not ask for.
func TestUnpinnedWritesGiveUpAtTheDeadline(t *testing.T) {
	f := newFixture(t)
	ev := f.mustEvent(system, eventIn("Hot", "2026-04-01 20:00", "2026-04-01 22:00"))
	repo := &conflicting{Repository: f.repo, always: true}
	cal := calendar.New(repo, calendar.WithClock(f.clock.Now))
	ctx, cancel := context.WithTimeout(as(admin), 300*time.Millisecond)
	defer cancel()
	_, err := cal.UpdateEvent(ctx, calendar.ByID(ev.ID), calendar.EventInput{Title: s("Never")}, calendar.WriteOptions{})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, calendar.ErrPreconditionFailed) {
		t.Fatalf("error %v, want the deadline and no precondition failure", err)
	}
	if n := repo.writes.Load(); n < 3 {
		t.Errorf("only %d attempts before the deadline", n)
	}
	got, _ := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
	if got.Title != "Hot" || got.Version != ev.Version {
		t.Errorf("a failed write changed the event: %q v%d", got.Title, got.Version)
	}
}

// Refusals create nothing: a contributor naming a category it may not
// create gets a 400, and the new venue and organizer of the same write are
// not made either; a pinned update on an old version (412) leaves its new
// names out too.
func TestRefusedWritesCreateNoNestedRecords(t *testing.T) {
	f := newFixture(t)
	before := storeCounts(t, f.repo)
	_, err := f.cal.CreateEvent(as(contributor), nestedEvent("Not mine"), calendar.WriteOptions{})
	wantParams(t, err, "categories", "tags")
	if after := storeCounts(t, f.repo); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("a refused create left records: before %v, after %v", before, after)
	}
	ev := f.mustEvent(system, eventIn("Pinned", "2026-04-01 20:00", "2026-04-01 22:00"))
	if _, err := f.cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Title: s("v2")}, calendar.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	before = storeCounts(t, f.repo)
	_, err = f.cal.UpdateEvent(system, calendar.ByID(ev.ID), nestedEvent("Stale"), calendar.WriteOptions{IfVersion: ev.Version})
	wantErr(t, err, calendar.CodePreconditionFailed, "rest_precondition_failed")
	if after := storeCounts(t, f.repo); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("a 412 left records: before %v, after %v", before, after)
	}
}

// Reuse by name links only what the caller may read: another author's draft
// venue is not linked (a copy is made), an editor's write links it.
func TestReuseByNameOnlyLinksReadableRecords(t *testing.T) {
	f := newFixture(t)
	draft := f.mustVenue(as(author2), calendar.VenueInput{Name: s("Hidden Hall"), Status: calendar.Some(calendar.StatusDraft)})
	in := eventIn("Mine", "2026-04-01 20:00", "2026-04-01 22:00")
	in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: s("hidden hall")}}})
	ev := f.mustEvent(as(author), in)
	if ev.Venues[0].ID == draft.ID {
		t.Fatalf("an author's event linked another author's draft venue by name")
	}
	again := f.mustVenue(as(author), calendar.VenueInput{Name: s("HIDDEN HALL")})
	if again.ID != ev.Venues[0].ID {
		t.Errorf("a standalone create did not reuse the author's own venue: %d vs %d", again.ID, ev.Venues[0].ID)
	}
	byEditor := f.mustEvent(as(editor), in)
	if byEditor.Venues[0].ID != draft.ID {
		t.Errorf("an editor's event linked venue %d, want the lowest-id readable one %d", byEditor.Venues[0].ID, draft.ID)
	}
}

// vanishing is a store whose writes always report a missing record, though
// every read finds what the write names: a store contradicting itself.
type vanishing struct {
	calendar.Repository
	writes atomic.Int64
}

func (v *vanishing) Apply(ctx context.Context, w *calendar.Write) (*calendar.WriteResult, error) {
	v.writes.Add(1)
	return nil, &calendar.StepError{Step: 0, Op: w.Steps[0].Op, Err: fmt.Errorf("injected: %w", calendar.ErrNotFound)}
}

// A record that went missing during a write is looked up again a few times
// (a concurrent delete then gets the kind's own answer); when fresh reads
// keep contradicting the store, the write stops at once with an internal
// error instead of retrying until the deadline or answering a generic 404.
func TestMissingRecordsAreReadAgainAFewTimes(t *testing.T) {
	f := newFixture(t)
	ev := f.mustEvent(system, eventIn("Here", "2026-04-01 20:00", "2026-04-01 22:00"))
	repo := &vanishing{Repository: f.repo}
	cal := calendar.New(repo, calendar.WithClock(f.clock.Now), calendar.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	_, err := cal.CreateEvent(system, nestedEvent("New"), calendar.WriteOptions{})
	wantErr(t, err, calendar.CodeInternal, "rest_internal_error")
	if n := repo.writes.Load(); n < 2 || n > 4 {
		t.Errorf("create: %d write attempts, want a few", n)
	}
	repo.writes.Store(0)
	_, err = cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Title: s("Again")}, calendar.WriteOptions{})
	wantErr(t, err, calendar.CodeInternal, "rest_internal_error")
	if n := repo.writes.Load(); n < 2 || n > 4 {
		t.Errorf("update: %d write attempts, want a few", n)
	}
}
