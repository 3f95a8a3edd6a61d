package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/redisstore"
)

// BenchmarkServiceWrites measures the calendar's write path on each driver
// the server offers: an event naming a new venue, organizer, category and
// two tags (six records), and an event naming 100 new tags on a store of
// 10,000 tags. On Redis it also reports the round trips per operation.
// Run the second with -benchtime=20x so every run sees about the same store.
//
//	go test -run '^$' -bench ServiceWrites -benchmem -benchtime=20x ./examples/server
func BenchmarkServiceWrites(b *testing.B) {
	drivers := []struct {
		name string
		open func(b *testing.B, seedTags int) (calendar.Repository, *atomic.Int64)
	}{
		{"mem", func(b *testing.B, seed int) (calendar.Repository, *atomic.Int64) {
			repo := memstore.New()
			seedTags(b, repo, seed)
			return repo, nil
		}},
		{"bolt", func(b *testing.B, seed int) (calendar.Repository, *atomic.Int64) {
			path := filepath.Join(b.TempDir(), "bench.db")
			// Seed without fsync, then measure as the server runs: synced.
			fast, err := boltstore.Open(path, boltstore.WithNoSync())
			if err != nil {
				b.Fatal(err)
			}
			seedTags(b, fast, seed)
			fast.Close()
			st, err := boltstore.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			return st, nil
		}},
		{"redis", func(b *testing.B, seed int) (calendar.Repository, *atomic.Int64) {
			opt, err := redis.ParseURL(redisURL())
			if err != nil {
				b.Fatal(err)
			}
			c := redis.NewClient(opt)
			if err := c.Ping(context.Background()).Err(); err != nil {
				c.Close()
				b.Skipf("no Redis at %s: %v", redisURL(), err)
			}
			prefix := fmt.Sprintf("bench-%d", time.Now().UnixNano())
			b.Cleanup(func() {
				ctx := context.Background()
				iter := c.Scan(ctx, 0, "{"+prefix+"}*", 1000).Iterator()
				for iter.Next(ctx) {
					c.Del(ctx, iter.Val())
				}
				c.Close()
			})
			st, err := redisstore.New(c, redisstore.WithPrefix(prefix))
			if err != nil {
				b.Fatal(err)
			}
			seedTags(b, st, seed)
			trips := &atomic.Int64{}
			c.AddHook(roundTrips{trips})
			return st, trips
		}},
	}
	for _, d := range drivers {
		b.Run(d.name+"/nested-create", func(b *testing.B) {
			repo, trips := d.open(b, 0)
			runWrites(b, repo, trips, nestedCreate)
		})
		b.Run(d.name+"/100-new-tags-on-10k", func(b *testing.B) {
			repo, trips := d.open(b, 10_000)
			runWrites(b, repo, trips, hundredNewTags)
		})
	}
}

// runWrites runs write b.N times through a Service on repo.
func runWrites(b *testing.B, repo calendar.Repository, trips *atomic.Int64, write func(i int) calendar.EventInput) {
	cal := calendar.New(repo)
	ctx := calendar.WithPrincipal(context.Background(), calendar.System)
	b.ReportAllocs()
	if trips != nil {
		trips.Store(0)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := cal.CreateEvent(ctx, write(i), calendar.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if trips != nil {
		b.ReportMetric(float64(trips.Load())/float64(b.N), "roundtrips/op")
	}
}

func benchEvent(title string) calendar.EventInput {
	return calendar.EventInput{Title: calendar.Some(title),
		StartDate: calendar.Some("2030-04-01 20:00"), EndDate: calendar.Some("2030-04-01 22:00")}
}

// nestedCreate names a new venue, organizer, category and two tags.
func nestedCreate(i int) calendar.EventInput {
	in := benchEvent(fmt.Sprintf("Bench %d", i))
	in.Venues = calendar.Some([]calendar.VenueRef{{New: &calendar.VenueInput{Name: calendar.Some(fmt.Sprintf("Bench Hall %d", i))}}})
	in.Organizers = calendar.Some([]calendar.OrganizerRef{{New: &calendar.OrganizerInput{Name: calendar.Some(fmt.Sprintf("Bench Org %d", i))}}})
	in.Categories = calendar.Some([]calendar.TermRef{{Name: fmt.Sprintf("Bench Cat %d", i)}})
	in.Tags = calendar.Some([]calendar.TermRef{{Name: fmt.Sprintf("bench-a-%d", i)}, {Name: fmt.Sprintf("bench-b-%d", i)}})
	return in
}

// hundredNewTags names 100 tags no store holds yet.
func hundredNewTags(i int) calendar.EventInput {
	in := benchEvent(fmt.Sprintf("Tagged %d", i))
	refs := make([]calendar.TermRef, 100)
	for k := range refs {
		refs[k] = calendar.TermRef{Name: fmt.Sprintf("fresh %d %d", i, k)}
	}
	in.Tags = calendar.Some(refs)
	return in
}

// seedTags stores n tags directly in the store.
func seedTags(b *testing.B, repo calendar.Repository, n int) {
	ctx := context.Background()
	for i := range n {
		name := fmt.Sprintf("stored-%d", i)
		if _, err := repo.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Lang: "en",
			Name: calendar.Text{"en": name}, Slug: name}); err != nil {
			b.Fatal(err)
		}
	}
}

// roundTrips counts the commands and pipelines a Redis client sends.
type roundTrips struct{ n *atomic.Int64 }

func (r roundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }

func (r roundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		r.n.Add(1)
		return next(ctx, cmd)
	}
}

func (r roundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		r.n.Add(1)
		return next(ctx, cmds)
	}
}
