package boltstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
	bolt "go.etcd.io/bbolt"
)

// BenchmarkRepository runs the shared benchmarks. The factory opens the file
// WithNoSync so that seeding 100,000 events takes seconds rather than many
// minutes of fsyncs; that also makes the Create and Update figures those of
// unsynced writes (see BenchmarkCreateDurable for the durable cost). When a
// size is done, it logs the file size and the time a fresh Open of that file
// and a first read take.
func BenchmarkRepository(b *testing.B) {
	storagetest.Bench(b, func(tb testing.TB) calendar.Repository {
		path := filepath.Join(tb.TempDir(), "bench.db")
		s, err := Open(path, WithNoSync())
		if err != nil {
			tb.Fatalf("Open: %v", err)
		}
		tb.Cleanup(func() {
			if err := s.db.Sync(); err != nil {
				tb.Errorf("Sync: %v", err)
			}
			var used int64 // pages in use; the file grows in 16 MiB steps
			s.db.View(func(tx *bolt.Tx) error { used = tx.Size(); return nil })
			s.Close()
			// Printed rather than logged: benchmark logs from a cleanup
			// are dropped.
			fi, err := os.Stat(path)
			if err != nil {
				tb.Fatal(err)
			}
			fmt.Printf("%s: file %.1f MiB (%.1f MiB of pages in use), reopen + first read %v\n",
				tb.Name(), float64(fi.Size())/(1<<20), float64(used)/(1<<20), reopen(tb, path))
		})
		return s
	})
}

// reopen opens the file at path, reads one post and closes it, returning
// how long the Open and the read took.
func reopen(tb testing.TB, path string) time.Duration {
	start := time.Now()
	s, err := Open(path)
	if err != nil {
		tb.Fatalf("reopen: %v", err)
	}
	if _, err := s.GetPost(context.Background(), 1); err != nil {
		tb.Fatalf("read after reopen: %v", err)
	}
	d := time.Since(start)
	s.Close()
	return d
}

// BenchmarkReopen measures opening a file of 100,000 events and reading
// one of them: what a server restart costs the store.
func BenchmarkReopen(b *testing.B) {
	path := filepath.Join(b.TempDir(), "reopen.db")
	s, err := Open(path, WithNoSync())
	if err != nil {
		b.Fatal(err)
	}
	seedBulk(b, s, 100_000, 730*24*time.Hour)
	s.db.Sync()
	s.Close()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fi.Size())/(1<<20), "MiB")
	b.ResetTimer()
	for b.Loop() {
		reopen(b, path)
	}
}

// BenchmarkCreateDurable measures a create with fsync, the default.
func BenchmarkCreateDurable(b *testing.B) {
	s := openTemp(b)
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := s.CreatePost(ctx, event(fmt.Sprint("durable-", i), base.Add(time.Duration(i)*time.Minute))); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkNestedCreate creates an event with a new venue, a new organizer
// and 3 new terms: as one Apply (one transaction, one fsync) and the old way,
// as six single-record writes. sync=off shows the cost apart from fsync.
func BenchmarkNestedCreate(b *testing.B) {
	for _, durable := range []bool{true, false} {
		var opts []Option
		mode := "sync=on"
		if !durable {
			opts, mode = append(opts, WithNoSync()), "sync=off"
		}
		b.Run(mode+"/Apply", func(b *testing.B) {
			s := openTemp(b, opts...)
			ctx := context.Background()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := s.Apply(ctx, nestedWrite(i)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(mode+"/SeparateWrites", func(b *testing.B) {
			s := openTemp(b, opts...)
			ctx := context.Background()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				w := nestedWrite(i)
				ids := make([]int64, 0, len(w.Steps))
				for _, st := range w.Steps[:len(w.Steps)-1] {
					if st.Post != nil {
						p, err := s.CreatePost(ctx, st.Post)
						if err != nil {
							b.Fatal(err)
						}
						ids = append(ids, p.ID)
						continue
					}
					t, err := s.CreateTerm(ctx, st.Term)
					if err != nil {
						b.Fatal(err)
					}
					ids = append(ids, t.ID)
				}
				e := w.Steps[len(w.Steps)-1].Post
				e.VenueIDs, e.OrganizerIDs = ids[:1], ids[1:2]
				e.CategoryIDs, e.TagIDs = ids[2:3], ids[3:]
				if _, err := s.CreatePost(ctx, e); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// nestedWrite is the i-th event with a new venue, organizer, category and
// two tags, all created by name.
func nestedWrite(i int) *calendar.Write {
	e := event(fmt.Sprint("nested-", i), base.Add(time.Duration(i)*time.Minute))
	e.VenueIDs, e.OrganizerIDs = []int64{calendar.StepRef(0)}, []int64{calendar.StepRef(1)}
	e.CategoryIDs, e.TagIDs = []int64{calendar.StepRef(2)}, []int64{calendar.StepRef(3), calendar.StepRef(4)}
	return &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpEnsurePost, Post: named(calendar.KindVenue, fmt.Sprint("Venue ", i)), Now: base},
		{Op: calendar.OpEnsurePost, Post: named(calendar.KindOrganizer, fmt.Sprint("Organizer ", i)), Now: base},
		{Op: calendar.OpEnsureTerm, Term: namedTerm(calendar.TaxonomyCategory, fmt.Sprint("Category ", i), 0)},
		{Op: calendar.OpEnsureTerm, Term: namedTerm(calendar.TaxonomyTag, fmt.Sprint("Tag ", i, " a"), 0)},
		{Op: calendar.OpEnsureTerm, Term: namedTerm(calendar.TaxonomyTag, fmt.Sprint("Tag ", i, " b"), 0)},
		{Op: calendar.OpCreatePost, Post: e},
	}}
}

// BenchmarkNewTags creates an event with 100 new tag names on stores already
// holding 100 and 10,000 tags. Apply: one write whose ensure steps look each
// name up in the name index, so a name costs the same whatever the number of
// tags (sync=off shows it without the fsync's noise). OldWay, for
// comparison: what the calendar did before Apply and the name index — per
// name, read every tag to look for it, then create it in its own write; then
// the event.
func BenchmarkNewTags(b *testing.B) {
	const perEvent = 100
	for _, mode := range []string{"sync=on", "sync=off"} {
		for _, held := range []int{100, 10_000} {
			for _, way := range []string{"Apply", "OldWay"} {
				if way == "OldWay" && mode == "sync=off" {
					continue
				}
				b.Run(fmt.Sprintf("%s/tags=%d/%s", mode, held, way), func(b *testing.B) {
					var opts []Option
					if mode == "sync=off" {
						opts = append(opts, WithNoSync())
					}
					s := openTemp(b, opts...)
					seedTags(b, s, held)
					create := createTagsApply
					if way == "OldWay" {
						create = createTagsOldWay
					}
					ctx := context.Background()
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						names := make([]string, perEvent)
						for j := range names {
							names[j] = fmt.Sprintf("new %d %d", i, j)
						}
						ev, tags := create(b, s, event(fmt.Sprint("tagged-", i), base), names)
						// Remove what the write made, untimed, so that the
						// store holds the same number of tags at every
						// iteration.
						b.StopTimer()
						undo := []calendar.Step{{Op: calendar.OpDeletePost, ID: ev}}
						for _, id := range tags {
							undo = append(undo, calendar.Step{Op: calendar.OpDeleteTerm, ID: id})
						}
						if _, err := s.Apply(ctx, &calendar.Write{Steps: undo}); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
						i++
					}
				})
			}
		}
	}
}

func seedTags(b *testing.B, s *Store, n int) {
	for done := 0; done < n; done += 1000 {
		var steps []calendar.Step
		for j := done; j < min(done+1000, n); j++ {
			steps = append(steps, calendar.Step{Op: calendar.OpCreateTerm, Term: namedTerm(calendar.TaxonomyTag, fmt.Sprint("held ", j), 0)})
		}
		if _, err := s.Apply(context.Background(), &calendar.Write{Steps: steps}); err != nil {
			b.Fatal(err)
		}
	}
}

// createTagsApply stores e tagged with new tags of these names in one Apply
// and returns the ids of the event and the tags.
func createTagsApply(b *testing.B, s *Store, e *calendar.PostRecord, names []string) (int64, []int64) {
	steps := make([]calendar.Step, 0, len(names)+1)
	for j, name := range names {
		steps = append(steps, calendar.Step{Op: calendar.OpEnsureTerm, Term: namedTerm(calendar.TaxonomyTag, name, 0)})
		e.TagIDs = append(e.TagIDs, calendar.StepRef(j))
	}
	steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: e})
	res, err := s.Apply(context.Background(), &calendar.Write{Steps: steps})
	if err != nil {
		b.Fatal(err)
	}
	tags := make([]int64, len(names))
	for j := range names {
		tags[j] = res.Steps[j].Term.ID
	}
	return res.Steps[len(names)].Post.ID, tags
}

// createTagsOldWay does the same the way the calendar did before: a scan of
// every tag per name, one write per tag, then the event.
func createTagsOldWay(b *testing.B, s *Store, e *calendar.PostRecord, names []string) (int64, []int64) {
	ctx := context.Background()
	for _, name := range names {
		all, err := s.ListTerms(ctx, calendar.TaxonomyTag)
		if err != nil {
			b.Fatal(err)
		}
		key := calendar.NameKey(name)
		var found int64
		for _, t := range all {
			if calendar.NameKey(t.Name.Get(t.Lang, t.Lang)) == key {
				found = t.ID
				break
			}
		}
		if found == 0 {
			t, err := s.CreateTerm(ctx, namedTerm(calendar.TaxonomyTag, name, 0))
			if err != nil {
				b.Fatal(err)
			}
			found = t.ID
		}
		e.TagIDs = append(e.TagIDs, found)
	}
	p, err := s.CreatePost(ctx, e)
	if err != nil {
		b.Fatal(err)
	}
	return p.ID, slices.Clone(e.TagIDs)
}
