package redisstore

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// tripCounter is a go-redis hook counting round trips: one per command sent
// alone, one per pipeline, none for the handshake of a new connection.
type tripCounter struct{ n atomic.Int64 }

func (h *tripCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *tripCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if cmd.Name() != "hello" {
			h.n.Add(1)
		}
		return next(ctx, cmd)
	}
}

func (h *tripCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if !handshake(cmds) {
			h.n.Add(1)
		}
		return next(ctx, cmds)
	}
}

// trips runs op and returns how many round trips it took.
func (h *tripCounter) trips(t *testing.T, op func() error) int {
	t.Helper()
	before := h.n.Load()
	if err := op(); err != nil {
		t.Fatal(err)
	}
	return int(h.n.Load() - before)
}

func TestRoundTrips(t *testing.T) {
	t.Run("single", func(t *testing.T) { testRoundTrips(t, singleClient(t)) })
	t.Run("cluster", func(t *testing.T) { testRoundTrips(t, clusterClient(t)) })
}

func testRoundTrips(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	const batch = 100
	prefix := testPrefix(t, c)
	s, err := New(c, WithPrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	// small shares the calendar but fetches list candidates 100 at a time,
	// and always takes the candidate path (an exact window answers in one
	// round trip whatever the batch).
	small, err := New(c, WithPrefix(prefix), WithFetchBatch(batch))
	if err != nil {
		t.Fatal(err)
	}
	small.noWindow = true
	h := &tripCounter{}
	c.AddHook(h)

	// Warm the server's script cache, so that EVALSHA does not fall back to
	// EVAL (one more round trip, once per server start).
	venue := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "v"})
	cat := mustTerm(t, s, calendar.TaxonomyCategory, "c", 0)
	if _, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindVenue}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PostBySlug(ctx, calendar.KindVenue, "v"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListTerms(ctx, calendar.TaxonomyCategory); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PostByUID(ctx, calendar.KindEvent, "warm-up"); !errors.Is(err, calendar.ErrNotFound) {
		t.Fatal(err)
	}
	if _, err := s.TermsByName(ctx, calendar.TaxonomyCategory, "warm-up"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindVenue, Name: "warm-up"}); err != nil {
		t.Fatal(err)
	}

	check := func(name string, limit int, op func() error) int {
		t.Helper()
		n := h.trips(t, op)
		t.Logf("%-40s %d round trips", name, n)
		if n > limit {
			t.Errorf("%s: %d round trips, want ≤ %d", name, n, limit)
		}
		return n
	}
	var last *calendar.PostRecord
	for i := range 250 {
		p := event(fmt.Sprint("e", i), t0.Add(time.Duration(i)*time.Minute))
		p.VenueIDs, p.CategoryIDs = []int64{venue.ID}, []int64{cat.ID}
		check("CreatePost", 1, func() (err error) { last, err = s.CreatePost(ctx, p); return err })
	}
	check("GetPost", 1, func() error { _, err := s.GetPost(ctx, last.ID); return err })
	check("GetPosts", 1, func() error { _, err := s.GetPosts(ctx, []int64{last.ID, venue.ID, 12345}); return err })
	check("PostBySlug", 1, func() error { _, err := s.PostBySlug(ctx, calendar.KindEvent, last.Slug); return err })
	check("GetTerm", 1, func() error { _, err := s.GetTerm(ctx, cat.ID); return err })
	check("TermBySlug", 1, func() error { _, err := s.TermBySlug(ctx, calendar.TaxonomyCategory, "c"); return err })
	check("ListTerms", 1, func() error { _, err := s.ListTerms(ctx, calendar.TaxonomyCategory); return err })
	up := last.Clone()
	up.Start = up.Start.Add(time.Hour)
	check("UpdatePost", 2, func() (err error) { last, err = s.UpdatePost(ctx, up); return err })
	tup := cat.Clone()
	tup.Name = calendar.Text{"en": "renamed"}
	check("UpdateTerm", 2, func() (err error) { cat, err = s.UpdateTerm(ctx, tup); return err })
	check("TermsByName", 1, func() error { _, err := s.TermsByName(ctx, calendar.TaxonomyCategory, "Renamed"); return err })
	check("ListPosts by Name", 1, func() error {
		_, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindVenue, Name: "v"})
		return err
	})
	check("PostByUID", 1, func() error {
		_, err := s.PostByUID(ctx, calendar.KindEvent, "none")
		if errors.Is(err, calendar.ErrNotFound) {
			return nil
		}
		return err
	})

	// Apply: one script for creates and ensures, one more round trip when it
	// updates, two more when it deletes — whatever the number of steps.
	for _, n := range []int{1, 4, 16, 64} {
		var steps []calendar.Step
		for i := range n {
			switch i % 4 {
			case 0:
				steps = append(steps, calendar.Step{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue,
					Status: calendar.StatusPublish, Date: t0, Slug: "v", Lang: "en", Title: calendar.Text{"en": fmt.Sprint("Hall ", n, i)}}})
			case 1:
				steps = append(steps, calendar.Step{Op: calendar.OpEnsureTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag,
					Slug: "t", Lang: "en", Name: calendar.Text{"en": fmt.Sprint("Tag ", n, i)}}})
			case 2:
				steps = append(steps, calendar.Step{Op: calendar.OpCreateTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory,
					Slug: "c", Lang: "en", Name: calendar.Text{"en": fmt.Sprint("Cat ", n, i)}}})
			default:
				ev := event(fmt.Sprint("e", n, i), t0)
				ev.VenueIDs, ev.TagIDs, ev.CategoryIDs = []int64{calendar.StepRef(i - 3)}, []int64{calendar.StepRef(i - 2)}, []int64{calendar.StepRef(i - 1)}
				steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: ev})
			}
		}
		var res *calendar.WriteResult
		check(fmt.Sprintf("Apply %d creates and ensures", n), 1, func() (err error) {
			res, err = s.Apply(ctx, &calendar.Write{Steps: steps})
			return err
		})
		var ups, dels []calendar.Step
		for i, r := range res.Steps {
			switch {
			case r.Post != nil && r.Post.Kind == calendar.KindEvent:
				p := r.Post.Clone()
				p.Title = calendar.Text{"en": "again"}
				ups = append(ups, calendar.Step{Op: calendar.OpUpdatePost, Post: p})
			case r.Term != nil && i%4 == 1:
				dels = append(dels, calendar.Step{Op: calendar.OpDeleteTerm, ID: r.Term.ID})
			}
		}
		if len(ups) > 0 {
			check(fmt.Sprintf("Apply %d updates", len(ups)), 2, func() error {
				_, err := s.Apply(ctx, &calendar.Write{Steps: append(ups, steps[0])})
				return err
			})
		}
		check(fmt.Sprintf("Apply %d deletes with cascades", len(dels)), 3, func() error {
			_, err := s.Apply(ctx, &calendar.Write{Steps: append(dels, steps[0])})
			return err
		})
	}

	// Lists: at most 3 round trips whatever the page size, as long as the
	// candidates fit in one fetch batch.
	narrow := calendar.TimeRange{From: t0, To: t0.Add(90 * time.Minute)}
	for _, limit := range []int{1, 10, 50, 0} {
		for name, q := range map[string]calendar.PostQuery{
			"window":   {Start: narrow},
			"category": {CategoryIDs: []int64{cat.ID}, Start: narrow},
			"ids":      {IDs: []int64{last.ID, venue.ID}},
			"search":   {Search: []string{"e1"}, Start: narrow},
		} {
			q.Kind, q.Limit = calendar.KindEvent, limit
			check(fmt.Sprintf("ListPosts %s limit %d", name, limit), 3, func() error { _, err := s.ListPosts(ctx, &q); return err })
		}
	}
	// An event list the exact window path answers (window.go) takes one
	// round trip, total and records included.
	check("ListPosts exact window", 1, func() error {
		_, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Limit: 5, ExcludeHidden: true,
			End: calendar.TimeRange{From: t0.Add(time.Hour)}, Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}})
		return err
	})
	// Beyond one batch, each further batch costs one round trip: the
	// candidate script, ⌈candidates/batch⌉ pipelined meta fetches, the page.
	n := check("ListPosts 250 candidates, batch 100", 1+3+1, func() error {
		_, err := small.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Limit: 5})
		return err
	})
	if n != 1+3+1 {
		t.Errorf("batched list took %d round trips, want exactly 5", n)
	}
	check("DeleteTerm (250 linked events)", 3, func() error { return s.DeleteTerm(ctx, cat.ID, 0) })
	check("DeletePost (venue of 250 events)", 3, func() error { return s.DeletePost(ctx, venue.ID, 0) })
	check("DeletePost (event)", 3, func() error { return s.DeletePost(ctx, last.ID, 0) })
}

// handshake reports whether cmds is the CLIENT SETINFO pipeline go-redis
// sends on every new connection (like HELLO, it is connection setup, not a
// round trip of the operation being counted).
func handshake(cmds []redis.Cmder) bool {
	return len(cmds) > 0 && cmds[0].Name() == "client" && len(cmds[0].Args()) > 1 && cmds[0].Args()[1] == "setinfo"
}
