package storagetest

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// benchBase is the first instant of the two years benchmark events span;
// benchNow, the query instant, lies one year in.
var (
	benchBase = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	benchNow  = benchBase.Add(365*24*time.Hour + 13*time.Hour + 17*time.Minute)
	benchSpan = 730 * 24 * time.Hour
)

// benchSeeders is how many goroutines seed a benchmark repository, so that
// drivers paying a round trip or an fsync per write seed in bearable time.
const benchSeeders = 4

// benchData is a seeded benchmark repository.
type benchData struct {
	r          calendar.Repository
	ids        []int64
	slugs      []string
	categories []int64
	venues     []int64
	created    int // events created by the Create benchmark so far
}

// benchSizes are the calendar sizes Bench seeds; 1,000,000 is for memstore
// (go test ./memstore -bench . -storagetest.sizes 10000,100000,1000000).
var benchSizes = flag.String("storagetest.sizes", "10000,100000", "calendar sizes (events) of the shared storage benchmarks, comma-separated")

// Bench runs the shared benchmarks at 10,000 and 100,000 events (sizes
// above 10,000 are skipped with -short; -storagetest.sizes picks others):
// sub-benchmarks events=N/GetByID, GetBySlug, Update, ListDefaultWindow,
// ListDefaultPage50, ListDefaultCount (the total only), ListWeek,
// ListFullWindow, ListNarrowWindow, ListByCategory and Create. Each size is seeded once, through the
// Repository interface only, with deterministic data: events spread
// uniformly over two years, 20 categories, 50 venues, 90% published. Create
// runs last so that the events it adds do not skew the lists.
func Bench(b *testing.B, newRepo Factory) {
	for _, size := range strings.Split(*benchSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(size))
		if err != nil {
			b.Fatalf("-storagetest.sizes: %v", err)
		}
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			if n > 10_000 && testing.Short() {
				b.Skipf("%d events skipped with -short", n)
			}
			d := seedBench(b, newRepo(b), n)
			b.Run("GetByID", d.benchGetByID)
			b.Run("GetBySlug", d.benchGetBySlug)
			b.Run("Update", d.benchUpdate)
			b.Run("ListDefaultWindow", d.benchList(defaultWindow()))
			b.Run("ListDefaultPage50", d.benchList(page50()))
			b.Run("ListDefaultCount", d.benchList(countOnly()))
			b.Run("ListWeek", d.benchList(week()))
			b.Run("ListFullWindow", d.benchList(fullWindow()))
			b.Run("ListNarrowWindow", d.benchList(narrowWindow()))
			b.Run("ListByCategory", d.benchList(byCategory(d.categories[3])))
			b.Run("Create", d.benchCreate)
		})
	}
}

// benchEvent returns the i-th benchmark event, the same on every run.
func benchEvent(rng *rand.Rand, slug string, categories, venues []int64) *calendar.PostRecord {
	e := newEvent(slug, randomInstant(rng, benchBase, benchSpan))
	e.End = e.Start.Add(time.Duration(1+rng.IntN(4)) * time.Hour)
	e.Featured = rng.IntN(10) == 0
	e.Password = ""
	if rng.IntN(10) == 0 {
		e.Status = calendar.StatusDraft
	}
	e.VenueIDs = []int64{pick(rng, venues)}
	e.CategoryIDs = []int64{pick(rng, categories)}
	if rng.IntN(3) == 0 {
		e.CategoryIDs = append(e.CategoryIDs, pick(rng, categories))
	}
	return e
}

func seedBench(b *testing.B, r calendar.Repository, n int) *benchData {
	b.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(2030, uint64(n)))
	d := &benchData{r: r, ids: make([]int64, n), slugs: make([]string, n)}
	for i := 0; i < 20; i++ {
		c := mustCreateTerm(b, r, newCategory(fmt.Sprintf("category-%d", i), 0))
		d.categories = append(d.categories, c.ID)
	}
	for i := 0; i < 50; i++ {
		v := mustCreatePost(b, r, newVenue(fmt.Sprintf("venue-%d", i)))
		d.venues = append(d.venues, v.ID)
	}
	// The events are drawn before seeding starts, so the data does not
	// depend on how the seeders interleave.
	events := make([]*calendar.PostRecord, n)
	for i := range events {
		events[i] = benchEvent(rng, fmt.Sprintf("event-%d", i), d.categories, d.venues)
	}
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	for w := 0; w < benchSeeders; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += benchSeeders {
				p, err := r.CreatePost(ctx, events[i])
				if err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				d.ids[i], d.slugs[i] = p.ID, p.Slug
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		b.Fatalf("seeding %d events: %v", n, firstErr)
	}
	return d
}

func (d *benchData) benchGetByID(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := d.r.GetPost(ctx, d.ids[i%len(d.ids)]); err != nil {
			b.Fatal(err)
		}
		i += 7919 // a prime stride: no locality a cache could exploit
	}
}

func (d *benchData) benchGetBySlug(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := d.r.PostBySlug(ctx, calendar.KindEvent, d.slugs[i%len(d.slugs)]); err != nil {
			b.Fatal(err)
		}
		i += 7919
	}
}

// benchUpdate rewrites the titles of 1,024 events in turn, keeping their
// start and links, so the data the lists see stays the same. The records
// are read once, before the clock starts; each update's result carries the
// version the next one needs.
func (d *benchData) benchUpdate(b *testing.B) {
	ctx := context.Background()
	recs := make([]*calendar.PostRecord, min(1024, len(d.ids)))
	for i := range recs {
		p, err := d.r.GetPost(ctx, d.ids[(i*7919)%len(d.ids)])
		if err != nil {
			b.Fatal(err)
		}
		recs[i] = p
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := recs[i%len(recs)]
		p.Title["en"] = "Updated " + strconv.Itoa(i)
		got, err := d.r.UpdatePost(ctx, p)
		if err != nil {
			b.Fatal(err)
		}
		recs[i%len(recs)] = got
		i++
	}
}

// benchCreate adds events within the seeded window. The records are drawn
// before the clock starts and reused (a repository keeps no reference to
// its input); only the slug changes, so that no slug clashes.
func (d *benchData) benchCreate(b *testing.B) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, uint64(d.created)))
	pool := make([]*calendar.PostRecord, 1024)
	for i := range pool {
		pool[i] = benchEvent(rng, "", d.categories, d.venues)
	}
	b.ReportAllocs()
	for b.Loop() {
		e := pool[d.created%len(pool)]
		e.Slug = "new-event-" + strconv.Itoa(d.created)
		d.created++
		if _, err := d.r.CreatePost(ctx, e); err != nil {
			b.Fatal(err)
		}
	}
}

// benchList runs one list query repeatedly and reports how many events it
// matched (metric "matches"), so figures of different drivers are seen to
// answer the same question.
func (d *benchData) benchList(q calendar.PostQuery) func(b *testing.B) {
	return func(b *testing.B) {
		ctx := context.Background()
		b.ReportAllocs()
		var total int
		for b.Loop() {
			page, err := d.r.ListPosts(ctx, &q)
			if err != nil {
				b.Fatal(err)
			}
			total = page.Total
		}
		b.ReportMetric(float64(total), "matches")
	}
}

// publicPage is page 1 of 9 published events seen at benchNow.
func publicPage() calendar.PostQuery {
	return calendar.PostQuery{
		Kind:    calendar.KindEvent,
		Now:     benchNow,
		Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}},
		Limit:   9,
	}
}

// defaultWindow is the list a client gets without dates: events not ended
// before today 00:00 and starting within 24 months.
func defaultWindow() calendar.PostQuery {
	q := publicPage()
	today := benchNow.Truncate(24 * time.Hour)
	q.End = calendar.TimeRange{From: today}
	q.Start = calendar.TimeRange{To: benchNow.AddDate(0, 24, 0)}
	return q
}

// fullWindow is the same page without any date restriction: the baseline
// the windows are compared with.
func fullWindow() calendar.PostQuery { return publicPage() }

// narrowWindow restricts Start to one day a month after benchNow.
func narrowWindow() calendar.PostQuery {
	q := publicPage()
	day := benchNow.Truncate(24*time.Hour).AddDate(0, 1, 0)
	q.Start = calendar.TimeRange{From: day, To: day.Add(24 * time.Hour), ToExclusive: true}
	return q
}

// byCategory is the default window restricted to one category.
func byCategory(id int64) calendar.PostQuery {
	q := defaultWindow()
	q.CategoryIDs = []int64{id}
	return q
}

// page50 is the default window, 50 events a page.
func page50() calendar.PostQuery {
	q := defaultWindow()
	q.Limit = 50
	return q
}

// countOnly asks the default window's total alone (as has_events and term
// counts do).
func countOnly() calendar.PostQuery {
	q := defaultWindow()
	q.Limit, q.CountOnly = 0, true
	return q
}

// week is the events starting in the 7 days a month after benchNow.
func week() calendar.PostQuery {
	q := publicPage()
	day := benchNow.Truncate(24*time.Hour).AddDate(0, 1, 0)
	q.Start = calendar.TimeRange{From: day}
	q.End = calendar.TimeRange{To: day.AddDate(0, 0, 7), ToExclusive: true}
	return q
}
