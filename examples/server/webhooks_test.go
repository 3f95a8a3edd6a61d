package main

import (
	"context"
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
	"github.com/redis/go-redis/v9"
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
	at  time.Time // when the request arrived
}

func newHookReceiver(t *testing.T, delay time.Duration) *hookReceiver {
	rc := &hookReceiver{}
	rc.delay.Store(int64(delay))
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		secret := rc.secret
		rc.mu.Unlock()
		d := hookDelivery{id: r.Header.Get(webhooks.HeaderID), err: webhooks.Verify(secret, r.Header, body), at: time.Now()}
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

// Two server processes on one Redis: the one holding the subscription's
// lease delivers; kill -9 it with deliveries pending and the other takes
// the subscription over once the lease expires, delivering everything in
// order with the same webhook-ids.
func TestWebhooksTakeoverOnRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	opt := needRedis(t)
	bin := buildServer(t)
	prefix := uniquePrefix(t)
	t.Cleanup(func() { cleanRedisPrefix(t, redisURL(), prefix) })
	dir := t.TempDir()
	const ttl = time.Second
	args := []string{"-store", "redis", "-redis", redisURL(), "-redis-prefix", prefix,
		"-webhooks", "-webhook-allow-private", "-webhook-lease-ttl", ttl.String(), "-webhook-refresh", ttl.String(), "-webhook-timeout", (ttl / 2).String()}
	procs := []*serverProcess{startServerProcess(t, bin, dir, args...), startServerProcess(t, bin, dir, args...)}
	password := procs[0].password + procs[1].password
	admin := apiUser{base: procs[0].base, name: "admin", password: password}
	rc := newHookReceiver(t, 30*time.Millisecond)
	sub := admin.must(t, http.StatusCreated, "POST", "/webhooks", map[string]any{"url": rc.srv.URL + "/hook", "events": []string{"*"}})
	rc.mu.Lock()
	rc.secret, _ = sub.body["secret"].(string)
	rc.mu.Unlock()
	const n = 40
	for i := range n {
		admin.must(t, http.StatusCreated, "POST", "/tags", map[string]any{"name": fmt.Sprint("tag ", i)})
	}
	waitUntil(t, "some deliveries", func() bool { return len(rc.deliveries()) >= 5 })
	client := redis.NewClient(opt)
	defer client.Close()
	owner, err := client.Get(context.Background(), "{"+prefix+"}:lease:webhook:"+strconv.FormatInt(idOf(sub.body["id"]), 10)).Result()
	if err != nil {
		t.Fatalf("reading the lease: %v", err)
	}
	var victim, survivor *serverProcess
	for i, p := range procs {
		if strings.HasSuffix(owner, "/"+strconv.Itoa(p.cmd.Process.Pid)) {
			victim, survivor = p, procs[1-i]
		}
	}
	if victim == nil {
		t.Fatalf("the lease is held by %q, neither server process", owner)
	}
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-victim.exited
	killed := time.Now()
	before := len(rc.deliveries())
	if rc.inOrderUpTo(t) >= n {
		t.Fatalf("all delivered before the kill; nothing was pending")
	}
	var takeover time.Duration
	waitUntil(t, "the other instance to deliver", func() bool {
		for _, d := range rc.deliveries() {
			if d.at.After(killed) {
				takeover = d.at.Sub(killed)
				return true
			}
		}
		return false
	})
	// The lease expires within ttl; the survivor looks every ttl/3 and
	// learns of the subscription within one refresh (ttl here).
	if takeover > 3*ttl {
		t.Errorf("the other instance took over after %v; the lease and the refresh are %v", takeover, ttl)
	}
	waitUntil(t, "every change delivered", func() bool { return rc.inOrderUpTo(t) == n })
	t.Logf("killed %s after %d deliveries; %s took over in %v", owner, before, survivor.base, takeover)
}
