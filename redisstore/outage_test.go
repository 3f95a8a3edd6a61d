package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/redisstore/redisproc"
	"github.com/redis/go-redis/v9"
)

// A Redis killed in the middle of writes — single-record ones and
// multi-record Applies: every error is "unavailable", no write is partial (a
// category each Apply creates is there exactly when the event it creates
// with it is), and the same Store works again once Redis is back.
func TestOutageAndRecovery(t *testing.T) {
	// go-redis logs every failed dial; send those to the test log, and back
	// to the standard logger afterwards.
	redis.SetLogger(testLogger{t})
	t.Cleanup(func() { redis.SetLogger(stdLogger{}) })
	// An fsync-always append-only file, so that a kill -9 keeps every
	// acknowledged write.
	r := redisproc.Start(t, "--appendonly", "yes", "--appendfsync", "always")
	c := redis.NewClient(&redis.Options{Addr: r.Addr, DialTimeout: 200 * time.Millisecond,
		ReadTimeout: time.Second, WriteTimeout: time.Second, MaxRetries: 1})
	t.Cleanup(func() { c.Close() })
	s, err := New(c, WithPrefix("outage"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	venue := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "hall"})
	cat := mustTerm(t, s, calendar.TaxonomyCategory, "music", 0)

	// Writers create linked events and delete some, until Redis dies.
	var (
		wg         sync.WaitGroup
		mu         sync.Mutex
		wrong      []error
		ok, failed atomic.Int64
		stopped    = make(chan struct{})
	)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stopped:
					return
				default:
				}
				p := event("e"+strconv.Itoa(w), t0.Add(time.Duration(i)*time.Minute))
				p.VenueIDs, p.CategoryIDs = []int64{venue.ID}, []int64{cat.ID}
				var err error
				if i%2 == 0 {
					var got *calendar.PostRecord
					got, err = s.CreatePost(ctx, p)
					if err == nil && i%3 == 0 {
						err = s.DeletePost(ctx, got.ID, 0)
					}
				} else {
					p.VenueIDs, p.CategoryIDs = []int64{calendar.StepRef(0)}, []int64{cat.ID, calendar.StepRef(1)}
					_, err = s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
						{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish,
							Date: t0, Slug: "hall", Lang: "en", Title: calendar.Text{"en": fmt.Sprint("Hall ", i%3)}}, Now: t0},
						{Op: calendar.OpCreateTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Parent: cat.ID,
							Slug: "c", Lang: "en", Name: calendar.Text{"en": fmt.Sprintf("C %d %d", w, i)}}},
						{Op: calendar.OpCreatePost, Post: p},
					}})
				}
				if err == nil {
					ok.Add(1)
				} else {
					failed.Add(1)
					if !errors.Is(err, calendar.ErrUnavailable) {
						mu.Lock()
						wrong = append(wrong, err)
						mu.Unlock()
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	r.Kill()

	if _, err := s.GetPost(ctx, venue.ID); !errors.Is(err, calendar.ErrUnavailable) {
		t.Errorf("GetPost while Redis is down: %v, want ErrUnavailable", err)
	}
	if _, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent}); !errors.Is(err, calendar.ErrUnavailable) {
		t.Errorf("ListPosts while Redis is down: %v, want ErrUnavailable", err)
	}
	if err := s.DeleteTerm(ctx, cat.ID, 0); !errors.Is(err, calendar.ErrUnavailable) {
		t.Errorf("DeleteTerm while Redis is down: %v, want ErrUnavailable", err)
	}
	close(stopped)
	wg.Wait()
	t.Logf("writers: %d operations succeeded, %d failed with Redis down", ok.Load(), failed.Load())
	if ok.Load() == 0 || failed.Load() == 0 {
		t.Fatalf("the kill did not land among the writes")
	}
	for _, err := range wrong {
		t.Errorf("writer error not wrapping ErrUnavailable: %v", err)
	}

	r.Start(t)
	// The same Store, same client: go-redis reconnects and the scripts are
	// loaded again (EVALSHA falls back to EVAL on the fresh server).
	var got *calendar.PostRecord
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if got, err = s.CreatePost(ctx, event("after", t0)); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("store did not recover: %v", err)
		}
	}
	if _, err := s.GetPost(ctx, got.ID); err != nil {
		t.Fatalf("read after recovery: %v", err)
	}
	checkConsistency(t, c, s)
	// No partial Apply: every category of an Apply has the one event the
	// same Apply created, and every event in a sub-category has it.
	subs, err := s.ListTerms(ctx, calendar.TaxonomyCategory)
	if err != nil {
		t.Fatal(err)
	}
	applied := 0
	for _, sub := range subs {
		if sub.ID == cat.ID {
			continue
		}
		applied++
		page, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, CategoryIDs: []int64{sub.ID}})
		if err != nil || page.Total != 1 || len(page.Records[0].VenueIDs) != 1 {
			t.Fatalf("category %q of an Apply has %v events (%v): a partial write", sub.Name["en"], page, err)
		}
	}
	if applied == 0 {
		t.Fatal("no multi-record write succeeded before the kill")
	}
	t.Logf("%d multi-record writes kept", applied)
	if err := s.DeleteTerm(ctx, cat.ID, 0); err != nil {
		t.Fatalf("delete after recovery: %v", err)
	}
	page, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, CategoryIDs: []int64{cat.ID}})
	if err != nil || page.Total != 0 {
		t.Fatalf("events still in the deleted category: %v, %v", page, err)
	}
	checkConsistency(t, c, s)
}

type testLogger struct{ t *testing.T }

func (l testLogger) Printf(_ context.Context, format string, v ...any) { l.t.Logf(format, v...) }

type stdLogger struct{}

func (stdLogger) Printf(_ context.Context, format string, v ...any) { log.Printf(format, v...) }

// A deadline interrupts a round trip Redis is slow to answer: the call
// returns the context's error in time, and the store works afterwards.
func TestDeadlineWhileRedisIsBusy(t *testing.T) {
	r := redisproc.Start(t, "--enable-debug-command", "yes")
	c := redis.NewClient(&redis.Options{Addr: r.Addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { c.Close() })
	s, err := New(c, WithPrefix("deadline"))
	if err != nil {
		t.Fatal(err)
	}
	p := mustCreate(t, s, event("e", t0))

	busy := make(chan error, 1)
	go func() { busy <- c.Do(context.Background(), "DEBUG", "SLEEP", "1").Err() }()
	time.Sleep(100 * time.Millisecond) // let the sleep start
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("list while Redis sleeps: %v, want context.DeadlineExceeded", err)
	}
	select {
	case <-busy:
		t.Fatal("the list returned only after Redis woke up: the deadline did not interrupt the round trip")
	default:
	}
	if err := <-busy; err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetPost(context.Background(), p.ID); err != nil {
		t.Fatalf("after the deadline: %v", err)
	}
}
