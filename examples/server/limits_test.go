package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// liveServer is the example server's wiring on a real TCP listener, with
// the http.Server the program itself would use.
type liveServer struct {
	base, addr string
	hs         *http.Server
	srv        *server
	closed     atomic.Int64 // connections the server has closed
	stopOnce   sync.Once
}

// stop closes the HTTP server and the store (once).
func (ls *liveServer) stop() {
	ls.stopOnce.Do(func() {
		ls.hs.Close()
		ls.srv.Close()
	})
}

// smallSendBuffers makes the kernel buffer little of what the server
// writes, so a client that does not read blocks the server after a few
// responses rather than after megabytes (which only costs test time: the
// behaviour once writes block is the same).
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(16 << 10)
	}
	return c, err
}

func startLive(t *testing.T, cfg config, wrap ...func(net.Listener) net.Listener) *liveServer {
	t.Helper()
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv, err := newServer(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wrap {
		ln = w(ln)
	}
	ls := &liveServer{addr: ln.Addr().String(), base: "http://" + ln.Addr().String(), hs: httpServer(cfg, srv.Handler), srv: srv}
	ls.hs.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateClosed || st == http.StateHijacked {
			ls.closed.Add(1)
		}
	}
	go ls.hs.Serve(ln)
	t.Cleanup(ls.stop)
	return ls
}

// TestUncleanPathsOverTCP: paths with empty or dot segments reach the API's
// 404 rest_no_route over a real connection, never the mux's redirect (a
// client following it would DELETE another URL).
func TestUncleanPathsOverTCP(t *testing.T) {
	ls := startLive(t, config{Store: "mem", UsersFile: writeUsers(t, "boss:pw:administrator\n")})
	req := mustReq(t, "POST", ls.base+"/wp-json/calendar/events/v1/tags", `{"name":"keep"}`)
	req.SetBasicAuth("boss", "pw")
	res, tag := getJSON(t, req)
	if res.StatusCode != 201 {
		t.Fatalf("create: %d", res.StatusCode)
	}
	id := fmt.Sprint(tag["id"])
	for _, c := range []struct{ method, path string }{
		{"DELETE", "/wp-json/calendar/events/v1/tags//" + id},
		{"DELETE", "/wp-json/calendar/events/v1/tags/./" + id},
		{"GET", "/wp-json/calendar/events/v1/events/by-slug/.."},
		{"GET", "/wp-json/calendar/events/v1/events/by-slug/%2e%2e"},
		{"GET", "/wp-json/calendar/events/v1/events//1"},
		{"GET", "/wp-json/calendar/events/v1/events/./1"},
		{"GET", "//wp-json/calendar/events/v1/events"},
		{"GET", "/fr/../wp-json/calendar/events/v1/events"},
		{"GET", "/elsewhere/../wp-json/calendar/events/v1/events"},
	} {
		// Raw request line: http.NewRequest would not keep "/./" or "/../".
		conn, err := net.Dial("tcp", ls.addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\nConnection: close\r\n\r\n",
			c.method, c.path, base64.StdEncoding.EncodeToString([]byte("boss:pw")))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s %s: %v", c.method, c.path, err)
		}
		var body map[string]any
		b, _ := io.ReadAll(res.Body)
		json.Unmarshal(b, &body)
		conn.Close()
		if res.StatusCode != 404 || body["code"] != "rest_no_route" || res.Header.Get("Location") != "" {
			t.Errorf("%s %s: %d %s", c.method, c.path, res.StatusCode, b)
		}
	}
	if res, _ := getJSON(t, mustReq(t, "GET", ls.base+"/wp-json/calendar/events/v1/tags/"+id, "")); res.StatusCode != 200 {
		t.Errorf("tag gone after the unclean DELETEs: %d", res.StatusCode)
	}
}

// TestTrickledBodiesAreCutOff: 150 clients send the headers of a 100 kB
// body and then one byte a second. Each is answered 408 (JSON) within the
// body timeout and its connection closed; a normal request made meanwhile
// is answered before any trickler is cut off.
func TestTrickledBodiesAreCutOff(t *testing.T) {
	const (
		clients  = 150
		anon     = 20 // of which anonymous: refused at once, then cut off while the server drains
		bodySize = 100_000
		wait     = 5 * time.Second // long enough that a loaded machine still answers the normal request well before it
		grace    = 8 * time.Second // scheduling slack on a loaded 2-core machine under -race
	)
	ls := startLive(t, config{Store: "mem", Demo: true, UsersFile: writeUsers(t, "ed:pw:editor\n"),
		limits: limits{BodyTimeout: wait, ReadTimeout: 4 * wait}})
	auth := "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("ed:pw")) + "\r\n"

	type result struct {
		status  int
		code    string
		answer  time.Duration // until the response arrived
		at      time.Time     // when it arrived
		closed  time.Duration // until the connection was closed by the server
		anonym  bool
		readErr error
	}
	results := make([]result, clients)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var connected sync.WaitGroup
	connected.Add(clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &results[i]
			r.anonym = i < anon
			conn, err := net.Dial("tcp", ls.addr)
			if err != nil {
				r.readErr = err
				connected.Done()
				return
			}
			defer conn.Close()
			hdr := auth
			if r.anonym {
				hdr = ""
			}
			start := time.Now()
			fmt.Fprintf(conn, "POST /wp-json/calendar/events/v1/events HTTP/1.1\r\nHost: x\r\n%sContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", hdr, bodySize)
			connected.Done()
			go func() { // one byte a second until the server gives up
				tick := time.NewTicker(time.Second)
				defer tick.Stop()
				for {
					select {
					case <-stop:
						return
					case <-tick.C:
						if _, err := conn.Write([]byte(" ")); err != nil {
							return
						}
					}
				}
			}()
			conn.SetReadDeadline(time.Now().Add(wait + 2*grace))
			br := bufio.NewReader(conn)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				r.readErr = err
				return
			}
			r.answer, r.at = time.Since(start), time.Now()
			r.status = res.StatusCode
			var body map[string]any
			b, _ := io.ReadAll(res.Body)
			json.Unmarshal(b, &body)
			r.code, _ = body["code"].(string)
			// The server closes the connection: reading on ends (EOF or
			// reset) rather than running into the client's own deadline.
			_, err = io.Copy(io.Discard, br)
			r.closed = time.Since(start)
			if errors.Is(err, os.ErrDeadlineExceeded) {
				r.closed = 1 << 62
			}
		}()
	}
	connected.Wait()
	time.Sleep(200 * time.Millisecond)
	normalStart := time.Now()
	res, list := getJSON(t, mustReq(t, "GET", ls.base+"/wp-json/calendar/events/v1/events?per_page=5", ""))
	normal := time.Since(normalStart)
	normalEnd := time.Now()
	if res.StatusCode != 200 || len(list["events"].([]any)) != 5 {
		t.Errorf("normal request meanwhile: %d", res.StatusCode)
	}
	wg.Wait()
	close(stop)

	var firstCut time.Time
	for i, r := range results {
		switch {
		case r.readErr != nil:
			t.Errorf("client %d: no answer: %v", i, r.readErr)
			continue
		case r.anonym && r.status != 401:
			t.Errorf("anonymous client %d: %d %s, want 401", i, r.status, r.code)
		case !r.anonym && (r.status != 408 || r.code != "rest_request_timeout"):
			t.Errorf("client %d: %d %s, want 408 rest_request_timeout", i, r.status, r.code)
		}
		if !r.anonym {
			if r.answer < wait || r.answer > wait+grace {
				t.Errorf("client %d answered after %v, want within [%v, %v]", i, r.answer, wait, wait+grace)
			}
			if firstCut.IsZero() || r.at.Before(firstCut) {
				firstCut = r.at
			}
		}
		if r.closed > wait+grace {
			t.Errorf("client %d: connection open for %v, want at most %v", i, r.closed, wait+grace)
		}
	}
	// Had the tricklers held the server, the normal request would have
	// waited for them to be cut off.
	if normal >= wait || !normalEnd.Before(firstCut) {
		t.Errorf("the normal request took %v and ended %v after the first trickler was cut off", normal, normalEnd.Sub(firstCut))
	}
	t.Logf("normal request %v, ended %v before the first trickler was cut off", normal, firstCut.Sub(normalEnd))
}

// TestNonReadingClientsAreBounded: 150 clients pipeline list requests and
// never read. The server's heap stays bounded while they are stuck, every
// connection is closed once a response could not be written within the
// write timeout, and a normal request is answered meanwhile.
func TestNonReadingClientsAreBounded(t *testing.T) {
	const (
		clients   = 150
		pipelined = 200
		writeWait = 2 * time.Second
		grace     = 20 * time.Second
		maxGrowth = 100 << 20
	)
	ls := startLive(t, config{Store: "mem", Demo: true, limits: limits{WriteTimeout: writeWait}},
		func(l net.Listener) net.Listener { return smallSendBuffers{l} })
	// Warm up (demo data, pools), then the baseline.
	res, list := getJSON(t, mustReq(t, "GET", ls.base+"/wp-json/calendar/events/v1/events?per_page=50", ""))
	if res.StatusCode != 200 || list["total"].(float64) < 30 {
		t.Fatalf("warm-up: %d", res.StatusCode)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	closedBefore := ls.closed.Load()

	// A tiny receive buffer makes the server block after a few responses
	// instead of after megabytes of kernel buffering.
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return serr
	}}
	req := "GET /wp-json/calendar/events/v1/events?per_page=50 HTTP/1.1\r\nHost: x\r\n\r\n"
	batch := strings.Repeat(req, pipelined)
	conns := make([]net.Conn, 0, clients)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range clients {
		c, err := d.Dial("tcp", ls.addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	// Connect all first: once the server is busy answering, the test's own
	// goroutine would wait its turn for every dial.
	for _, c := range conns {
		go c.Write([]byte(batch)) // may block once the server stops reading: never read
	}

	// Watch the heap until every one of these connections is closed.
	var peak uint64
	deadline := time.Now().Add(writeWait + grace)
	normalDone := false
	for ls.closed.Load()-closedBefore < clients && time.Now().Before(deadline) {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
		if !normalDone {
			res, _ := getJSON(t, mustReq(t, "GET", ls.base+"/wp-json/calendar/events/v1/events?per_page=1", ""))
			if res.StatusCode != 200 {
				t.Errorf("normal request meanwhile: %d", res.StatusCode)
			}
			normalDone = true
		}
		time.Sleep(50 * time.Millisecond)
	}
	closed := ls.closed.Load() - closedBefore
	growth := int64(peak) - int64(before)
	t.Logf("heap before %d MB, peak %d MB (growth %d MB); %d of %d connections closed", before>>20, peak>>20, growth>>20, closed, clients)
	if growth > maxGrowth {
		t.Errorf("heap grew by %d MB with %d non-reading clients, want < %d MB", growth>>20, clients, maxGrowth>>20)
	}
	if closed < clients {
		t.Errorf("%d of %d non-reading connections closed within %v of the write timeout", closed, clients, grace)
	}
}

// TestServerLimitsFromFlags: the limit flags reach the http.Server, and a
// config built in code without them still gets the defaults.
func TestServerLimitsFromFlags(t *testing.T) {
	var cfg config
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	cfg.serverFlags(fs)
	if err := fs.Parse([]string{"-read-header-timeout", "1s", "-read-timeout", "2s", "-write-timeout", "3s",
		"-idle-timeout", "4s", "-max-header-bytes", "5000", "-body-timeout", "6s"}); err != nil {
		t.Fatal(err)
	}
	hs := httpServer(cfg, nil)
	got := []any{hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout, hs.MaxHeaderBytes, cfg.BodyTimeout}
	want := []any{time.Second, 2 * time.Second, 3 * time.Second, 4 * time.Second, 5000, 6 * time.Second}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("from flags: %v, want %v", got, want)
	}
	hs = httpServer(config{}, nil)
	d := defaultLimits
	got = []any{hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout, hs.MaxHeaderBytes}
	want = []any{d.ReadHeaderTimeout, d.ReadTimeout, d.WriteTimeout, d.IdleTimeout, d.MaxHeaderBytes}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("zero config: %v, want %v", got, want)
	}
	for _, v := range []time.Duration{hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout} {
		if v <= 0 {
			t.Errorf("an unbounded phase: %v", got)
		}
	}
}
