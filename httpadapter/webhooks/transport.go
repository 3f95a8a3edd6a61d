package webhooks

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// LookupFunc resolves a host name to addresses. The dispatcher uses the
// system resolver unless WithLookup gives another; whatever it returns is
// still checked against the TargetPolicy when the connection is made.
type LookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

// dialGuard, when set (by this package's tests only), vets every address
// the policy let through, last thing before connecting.
var dialGuard func(netip.Addr) error

// newClient returns the HTTP client deliveries use: no proxy (a proxy would
// hide the real target from the address check), every connection checked
// on its resolved address just before connect, redirects returned as the
// 3xx response they are instead of followed.
func newClient(p TargetPolicy, timeout time.Duration, tlsConf *tls.Config, lookup LookupFunc, maxConns int) *http.Client {
	d := &net.Dialer{
		Timeout:   timeout,
		KeepAlive: 30 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return &AddressError{Reason: "unparsable " + strconv.Quote(address)}
			}
			if err := p.CheckAddr(ap.Addr()); err != nil {
				return err
			}
			if dialGuard != nil {
				return dialGuard(ap.Addr())
			}
			return nil
		},
	}
	dial := d.DialContext
	if lookup != nil {
		dial = func(ctx context.Context, network, address string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(address)
			if err != nil {
				return nil, err
			}
			if _, err := netip.ParseAddr(host); err == nil {
				return d.DialContext(ctx, network, address)
			}
			addrs, err := lookup(ctx, host)
			if err != nil {
				return nil, &net.DNSError{Err: err.Error(), Name: host}
			}
			if len(addrs) == 0 {
				return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
			}
			var errs []error
			for _, a := range addrs {
				c, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
				if err == nil {
					return c, nil
				}
				errs = append(errs, err)
			}
			return nil, errors.Join(errs...)
		}
	}
	var tc *tls.Config
	if tlsConf != nil {
		tc = tlsConf.Clone()
	}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           dial,
		TLSClientConfig:       tc,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          maxConns,
		MaxIdleConnsPerHost:   maxConns,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		DisableCompression:    true,
	}
	return &http.Client{
		Transport:     tr,
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
