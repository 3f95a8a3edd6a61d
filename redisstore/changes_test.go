package redisstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// Two stores on separate clients write one calendar concurrently: the log
// holds one change per write, gap-free, and a waiter on one store is woken
// by a write through the other (pub/sub across connections, as across
// processes).
func TestChangesTwoClients(t *testing.T) {
	t.Run("single", func(t *testing.T) { testChangesTwoClients(t, singleClient) })
	t.Run("cluster", func(t *testing.T) { testChangesTwoClients(t, clusterClient) })
}

func testChangesTwoClients(t *testing.T, connect func(testing.TB) redis.UniversalClient) {
	ctx := context.Background()
	stores, _ := twoStores(t, connect)

	woken := make(chan error, 1)
	go func() {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		woken <- stores[0].WaitChanges(wctx, 0)
	}()
	time.Sleep(50 * time.Millisecond)
	first := mustCreate(t, stores[1], event("wake", t0))
	select {
	case err := <-woken:
		if err != nil {
			t.Fatalf("WaitChanges: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a write through the other client did not wake the waiter")
	}

	const workers, each = 3, 10
	var wg sync.WaitGroup
	var mu sync.Mutex
	ids := map[int64]bool{first.ID: true}
	for _, s := range stores {
		for w := range workers {
			wg.Go(func() {
				for i := range each {
					tr := &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: fmt.Sprintf("t%d-%d", w, i),
						Name: calendar.Text{"en": fmt.Sprintf("T %p %d %d", s, w, i)}, Lang: "en"}
					got, err := s.CreateTerm(ctx, tr)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					ids[-got.ID] = true // terms negative, apart from post ids
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	var seen []calendar.Change
	for after := int64(0); ; {
		cs, err := stores[1].ChangesAfter(ctx, after, 13)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 {
			break
		}
		for _, c := range cs {
			if c.Seq != after+1 {
				t.Fatalf("after %d came %d", after, c.Seq)
			}
			after = c.Seq
		}
		seen = append(seen, cs...)
	}
	if len(seen) != len(ids) {
		t.Fatalf("%d changes for %d writes", len(seen), len(ids))
	}
	for _, c := range seen {
		id := c.ID
		if c.Kind == calendar.KindTag {
			id = -id
		}
		if !ids[id] || c.Action != calendar.ChangeCreated {
			t.Errorf("unexpected change %+v", c)
		}
		delete(ids, id)
	}
}

// Writes trim the log to the retention's count inside the apply script.
func TestChangesRetentionByCount(t *testing.T) {
	ctx := context.Background()
	c := singleClient(t)
	s, err := New(c, WithPrefix(testPrefix(t, c)), WithChangeRetention(calendar.ChangeRetention{MaxCount: 3}))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		mustCreate(t, s, event(fmt.Sprint("e", i), t0))
	}
	if n, err := c.ZCard(ctx, s.k.changeLog()).Result(); err != nil || n != 3 {
		t.Fatalf("log length %d, %v; want 3", n, err)
	}
	if _, err := s.ChangesAfter(ctx, 1, 10); !errors.Is(err, calendar.ErrChangesExpired) {
		t.Errorf("ChangesAfter(1): %v, want expired", err)
	}
	cs, err := s.ChangesAfter(ctx, 2, 10)
	if err != nil || len(cs) != 3 || cs[0].Seq != 3 {
		t.Errorf("ChangesAfter(2): %v, %v", cs, err)
	}
}
