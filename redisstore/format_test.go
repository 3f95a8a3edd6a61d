package redisstore

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// A calendar written with an unknown encoding or key layout is refused, on
// write and on reads of the indexes it may lack, and nothing is written.
func TestForeignFormatRefused(t *testing.T) {
	c := singleClient(t)
	s := newTestStore(t, c)
	ctx := context.Background()
	if _, err := s.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "a", Lang: "en", Name: calendar.Text{"en": "A"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Get(ctx, s.k.format()).Result(); got != storeFormat {
		t.Fatalf("format key = %q, want %q", got, storeFormat)
	}
	for _, foreign := range []string{
		"1.1", // the layout before the window indexes: not migratable
		formatOf(storage.FormatVersion+1, layoutVersion), // a newer record encoding
		formatOf(1, layoutVersion+1),                     // a newer layout
	} {
		before := snapshotKeys(t, c, s)
		c.Set(ctx, s.k.format(), foreign, 0)
		before[s.k.format()] = "string " + foreign
		_, err := s.CreatePost(ctx, &calendar.PostRecord{Kind: calendar.KindVenue, Slug: "v", Lang: "en", Title: calendar.Text{"en": "V"}})
		if !errors.Is(err, storage.ErrBadRecord) {
			t.Fatalf("write on format %s: %v", foreign, err)
		}
		if _, err := s.TermsByName(ctx, calendar.TaxonomyTag, "a"); !errors.Is(err, storage.ErrBadRecord) {
			t.Fatalf("name look-up on format %s: %v", foreign, err)
		}
		if _, err := s.PostByUID(ctx, calendar.KindEvent, "x"); !errors.Is(err, storage.ErrBadRecord) {
			t.Fatalf("uid look-up on format %s: %v", foreign, err)
		}
		if d := snapshotKeysDiff(before, snapshotKeys(t, c, s)); d != "" {
			t.Fatalf("a refused calendar changed: %s", d)
		}
	}
}

func snapshotKeysDiff(a, b map[string]string) string {
	for k, v := range a {
		if b[k] != v {
			return k + ": " + v + " → " + b[k]
		}
	}
	for k, v := range b {
		if _, ok := a[k]; !ok {
			return "new key " + k + ": " + v
		}
	}
	return ""
}

// layout2 turns the calendar of s into what the layout-2 driver wrote: no
// name or UID index, format "<encoding>.2".
func layout2(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	for _, pattern := range []string{"pname:*", "tname:*", "uid:*"} {
		for _, k := range scanKeys(t, s.c, s.k.tag+pattern) {
			s.c.Del(ctx, k)
		}
	}
	s.c.Set(ctx, s.k.format(), formatOf(1, 2), 0)
}

// A calendar of layout 2 gets its name and UID indexes by a one-time
// migration, started by whichever operation needs them first; concurrent
// Stores wait for the one migrating, and a migration whose Store died is
// taken over once its lease is gone.
func TestMigrationFromLayout2(t *testing.T) {
	c := singleClient(t)
	ctx := context.Background()
	s := newTestStore(t, c)
	hall := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "hall",
		Lang: "en", Title: calendar.Text{"en": "Town Hall", "fr": "Mairie"}})
	ev := event("e", t0)
	ev.UID = "e@example"
	ev = mustCreate(t, s, ev)
	top := mustTerm(t, s, calendar.TaxonomyCategory, "music", 0)
	sub := mustTerm(t, s, calendar.TaxonomyCategory, "jazz", top.ID)
	want := snapshotKeys(t, c, s)

	check := func(t *testing.T, s *Store) {
		t.Helper()
		if d := snapshotKeysDiff(want, snapshotKeys(t, c, s)); d != "" {
			t.Fatalf("after the migration: %s", d)
		}
		if got, _ := c.Get(ctx, s.k.format()).Result(); got != storeFormat {
			t.Fatalf("format after the migration: %q", got)
		}
	}

	t.Run("by a write", func(t *testing.T) {
		layout2(t, s)
		res, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
			{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Date: t0, Slug: "x", Lang: "fr", Title: calendar.Text{"fr": "MAIRIE"}}, Now: t0},
			{Op: calendar.OpCreateTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "j2", Lang: "en", Name: calendar.Text{"en": "Jazz"}, Parent: top.ID}},
		}})
		var taken *calendar.NameTakenError
		if !errors.As(err, &taken) || taken.ID != sub.ID {
			t.Fatalf("a taken name after the migration: %v (%+v)", err, res)
		}
		check(t, s)
		res, err = s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
			{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Date: t0, Slug: "x", Lang: "fr", Title: calendar.Text{"fr": "MAIRIE"}}, Now: t0},
		}})
		if err != nil || !res.Steps[0].Found || res.Steps[0].Post.ID != hall.ID {
			t.Fatalf("ensure of a name written before the migration: %+v, %v", res, err)
		}
	})
	t.Run("by reads, from two stores at once", func(t *testing.T) {
		layout2(t, s)
		other, _ := New(singleClient(t), WithPrefix(s.k.tag[1:len(s.k.tag)-2]))
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st := []*Store{s, other}[i%2]
				if i%4 < 2 {
					p, err := st.PostByUID(ctx, calendar.KindEvent, "e@example")
					if err == nil && p.ID != ev.ID {
						err = errors.New("wrong post")
					}
					errs[i] = err
					return
				}
				terms, err := st.TermsByName(ctx, calendar.TaxonomyCategory, "JAZZ")
				if err == nil && (len(terms) != 1 || terms[0].ID != sub.ID) {
					err = errors.New("wrong terms")
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("reader %d: %v", i, err)
			}
		}
		check(t, s)
	})
	t.Run("taken over after a dead migrator", func(t *testing.T) {
		layout2(t, s)
		c.Set(ctx, s.k.format(), migratingFormat, 0) // its lease key expired
		page, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindVenue, Name: "town hall"})
		if err != nil || page.Total != 1 || page.Records[0].ID != hall.ID {
			t.Fatalf("name list: %+v, %v", page, err)
		}
		check(t, s)
	})
	t.Run("waits for a live migrator", func(t *testing.T) {
		layout2(t, s)
		c.Set(ctx, s.k.format(), migratingFormat, 0)
		c.Set(ctx, s.k.migrating(), "someone", 0)
		short, cancel := context.WithTimeout(ctx, 200*migrationPoll/50)
		defer cancel()
		if _, err := s.TermsByName(short, calendar.TaxonomyCategory, "jazz"); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("read during another's migration: %v, want to wait until the deadline", err)
		}
		c.Del(ctx, s.k.migrating()) // the lease runs out
		if terms, err := s.TermsByName(ctx, calendar.TaxonomyCategory, "jazz"); err != nil || len(terms) != 1 {
			t.Fatalf("after the lease ran out: %v, %v", terms, err)
		}
		check(t, s)
	})
	checkConsistency(t, c, s)
}
