package webhooks

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingReceiver answers 204 to every request and closes done when it has
// seen want of them.
type countingReceiver struct {
	srv  *httptest.Server
	n    atomic.Int64
	want atomic.Int64
	done chan struct{}
}

func newCountingReceiver(b *testing.B) *countingReceiver {
	rc := &countingReceiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var buf [512]byte
		for {
			if _, err := r.Body.Read(buf[:]); err != nil {
				break
			}
		}
		w.WriteHeader(http.StatusNoContent)
		if rc.n.Add(1) == rc.want.Load() {
			close(rc.done)
		}
	}))
	b.Cleanup(rc.srv.Close)
	return rc
}

func (rc *countingReceiver) expect(n int64) {
	rc.n.Store(0)
	rc.done = make(chan struct{})
	rc.want.Store(n)
}

// BenchmarkDeliver signs and delivers b.N changes to each of 1 or 10
// subscriptions on one local receiver, from append to acknowledgement:
// "live" appends while the dispatcher runs, "backlog" has it catch up on
// changes appended before it started.
func BenchmarkDeliver(b *testing.B) {
	for _, mode := range []string{"live", "backlog"} {
		for _, subs := range []int{1, 10} {
			b.Run(fmt.Sprintf("%s/subs=%d", mode, subs), func(b *testing.B) { benchDeliver(b, mode == "backlog", subs) })
		}
	}
}

func benchDeliver(b *testing.B, backlog bool, subs int) {
	{
		{
			rc := newCountingReceiver(b)
			src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
			sec, _ := NewSecret()
			for range subs {
				if _, err := store.Create(Subscription{URL: rc.srv.URL + "/hook", Secret: sec, Types: []string{TypeAll}, Progress: Progress{Cursor: src.Last()}}); err != nil {
					b.Fatal(err)
				}
			}
			d := New(src, store, WithLogger(quiet), WithTargetPolicy(TargetPolicy{AllowHTTP: true, AllowPrivate: true}))
			rc.expect(int64(b.N * subs))
			produce := func() {
				for i := range b.N {
					src.Append(Change{Kind: KindEvent, ID: int64(i), Action: ActionUpdated, Version: int64(i)})
				}
			}
			if backlog {
				produce()
			}
			b.ReportAllocs()
			b.ResetTimer()
			t0 := time.Now()
			stop := startBench(d)
			defer stop()
			if !backlog {
				produce()
			}
			<-rc.done
			b.ReportMetric(float64(b.N*subs)/time.Since(t0).Seconds(), "deliveries/s")
		}
	}
}

// BenchmarkBaselinePost is the floor BenchmarkDeliver is compared with: the
// same body POSTed to the same receiver by a plain client, unsigned, one
// request at a time per "subscription".
func BenchmarkBaselinePost(b *testing.B) {
	body, _ := payloadFor(Change{Seq: 1, Time: time.Now(), Kind: KindEvent, ID: 1, Action: ActionUpdated, Version: 1}, "")
	for _, subs := range []int{1, 10} {
		b.Run(fmt.Sprintf("subs=%d", subs), func(b *testing.B) {
			rc := newCountingReceiver(b)
			rc.expect(int64(b.N * subs))
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: subs}}
			b.ReportAllocs()
			b.ResetTimer()
			t0 := time.Now()
			var wg sync.WaitGroup
			for range subs {
				wg.Go(func() {
					for range b.N {
						resp, err := client.Post(rc.srv.URL+"/hook", "application/json", bytes.NewReader(body))
						if err != nil {
							b.Error(err)
							return
						}
						resp.Body.Close()
					}
				})
			}
			wg.Wait()
			<-rc.done
			b.ReportMetric(float64(b.N*subs)/time.Since(t0).Seconds(), "deliveries/s")
		})
	}
}

func BenchmarkSign(b *testing.B) {
	body, _ := payloadFor(Change{Seq: 1, Time: time.Now(), Kind: KindEvent, ID: 1, Action: ActionUpdated, Version: 1}, "https://example.com/wp-json/calendar/events/v1")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Sign(specSecret, "msg_1_1", time.Now(), body); err != nil {
			b.Fatal(err)
		}
	}
}

func startBench(d *Dispatcher) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	return func() { cancel(); <-done }
}
