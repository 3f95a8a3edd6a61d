package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// The HTTP benchmark: the server's own wiring (newServer: router, auth,
// request log, adapter, calendar, driver) on a real loopback listener,
// driven by many concurrent keep-alive clients. Every request is paired with
// a baseline: a bare net/http handler on its own listener that writes the
// byte-identical response (status, headers, body) captured from the server,
// measured in the same run by the same clients. The ratio
// baseline ns/op ÷ server ns/op is the server's throughput as a fraction of
// what the wire and net/http allow; docs/benchmarks.md says how to run and
// read it.
//
//	go test ./examples/server -run '^$' -bench HTTP -benchtime 2s -count 5
//	go test ./examples/server -run '^$' -bench 'HTTP/mem' -httpbench.sizes 10000,100000
var (
	benchSizes   = flag.String("httpbench.sizes", "10000", "calendar sizes (events) of BenchmarkHTTP, comma-separated")
	benchDrivers = flag.String("httpbench.drivers", "mem,bolt,redis", "drivers of BenchmarkHTTP, comma-separated")
	benchClients = flag.Int("httpbench.clients", 16, "concurrent keep-alive clients of BenchmarkHTTP")
)

// The shape of the seeded calendar (the issue's: 300 venues, 20 categories, 50 tags).
const (
	benchVenues     = 300
	benchOrganizers = 100
	benchCategories = 20
	benchTags       = 50
)

// benchCal is one seeded calendar served on a loopback listener.
type benchCal struct {
	srv      *server
	ts       *httptest.Server
	adminPW  string
	eventID  int64  // an event of the middle of the calendar
	category string // slug of a category
	week     string // start_date=…&end_date=… of a 7-day window holding events
	cleanup  func()
	// rdb reads the CPU of the Redis server (redis driver only), which is
	// not in the process's: see redisCPU.
	rdb *redis.Client
}

var (
	benchMu   sync.Mutex
	benchCals = map[string]*benchCal{}
)

// seededCal returns the calendar of driver with n events, seeded once per process.
func seededCal(b *testing.B, driver string, n int) *benchCal {
	benchMu.Lock()
	defer benchMu.Unlock()
	key := driver + "/" + strconv.Itoa(n)
	if c, ok := benchCals[key]; ok {
		return c
	}
	c, err := newBenchCal(driver, n)
	if err != nil {
		if driver == "redis" && os.Getenv("CI") != "true" && strings.Contains(err.Error(), "-store redis") {
			b.Skipf("no Redis: %v", err)
		}
		b.Fatal(err)
	}
	benchCals[key] = c
	return c
}

func newBenchCal(driver string, n int) (*benchCal, error) {
	ctx := context.Background()
	var out bytes.Buffer
	cfg := config{Store: driver, Out: &out, Log: slog.New(slog.DiscardHandler)}
	var cleanup []func()
	switch driver {
	case "bolt":
		dir, err := os.MkdirTemp("", "httpbench-")
		if err != nil {
			return nil, err
		}
		cleanup = append(cleanup, func() { os.RemoveAll(dir) })
		cfg.DB = filepath.Join(dir, "bench.db")
		// Seeding fsyncs nothing (it would take minutes); the benchmark then
		// reopens the file with the default, durable options.
		st, err := boltstore.Open(cfg.DB, boltstore.WithNoSync())
		if err != nil {
			return nil, err
		}
		cal := calendar.New(st)
		_, err = seed(ctx, cal, n)
		if cerr := st.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
	case "redis":
		cfg.RedisURL = os.Getenv("REDIS_URL")
		if cfg.RedisURL == "" {
			cfg.RedisURL = "redis://127.0.0.1:6379/0"
		}
		cfg.RedisPrefix = "httpbench-" + strconv.FormatInt(time.Now().UnixNano(), 36)
		url, prefix := cfg.RedisURL, cfg.RedisPrefix
		cleanup = append(cleanup, func() { dropRedisPrefix(url, prefix) })
	}
	srv, err := newServer(ctx, cfg)
	if err != nil {
		for _, f := range cleanup {
			f()
		}
		return nil, err
	}
	cleanup = append(cleanup, func() { srv.Close() })
	c := &benchCal{srv: srv}
	if driver == "redis" {
		opt, err := redis.ParseURL(cfg.RedisURL)
		if err != nil {
			return nil, err
		}
		c.rdb = redis.NewClient(opt)
		cleanup = append(cleanup, func() { c.rdb.Close() })
	}
	var s seeded
	if driver == "bolt" {
		s, err = describe(ctx, srv.Calendar)
	} else {
		s, err = seed(ctx, srv.Calendar, n)
	}
	if err != nil {
		for _, f := range slices.Backward(cleanup) {
			f()
		}
		return nil, err
	}
	c.eventID, c.category, c.week = s.eventID, s.category, s.week
	m := regexp.MustCompile(`password (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		return nil, fmt.Errorf("no generated admin password in %q", out.String())
	}
	c.adminPW = m[1]
	c.ts = httptest.NewServer(srv.Handler)
	cleanup = append(cleanup, c.ts.Close)
	c.cleanup = func() {
		for _, f := range slices.Backward(cleanup) {
			f()
		}
	}
	benchCleanups = append(benchCleanups, c.cleanup)
	return c, nil
}

var benchCleanups []func()

func dropRedisPrefix(url, prefix string) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return
	}
	client := redis.NewClient(opt)
	defer client.Close()
	ctx := context.Background()
	iter := client.Scan(ctx, 0, "{"+prefix+"}:*", 1000).Iterator()
	for iter.Next(ctx) {
		client.Del(ctx, iter.Val())
	}
}

// seeded names the records the requests use.
type seeded struct {
	eventID  int64
	category string
	week     string
}

// seed stores n events spread over two years around today (a quarter
// already past), with venues, organizers, categories and tags, through the
// library, eight writers at a time.
func seed(ctx context.Context, cal *calendar.Service, n int) (seeded, error) {
	ctx = calendar.WithPrincipal(ctx, calendar.System)
	rng := rand.New(rand.NewPCG(9, 9))
	var venues, orgs []int64
	var cats, tags []int64
	for i := range benchVenues {
		v, err := cal.CreateVenue(ctx, calendar.VenueInput{Name: calendar.Some(fmt.Sprintf("Hall %d", i)),
			City: calendar.Some("City " + strconv.Itoa(i%40))}, calendar.WriteOptions{})
		if err != nil {
			return seeded{}, err
		}
		venues = append(venues, v.ID)
	}
	for i := range benchOrganizers {
		o, err := cal.CreateOrganizer(ctx, calendar.OrganizerInput{Name: calendar.Some(fmt.Sprintf("Organizer %d", i))}, calendar.WriteOptions{})
		if err != nil {
			return seeded{}, err
		}
		orgs = append(orgs, o.ID)
	}
	for i := range benchCategories {
		t, err := cal.CreateTerm(ctx, calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some(fmt.Sprintf("Category %d", i))}, calendar.WriteOptions{})
		if err != nil {
			return seeded{}, err
		}
		cats = append(cats, t.ID)
	}
	for i := range benchTags {
		t, err := cal.CreateTerm(ctx, calendar.TaxonomyTag, calendar.TermInput{Name: calendar.Some(fmt.Sprintf("Tag %d", i))}, calendar.WriteOptions{})
		if err != nil {
			return seeded{}, err
		}
		tags = append(tags, t.ID)
	}
	jobs := make(chan calendar.EventInput)
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for in := range jobs {
				if _, err := cal.CreateEvent(ctx, in, calendar.WriteOptions{}); err != nil {
					errOnce.Do(func() { firstErr = err })
				}
			}
		}()
	}
	first := time.Now().AddDate(0, -6, 0).Truncate(time.Hour)
	span := 2 * 365 * 24 * time.Hour
	for i := range n {
		start := first.Add(time.Duration(rng.Int64N(int64(span))))
		in := calendar.EventInput{
			Title:       calendar.Some(fmt.Sprintf("Event %d of the benchmark", i)),
			Description: calendar.Some("<p>An event of the HTTP benchmark, with a paragraph of description that is about as long as a real one.</p>"),
			StartDate:   calendar.Some(start.Format(time.DateTime)),
			EndDate:     calendar.Some(start.Add(time.Duration(1+rng.IntN(4)) * time.Hour).Format(time.DateTime)),
			Cost:        calendar.Some([]string{"$" + strconv.Itoa(5+rng.IntN(40))}),
			Venues:      calendar.Some([]calendar.VenueRef{{ID: venues[rng.IntN(len(venues))]}}),
			Organizers:  calendar.Some([]calendar.OrganizerRef{{ID: orgs[rng.IntN(len(orgs))]}}),
			Categories:  calendar.Some([]calendar.TermRef{{ID: cats[rng.IntN(len(cats))]}}),
		}
		if k := rng.IntN(4); k > 0 {
			var ts []calendar.TermRef
			for range k {
				ts = append(ts, calendar.TermRef{ID: tags[rng.IntN(len(tags))]})
			}
			in.Tags = calendar.Some(ts)
		}
		if rng.IntN(20) == 0 {
			in.Status = calendar.Some(calendar.StatusDraft)
		}
		jobs <- in
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return seeded{}, firstErr
	}
	return describe(context.Background(), cal)
}

// describe picks the records the requests name from a seeded calendar, as
// an anonymous reader sees it.
func describe(ctx context.Context, cal *calendar.Service) (seeded, error) {
	page, err := cal.ListEvents(ctx, calendar.EventQuery{PerPage: 1, Page: 100})
	if err != nil {
		return seeded{}, err
	}
	if len(page.Events) == 0 {
		return seeded{}, fmt.Errorf("seeded calendar lists no 100th event")
	}
	ev := page.Events[0]
	s := seeded{eventID: ev.ID, category: "category-3"}
	day := ev.Start.AddDate(0, 0, 7)
	s.week = "start_date=" + day.Format(time.DateOnly) + "&end_date=" + day.AddDate(0, 0, 6).Format(time.DateOnly)
	return s, nil
}

// benchRequest is one row of the table.
type benchRequest struct {
	name string
	req  func(c *benchCal, base string, i int64) *http.Request
}

const benchNS = "/wp-json/tribe/events/v1"

var benchRequests = []benchRequest{
	{"get-event", func(c *benchCal, base string, _ int64) *http.Request {
		return get(base + benchNS + "/events/" + strconv.FormatInt(c.eventID, 10))
	}},
	{"list-default", func(c *benchCal, base string, _ int64) *http.Request { return get(base + benchNS + "/events") }},
	{"list-per-page-50", func(c *benchCal, base string, _ int64) *http.Request {
		return get(base + benchNS + "/events?per_page=50")
	}},
	{"list-category", func(c *benchCal, base string, _ int64) *http.Request {
		return get(base + benchNS + "/events?categories=" + c.category)
	}},
	{"list-7-days", func(c *benchCal, base string, _ int64) *http.Request {
		return get(base + benchNS + "/events?" + c.week)
	}},
	// Posted events start in 2001, outside every window above, so that the
	// lists of later runs (-count) show the same events.
	{"post-create", func(c *benchCal, base string, i int64) *http.Request {
		body := `{"title":"Posted ` + strconv.FormatInt(i, 10) + `","start_date":"2001-03-05 20:00","end_date":"2001-03-05 22:00","cost":"$5","venue":` +
			strconv.FormatInt(c.eventID%benchVenues+1, 10) + `}`
		r, _ := http.NewRequest("POST", base+benchNS+"/events", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.SetBasicAuth("admin", c.adminPW)
		return r
	}},
}

func get(url string) *http.Request {
	r, _ := http.NewRequest("GET", url, nil)
	return r
}

// captured is a response as the server sent it.
type captured struct {
	status int
	header http.Header
	body   []byte
}

func capture(client *http.Client, r *http.Request) (captured, error) {
	resp, err := client.Do(r)
	if err != nil {
		return captured{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return captured{}, err
	}
	h := resp.Header.Clone()
	h.Del("Date") // net/http adds its own
	h.Del("Content-Length")
	return captured{status: resp.StatusCode, header: h, body: body}, nil
}

// baseline serves the captured response as it is, for any request.
func baseline(c captured) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		h := w.Header()
		for k, v := range c.header {
			h[k] = v
		}
		h["Content-Length"] = []string{strconv.Itoa(len(c.body))}
		w.WriteHeader(c.status)
		w.Write(c.body)
	})
}

func benchClient(n int) *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConns: n, MaxIdleConnsPerHost: n, MaxConnsPerHost: n}, Timeout: time.Minute}
}

// BenchmarkHTTP runs every request of the table on every driver and size,
// each as a server/baseline pair. Sub-benchmark names:
// HTTP/<driver>/<events>/<request>/{server,baseline}.
func BenchmarkHTTP(b *testing.B) {
	for _, driver := range strings.Split(*benchDrivers, ",") {
		b.Run(driver, func(b *testing.B) {
			for _, size := range strings.Split(*benchSizes, ",") {
				n, err := strconv.Atoi(size)
				if err != nil {
					b.Fatalf("-httpbench.sizes: %v", err)
				}
				b.Run(size, func(b *testing.B) {
					c := seededCal(b, driver, n)
					for _, rq := range benchRequests {
						b.Run(rq.name, func(b *testing.B) { benchPair(b, c, rq) })
					}
				})
			}
		})
	}
}

var postSeq atomic.Int64

func benchPair(b *testing.B, c *benchCal, rq benchRequest) {
	client := benchClient(*benchClients)
	defer client.CloseIdleConnections()
	want, err := capture(client, rq.req(c, c.ts.URL, postSeq.Add(1)))
	if err != nil {
		b.Fatal(err)
	}
	if want.status >= 300 {
		b.Fatalf("%s: status %d: %s", rq.name, want.status, want.body)
	}
	bl := httptest.NewServer(baseline(want))
	defer bl.Close()
	// The baseline's bytes are the server's: check once, then measure both.
	got, err := capture(client, rq.req(c, bl.URL, 0))
	if err != nil || !bytes.Equal(got.body, want.body) || got.status != want.status {
		b.Fatalf("baseline differs from the server's response (%v)", err)
	}
	b.Run("server", func(b *testing.B) { drive(b, client, c, c.ts.URL, rq) })
	b.Run("baseline", func(b *testing.B) { drive(b, client, c, bl.URL, rq) })
}

// drive sends b.N requests from *benchClients goroutines sharing that many
// keep-alive connections, and reports the slowest request, the 99th
// percentile and the process CPU per request (server and clients together).
func drive(b *testing.B, client *http.Client, c *benchCal, base string, rq benchRequest) {
	procs := max(1, *benchClients/max(1, runtime.GOMAXPROCS(0)))
	var mu sync.Mutex
	var lat []time.Duration
	var failed atomic.Int64
	b.SetParallelism(procs)
	b.ReportAllocs()
	cpu0 := cpuTime()
	rcpu0, rerr := redisCPU(c.rdb)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		buf := make([]byte, 32<<10)
		for pb.Next() {
			r := rq.req(c, base, postSeq.Add(1))
			t0 := time.Now()
			resp, err := client.Do(r)
			if err != nil {
				failed.Add(1)
				continue
			}
			for {
				if _, err := resp.Body.Read(buf); err != nil {
					break
				}
			}
			resp.Body.Close()
			mine = append(mine, time.Since(t0))
			if resp.StatusCode >= 300 {
				failed.Add(1)
			}
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	cpu := cpuTime() - cpu0
	rcpu1, rerr1 := redisCPU(c.rdb)
	if f := failed.Load(); f > 0 {
		b.Errorf("%d of %d requests failed", f, b.N)
	}
	if len(lat) > 0 {
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "max-µs")
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
		if c.rdb != nil && rerr == nil && rerr1 == nil {
			b.ReportMetric(float64((rcpu1-rcpu0).Microseconds())/float64(b.N), "redis-cpu-µs/op")
		}
	}
}

// redisCPU is the CPU the Redis server used so far (user + system, from
// INFO cpu), or 0 without a client. It is the request's cost only when
// nothing else uses that server during the benchmark.
func redisCPU(rdb *redis.Client) (time.Duration, error) {
	if rdb == nil {
		return 0, nil
	}
	info, err := rdb.Info(context.Background(), "cpu").Result()
	if err != nil {
		return 0, err
	}
	var total time.Duration
	for _, line := range strings.Split(info, "\n") {
		name, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || name != "used_cpu_user" && name != "used_cpu_sys" {
			continue
		}
		sec, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return 0, fmt.Errorf("INFO cpu %s: %w", name, err)
		}
		total += time.Duration(sec * float64(time.Second))
	}
	return total, nil
}

// cpuTime is the CPU the process used so far (user + system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The harness itself: on a small calendar every request of the table
// answers 2xx and its baseline serves the byte-identical response, so the
// benchmark cannot rot into measuring an error page.
func TestHTTPBenchHarness(t *testing.T) {
	c, err := newBenchCal("mem", 200)
	if err != nil {
		t.Fatal(err)
	}
	defer c.cleanup()
	client := benchClient(2)
	defer client.CloseIdleConnections()
	for _, rq := range benchRequests {
		want, err := capture(client, rq.req(c, c.ts.URL, 1))
		if err != nil {
			t.Fatal(err)
		}
		if want.status >= 300 || len(want.body) == 0 {
			t.Fatalf("%s: status %d: %s", rq.name, want.status, want.body)
		}
		if strings.HasPrefix(rq.name, "list-") && !bytes.Contains(want.body, []byte(`"events":[{`)) {
			t.Errorf("%s lists no event: %.200s", rq.name, want.body)
		}
		bl := httptest.NewServer(baseline(want))
		got, err := capture(client, rq.req(c, bl.URL, 2))
		bl.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got.status != want.status || !bytes.Equal(got.body, want.body) || !maps.EqualFunc(got.header, want.header, slices.Equal) {
			t.Errorf("%s: baseline answers %d %v, server %d %v", rq.name, got.status, got.header, want.status, want.header)
		}
	}
}
