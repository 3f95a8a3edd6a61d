package webhooks

import (
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// TargetPolicy says which webhook targets are allowed. The zero value is the
// safe default: https only, public addresses only.
type TargetPolicy struct {
	// AllowHTTP allows plain http:// targets.
	AllowHTTP bool
	// AllowPrivate allows loopback, private (RFC 1918, fc00::/7), link-local,
	// shared (100.64.0.0/10) and other non-public unicast addresses, for
	// local development and tests. Cloud metadata, unspecified, multicast
	// and reserved addresses stay refused.
	AllowPrivate bool
}

// ErrForbiddenAddress is matched (errors.Is) by the *AddressError a delivery
// fails with when its target resolves to an address the policy refuses.
var ErrForbiddenAddress = errors.New("webhooks: target address not allowed")

// AddressError says why an address was refused.
type AddressError struct {
	Addr   netip.Addr
	Reason string // "loopback", "private", "link-local", "cloud metadata", …
}

// Error names the address and the reason.
func (e *AddressError) Error() string {
	return "webhooks: target address " + e.Addr.String() + " not allowed (" + e.Reason + ")"
}

// Is makes errors.Is(err, ErrForbiddenAddress) true.
func (e *AddressError) Is(target error) bool { return target == ErrForbiddenAddress }

var (
	metadataAddrs = []netip.Addr{
		netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OpenStack, …
		netip.MustParseAddr("fd00:ec2::254"),   // AWS over IPv6
	}
	alwaysRefused = []struct {
		p      netip.Prefix
		reason string
	}{
		{netip.MustParsePrefix("0.0.0.0/8"), "unspecified"},
		{netip.MustParsePrefix("240.0.0.0/4"), "reserved"}, // includes 255.255.255.255
	}
	privatePrefixes = []struct {
		p      netip.Prefix
		reason string
	}{
		{netip.MustParsePrefix("100.64.0.0/10"), "shared address space"},
		{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
		{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
		{netip.MustParsePrefix("fec0::/10"), "site-local"},
	}
	nat64    = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4   = netip.MustParsePrefix("2002::/16")
	v4Compat = netip.MustParsePrefix("::/96")
)

// CheckAddr returns nil when the policy allows connecting to a, or an
// *AddressError. IPv4 addresses written as IPv6 (::ffff:a.b.c.d, the NAT64
// prefix 64:ff9b::/96, 6to4 2002::/16 and ::a.b.c.d) are judged by the IPv4
// address they carry.
func (p TargetPolicy) CheckAddr(a netip.Addr) error {
	if !a.IsValid() {
		return &AddressError{Addr: a, Reason: "invalid"}
	}
	orig := a
	a = a.WithZone("").Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a), v4Compat.Contains(a) && !a.IsUnspecified() && !a.IsLoopback():
			a = netip.AddrFrom4([4]byte(b[12:16]))
		case sixTo4.Contains(a):
			a = netip.AddrFrom4([4]byte(b[2:6]))
		}
	}
	refuse := func(reason string) error { return &AddressError{Addr: orig, Reason: reason} }
	for _, m := range metadataAddrs {
		if a == m {
			return refuse("cloud metadata")
		}
	}
	switch {
	case a.IsUnspecified():
		return refuse("unspecified")
	case a.IsMulticast():
		return refuse("multicast")
	}
	for _, r := range alwaysRefused {
		if r.p.Contains(a) {
			return refuse(r.reason)
		}
	}
	if p.AllowPrivate {
		return nil
	}
	switch {
	case a.IsLoopback():
		return refuse("loopback")
	case a.IsPrivate():
		return refuse("private")
	case a.IsLinkLocalUnicast():
		return refuse("link-local")
	}
	for _, r := range privatePrefixes {
		if r.p.Contains(a) {
			return refuse(r.reason)
		}
	}
	return nil
}

// maxURLLength bounds target URLs; real endpoints are far shorter.
const maxURLLength = 2048

// ValidateTarget checks a subscription's target URL when it is created or
// changed: an absolute https URL (or http under AllowHTTP) with a host, no
// user name or password, and no literal address or "localhost" name the
// policy refuses. Names are resolved only at connect time, where the
// resolved address is checked again. It returns an *InvalidError naming
// the argument "url", or nil.
func ValidateTarget(raw string, p TargetPolicy) error {
	inv := func(reason string) error { return &InvalidError{Params: map[string]string{"url": reason}} }
	if raw == "" {
		return inv("is required")
	}
	if len(raw) > maxURLLength {
		return inv("is longer than " + strconv.Itoa(maxURLLength) + " bytes")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		return inv("is not a valid URL")
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !p.AllowHTTP {
			return inv("must be an https URL")
		}
	default:
		if p.AllowHTTP {
			return inv("must be an https or http URL")
		}
		return inv("must be an https URL")
	}
	if u.User != nil {
		return inv("must not hold a user name or password")
	}
	host := u.Hostname()
	if host == "" {
		return inv("must name a host")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return inv("has an invalid port")
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return inv("has an invalid port")
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if err := p.CheckAddr(a); err != nil {
			var ae *AddressError
			errors.As(err, &ae)
			return inv("points to a " + ae.Reason + " address")
		}
		return nil
	}
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if !p.AllowPrivate && (name == "localhost" || strings.HasSuffix(name, ".localhost")) {
		return inv("points to a loopback address")
	}
	return nil
}
