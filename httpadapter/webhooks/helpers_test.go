package webhooks

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// warpClock jumps instead of sleeping, so retry schedules of hours run at
// once and deterministically.
type warpClock struct {
	mu sync.Mutex
	t  time.Time
	n  int // sleeps taken
}

func newWarpClock() *warpClock { return &warpClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *warpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *warpClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.n++
	c.mu.Unlock()
	runtime.Gosched()
	return nil
}

func (c *warpClock) sleeps() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// delivery is one request a test receiver got.
type delivery struct {
	ID        string
	Timestamp string
	Seq       uint64
	Payload   Payload
	Status    int   // what the receiver answered
	VerifyErr error // Verify's verdict on it
}

// receiver is a real HTTP listener that verifies and records deliveries;
// answer decides the status of request n (0-based), 204 when nil.
type receiver struct {
	srv    *httptest.Server
	secret string
	answer func(n int, w http.ResponseWriter, r *http.Request) int

	mu       sync.Mutex
	got      []delivery
	inflight int
	overlap  bool // two requests were in flight at once
}

func newReceiver(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request) int) *receiver {
	t.Helper()
	sec, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	rc := &receiver{secret: sec, answer: answer}
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	d := delivery{ID: r.Header.Get(HeaderID), Timestamp: r.Header.Get(HeaderTimestamp)}
	d.VerifyErr = Verify(rc.secret, r.Header, body)
	if err := json.Unmarshal(body, &d.Payload); err == nil {
		d.Seq = d.Payload.Data.Seq
	}
	rc.mu.Lock()
	n := len(rc.got)
	rc.got = append(rc.got, d)
	rc.inflight++
	if rc.inflight > 1 {
		rc.overlap = true
	}
	rc.mu.Unlock()
	status := http.StatusNoContent
	if rc.answer != nil {
		status = rc.answer(n, w, r)
	}
	rc.mu.Lock()
	rc.got[n].Status = status
	rc.inflight--
	rc.mu.Unlock()
	if status > 0 {
		w.WriteHeader(status)
	}
}

func (rc *receiver) url() string { return rc.srv.URL + "/hook" }

func (rc *receiver) all() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

// acked returns the seqs the receiver acknowledged, in arrival order.
func (rc *receiver) acked() []uint64 {
	var out []uint64
	for _, d := range rc.all() {
		if d.Status >= 200 && d.Status < 300 {
			out = append(out, d.Seq)
		}
	}
	return out
}

func seqs(from, to uint64) []uint64 {
	var out []uint64
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

// waitFor polls cond; the limit only keeps a broken test from hanging.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

var quiet = slog.New(slog.DiscardHandler)

// testOptions reach plain-http receivers on 127.0.0.1 and notice new
// subscriptions quickly.
func testOptions(extra ...Option) []Option {
	return append([]Option{
		WithLogger(quiet),
		WithTargetPolicy(TargetPolicy{AllowHTTP: true, AllowPrivate: true}),
		WithRefreshInterval(20 * time.Millisecond),
		WithBackoff(time.Millisecond, 5*time.Millisecond),
	}, extra...)
}

// start runs d until the returned stop is called (or the test ends); stop
// waits for Run to return.
func start(t *testing.T, d *Dispatcher) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(60 * time.Second):
				t.Errorf("Run did not return after its context ended")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func mustCreate(t *testing.T, store *MemorySubscriptions, s Subscription) Subscription {
	t.Helper()
	s, err := store.Create(s)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func appendEvents(src *MemoryChanges, n int) {
	for i := range n {
		src.Append(Change{Kind: KindEvent, ID: int64(100 + i%7), Action: ActionUpdated, Version: int64(i + 1)})
	}
}

func getSub(t *testing.T, store *MemorySubscriptions, id int64) Subscription {
	t.Helper()
	s, err := store.Subscription(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
