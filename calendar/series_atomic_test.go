package calendar_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
)

// failingRepo refuses every multi-record write while fail is set, the way a
// driver reports a write that failed as a whole.
type failingRepo struct {
	calendar.Repository
	mu   sync.Mutex
	fail bool
}

func (r *failingRepo) set(fail bool) { r.mu.Lock(); r.fail = fail; r.mu.Unlock() }

func (r *failingRepo) Apply(ctx context.Context, w *calendar.Write) (*calendar.WriteResult, error) {
	r.mu.Lock()
	fail := r.fail && len(w.Steps) > 1
	r.mu.Unlock()
	if fail {
		return nil, &calendar.StepError{Step: len(w.Steps) - 1, Op: w.Steps[len(w.Steps)-1].Op, Err: calendar.ErrUnavailable}
	}
	return r.Repository.Apply(ctx, w)
}

// Every series operation is one write: when it fails, nothing of it is
// stored (no first half written by a separate call).
func TestSeriesWritesAreOneWrite(t *testing.T) {
	f := newFixture(t)
	repo := &failingRepo{Repository: f.repo}
	cal := calendar.New(repo, calendar.WithClock(f.clock.Now))
	ser, err := cal.CreateEvent(system, seriesIn("Kept", "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=DAILY;COUNT=5"), calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := f.children(ser.ID)
	repo.set(true)
	if _, err := cal.CreateEvent(system, seriesIn("Lost", "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=DAILY;COUNT=5"), calendar.WriteOptions{}); err == nil {
		t.Fatal("create series: want the storage error")
	}
	if n := f.postCount(); n != 6 {
		t.Errorf("%d events after a failed series create, want 6", n)
	}
	ops := []func() error{
		func() error {
			_, err := cal.UpdateEvent(system, calendar.ByID(ser.ID), calendar.EventInput{Title: s("x")}, calendar.WriteOptions{})
			return err
		},
		func() error {
			_, err := cal.UpdateEvent(system, calendar.ByID(before[2].ID), calendar.EventInput{Title: s("x"), Scope: calendar.ScopeFollowing}, calendar.WriteOptions{})
			return err
		},
		func() error {
			_, err := cal.DeleteEvent(system, calendar.ByID(before[1].ID), calendar.DeleteOptions{})
			return err
		},
		func() error {
			_, err := cal.DeleteEvent(system, calendar.ByID(ser.ID), calendar.DeleteOptions{Force: true})
			return err
		},
	}
	for i, op := range ops {
		if err := op(); !errors.Is(err, calendar.ErrUnavailable) {
			t.Errorf("op %d: error %v, want unavailable", i, err)
		}
		after := f.children(ser.ID)
		if len(after) != len(before) {
			t.Fatalf("op %d: %d occurrences, want %d", i, len(after), len(before))
		}
		for j := range after {
			if after[j].Version != before[j].Version || after[j].Title["en"] != "Kept" {
				t.Errorf("op %d changed occurrence %d", i, after[j].ID)
			}
		}
	}
}

// Two calendars on one bbolt file extend the same series at once: each
// occurrence is created once.
func TestSeriesExtendConcurrentBolt(t *testing.T) {
	store, err := boltstore.Open(filepath.Join(t.TempDir(), "cal.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	c := &clock{t: testNow}
	cals := []*calendar.Service{
		calendar.New(store, calendar.WithClock(c.Now), calendar.WithSeriesHorizon(1)),
		calendar.New(store, calendar.WithClock(c.Now), calendar.WithSeriesHorizon(1)),
	}
	ser, err := cals[0].CreateEvent(system, seriesIn("Daily", "2026-03-10 19:00", "2026-03-10 20:00", "RRULE:FREQ=DAILY"), calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.Set(testNow.AddDate(0, 3, 0))
	var wg sync.WaitGroup
	made := make([]int, 4)
	for i := range made {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := cals[i%2].ExtendSeries(system)
			if err != nil {
				t.Error(err)
			}
			made[i] = n
		}()
	}
	wg.Wait()
	page, err := store.ListPosts(context.Background(), &calendar.PostQuery{Kind: calendar.KindEvent, PostParent: ser.ID})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, o := range page.Records {
		if seen[o.RecurrenceID.Unix()] {
			t.Fatalf("recurrence id %v twice", o.RecurrenceID)
		}
		seen[o.RecurrenceID.Unix()] = true
	}
	// Created: 2026-03-10 … 04-05 (27, horizon one month after now);
	// extended three months later: up to 07-05, 91 more.
	if sum := made[0] + made[1] + made[2] + made[3]; sum != 91 || len(page.Records) != 27+91 {
		t.Errorf("extenders made %v (sum %d, want 91); %d occurrences, want 118", made, sum, len(page.Records))
	}
}
