package webhooks

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeDNS answers for made-up names, so no test depends on real DNS. The
// addresses other than 127.0.0.1 are never connected to: the check refuses
// them before the connect call.
func fakeDNS(ctx context.Context, host string) ([]netip.Addr, error) {
	table := map[string][]string{
		"public-looking.test": {"127.0.0.1"}, // a rebinding name pointing home
		"metadata.test":       {"169.254.169.254"},
		"metadata6.test":      {"fd00:ec2::254"},
		"private.test":        {"10.20.30.40"},
		"cgnat.test":          {"100.64.1.1"},
		"linklocal.test":      {"169.254.7.7"},
		"linklocal6.test":     {"fe80::1"},
		"ula.test":            {"fd12:3456::1"},
		"mapped.test":         {"::ffff:127.0.0.1"},
		"nat64.test":          {"64:ff9b::7f00:1"},
		"mixed.test":          {"10.1.1.1", "169.254.169.254", "127.0.0.1"},
	}
	var out []netip.Addr
	for _, a := range table[host] {
		out = append(out, netip.MustParseAddr(a))
	}
	if out == nil {
		return nil, errors.New("no such host")
	}
	return out, nil
}

// tlsTarget is an https receiver on 127.0.0.1 counting the requests that
// reach it, with a TLS config that trusts it under any name.
func tlsTarget(t *testing.T) (port string, hits *atomic.Int64, tc *tls.Config) {
	hits = new(atomic.Int64)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	// The test certificate is for 127.0.0.1 and example.com; the made-up
	// names are checked against example.com.
	tc = &tls.Config{RootCAs: pool, ServerName: "example.com"}
	u, _ := url.Parse(srv.URL)
	return u.Port(), hits, tc
}

func TestConnectTimeCheckRefusesForbiddenAddresses(t *testing.T) {
	port, hits, tc := tlsTarget(t)
	strict := newClient(TargetPolicy{}, 5*time.Second, tc, fakeDNS, 2)
	system := newClient(TargetPolicy{}, 5*time.Second, tc, nil, 2) // the system resolver: localhost from the hosts file
	cases := []struct {
		c    *http.Client
		host string
		why  string
	}{
		{system, "localhost", "loopback"},
		{system, "127.0.0.1", "loopback"},
		{system, "[::ffff:127.0.0.1]", "loopback"},
		{strict, "public-looking.test", "loopback"},
		{strict, "metadata.test", "cloud metadata"},
		{strict, "metadata6.test", "cloud metadata"},
		{strict, "private.test", "private"},
		{strict, "cgnat.test", "shared address space"},
		{strict, "linklocal.test", "link-local"},
		{strict, "linklocal6.test", "link-local"},
		{strict, "ula.test", "private"},
		{strict, "mapped.test", "loopback"},
		{strict, "nat64.test", "loopback"},
		{strict, "mixed.test", "not allowed"},
	}
	for _, c := range cases {
		resp, err := c.c.Post("https://"+c.host+":"+port+"/hook", "application/json", strings.NewReader("{}"))
		if err == nil {
			resp.Body.Close()
			t.Errorf("%s: request went through (%d)", c.host, resp.StatusCode)
			continue
		}
		if !errors.Is(err, ErrForbiddenAddress) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: %v, want refused as %s", c.host, err, c.why)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the receiver was reached %d times", n)
	}
	// The same names work when private addresses are allowed (so the
	// refusals above came from the policy), except the metadata service.
	loose := newClient(TargetPolicy{AllowPrivate: true}, 5*time.Second, tc, fakeDNS, 2)
	for _, host := range []string{"public-looking.test", "mapped.test", "mixed.test"} {
		resp, err := loose.Post("https://"+host+":"+port+"/hook", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatalf("%s with AllowPrivate: %v", host, err)
		}
		resp.Body.Close()
	}
	if _, err := loose.Post("https://metadata.test:"+port+"/", "application/json", nil); !errors.Is(err, ErrForbiddenAddress) {
		t.Fatalf("metadata with AllowPrivate: %v", err)
	}
	if n := hits.Load(); n != 3 {
		t.Fatalf("receiver reached %d times, want 3", n)
	}
}

func TestNoProxyFromEnvironment(t *testing.T) {
	// A proxy would receive the connection instead of the target and hide
	// it from the address check.
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	port, hits, tc := tlsTarget(t)
	c := newClient(TargetPolicy{AllowPrivate: true}, 5*time.Second, tc, fakeDNS, 2)
	resp, err := c.Post("https://public-looking.test:"+port+"/", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if hits.Load() != 1 {
		t.Fatal("request did not go straight to the target")
	}
}

func TestDispatcherRefusesNameResolvingToLoopback(t *testing.T) {
	port, hits, tc := tlsTarget(t)
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{})
	sub := mustCreate(t, store, Subscription{URL: "https://public-looking.test:" + port + "/hook", Types: []string{TypeAll}})
	d := New(src, store, WithLogger(quiet), WithTLSConfig(tc), WithLookup(fakeDNS),
		WithRefreshInterval(20*time.Millisecond), WithBackoff(time.Millisecond, 2*time.Millisecond))
	start(t, d)
	src.Append(Change{Kind: KindEvent, ID: 1, Action: ActionCreated, Version: 1})
	waitFor(t, "three refused attempts", func() bool { return getSub(t, store, sub.ID).Attempts >= 3 })
	s := getSub(t, store, sub.ID)
	if !strings.Contains(s.LastError, "not allowed (loopback)") || s.Cursor != 0 {
		t.Fatalf("progress %+v", s.Progress)
	}
	if hits.Load() != 0 {
		t.Fatal("the receiver was reached")
	}
}

func TestDispatcherDeliversOverHTTPS(t *testing.T) {
	port, hits, tc := tlsTarget(t)
	src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{})
	sub := mustCreate(t, store, Subscription{URL: "https://public-looking.test:" + port + "/hook", Types: []string{TypeAll}})
	d := New(src, store, WithLogger(quiet), WithTLSConfig(tc), WithLookup(fakeDNS),
		WithTargetPolicy(TargetPolicy{AllowPrivate: true}), WithRefreshInterval(20*time.Millisecond))
	start(t, d)
	appendEvents(src, 3)
	waitFor(t, "three deliveries", func() bool { return getSub(t, store, sub.ID).Cursor == 3 })
	if hits.Load() != 3 {
		t.Fatalf("%d requests for 3 changes", hits.Load())
	}
}

func TestRedirectIsAFailedDelivery(t *testing.T) {
	var finalHits atomic.Int64
	final := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		finalHits.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer final.Close()
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) int {
				w.Header().Set("Location", final.URL+"/elsewhere")
				return code
			})
			src, store := NewMemoryChanges(nil), NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
			sub := mustCreate(t, store, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{TypeAll}})
			start(t, New(src, store, testOptions()...))
			src.Append(Change{Kind: KindVenue, ID: 9, Action: ActionCreated, Version: 1})
			waitFor(t, "three attempts", func() bool { return len(rc.all()) >= 3 })
			s := getSub(t, store, sub.ID)
			if s.Cursor != 0 || !strings.Contains(s.LastError, fmt.Sprint(code)) {
				t.Fatalf("progress after redirects: %+v", s.Progress)
			}
		})
	}
	if finalHits.Load() != 0 {
		t.Fatalf("a redirect was followed %d times", finalHits.Load())
	}
}
