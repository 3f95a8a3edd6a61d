package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

type changeRepo interface {
	calendar.Repository
	calendar.ChangeLog
}

func benchRepos(b *testing.B) map[string]func() changeRepo {
	return map[string]func() changeRepo{
		"memstore": func() changeRepo { return memstore.New() },
		"boltstore": func() changeRepo {
			s, err := boltstore.Open(filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		},
	}
}

// latencyReceiver records, per seq, when the last of subs deliveries of it
// arrived.
type latencyReceiver struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen map[uint64]int
	at   map[uint64]time.Time
	subs int
	got  chan uint64
}

func newLatencyReceiver(b *testing.B, subs int) *latencyReceiver {
	rc := &latencyReceiver{seen: map[uint64]int{}, at: map[uint64]time.Time{}, subs: subs, got: make(chan uint64, 1024)}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		now := time.Now()
		var p Payload
		if err := json.Unmarshal(body, &p); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
		rc.mu.Lock()
		rc.seen[p.Data.Seq]++
		all := rc.seen[p.Data.Seq] == rc.subs
		if all {
			rc.at[p.Data.Seq] = now
		}
		rc.mu.Unlock()
		if all {
			rc.got <- p.Data.Seq
		}
	}))
	b.Cleanup(rc.srv.Close)
	return rc
}

// BenchmarkCalendarDeliveryLatency measures commit-to-receiver latency of
// the change log of a real store: each iteration is one write, and the
// clock runs from the write's return to the arrival of its change at the
// last of subs subscriptions. p50 and p99 are reported in milliseconds.
func BenchmarkCalendarDeliveryLatency(b *testing.B) {
	for name, mk := range benchRepos(b) {
		for _, subs := range []int{1, 10} {
			b.Run(fmt.Sprintf("%s/subs=%d", name, subs), func(b *testing.B) {
				repo := mk()
				src := NewCalendarChanges(repo)
				store := NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
				rc := newLatencyReceiver(b, subs)
				sec, _ := NewSecret()
				for range subs {
					if _, err := store.Create(Subscription{URL: rc.srv.URL + "/hook", Secret: sec, Types: []string{TypeAll}}); err != nil {
						b.Fatal(err)
					}
				}
				stop := startBench(New(src, store, WithLogger(quiet), WithTargetPolicy(TargetPolicy{AllowHTTP: true, AllowPrivate: true})))
				defer stop()
				ctx := context.Background()
				lat := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for i := range b.N {
					if _, err := repo.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: fmt.Sprint("t", i)}); err != nil {
						b.Fatal(err)
					}
					committed := time.Now()
					seq := <-rc.got
					rc.mu.Lock()
					lat = append(lat, rc.at[seq].Sub(committed))
					rc.mu.Unlock()
				}
				b.StopTimer()
				slices.Sort(lat)
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			})
		}
	}
}

// BenchmarkCalendarCatchUp has one subscription catch up on b.N changes
// already in a store's change log (run with -benchtime=100000x for the
// 100,000-change figure); it reports changes delivered per second.
func BenchmarkCalendarCatchUp(b *testing.B) {
	for name, mk := range benchRepos(b) {
		b.Run(name, func(b *testing.B) {
			repo := mk()
			ctx := context.Background()
			// Seed in writes of 100 records: the log holds b.N changes.
			for i := 0; i < b.N; i += 100 {
				w := &calendar.Write{}
				for j := i; j < min(i+100, b.N); j++ {
					w.Steps = append(w.Steps, calendar.Step{Op: calendar.OpCreateTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: fmt.Sprint("t", j)}})
				}
				if _, err := repo.Apply(ctx, w); err != nil {
					b.Fatal(err)
				}
			}
			rc := newCountingReceiver(b)
			rc.expect(int64(b.N))
			store := NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
			sec, _ := NewSecret()
			if _, err := store.Create(Subscription{URL: rc.srv.URL + "/hook", Secret: sec, Types: []string{TypeAll}}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			t0 := time.Now()
			stop := startBench(New(NewCalendarChanges(repo), store, WithLogger(quiet), WithTargetPolicy(TargetPolicy{AllowHTTP: true, AllowPrivate: true})))
			defer stop()
			<-rc.done
			b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "changes/s")
		})
	}
}
