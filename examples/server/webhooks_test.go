package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventcal/eventcal/httpadapter/webhooks"
)

// hookReceiver records every delivery it verifies; it answers slowly so
// that deliveries are still pending when the server is killed.
type hookReceiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	secret string
	got    []hookDelivery
	delay  atomic.Int64 // nanoseconds
}

type hookDelivery struct {
	id  string
	seq int
	err error
}

func newHookReceiver(t *testing.T, delay time.Duration) *hookReceiver {
	rc := &hookReceiver{}
	rc.delay.Store(int64(delay))
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		secret := rc.secret
		rc.mu.Unlock()
		d := hookDelivery{id: r.Header.Get(webhooks.HeaderID), err: webhooks.Verify(secret, r.Header, body)}
		if i := strings.LastIndexByte(d.id, '_'); i >= 0 {
			d.seq, _ = strconv.Atoi(d.id[i+1:])
		}
		time.Sleep(time.Duration(rc.delay.Load()))
		rc.mu.Lock()
		rc.got = append(rc.got, d)
		rc.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *hookReceiver) deliveries() []hookDelivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hookDelivery(nil), rc.got...)
}

// inOrderUpTo checks the deliveries: every one verifies, a seq delivered
// twice has one webhook-id, no seq comes before all earlier ones came, and
// it returns the highest seq reached without a gap.
func (rc *hookReceiver) inOrderUpTo(t *testing.T) int {
	t.Helper()
	ids := map[int]string{}
	next := 1
	for _, d := range rc.deliveries() {
		if d.err != nil {
			t.Fatalf("delivery %s does not verify: %v", d.id, d.err)
		}
		if id, seen := ids[d.seq]; seen && id != d.id {
			t.Fatalf("seq %d delivered as %s and %s", d.seq, id, d.id)
		}
		ids[d.seq] = d.id
		if d.seq > next {
			t.Fatalf("seq %d delivered before seq %d", d.seq, next)
		}
		if d.seq == next {
			next++
		}
	}
	return next - 1
}

// Kill -9 the delivering server process with deliveries pending: after a
// restart on the same file every change is delivered, in order, at least
// once, duplicates with the same webhook-id.
func TestWebhooksResumeAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	bin := buildServer(t)
	dir := t.TempDir()
	args := []string{"-store", "bolt", "-db", "cal.db", "-webhooks", "-webhook-allow-private"}
	p := startServerProcess(t, bin, dir, args...)
	admin := apiUser{base: p.base, name: "admin", password: p.password}
	rc := newHookReceiver(t, 20*time.Millisecond)
	sub := admin.must(t, http.StatusCreated, "POST", "/webhooks", map[string]any{"url": rc.srv.URL + "/hook", "events": []string{"*"}})
	secret, _ := sub.body["secret"].(string)
	rc.mu.Lock()
	rc.secret = secret
	rc.mu.Unlock()
	const n = 40
	for i := range n {
		admin.must(t, http.StatusCreated, "POST", "/tags", map[string]any{"name": fmt.Sprint("tag ", i)})
	}
	waitUntil(t, "some deliveries", func() bool { return len(rc.deliveries()) >= 5 })
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.exited
	before := rc.inOrderUpTo(t)
	if before >= n {
		t.Fatalf("all %d delivered before the kill; nothing was pending", n)
	}
	rc.delay.Store(0)
	startServerProcess(t, bin, dir, args...)
	waitUntil(t, "every change delivered", func() bool { return rc.inOrderUpTo(t) == n })
	t.Logf("%d of %d delivered before the kill, %d requests in all", before, n, len(rc.deliveries()))
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
