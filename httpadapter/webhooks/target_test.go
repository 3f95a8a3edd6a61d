package webhooks

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestCheckAddr(t *testing.T) {
	cases := []struct {
		addr          string
		strict, loose string // reason refused by the default / AllowPrivate policy, "" when allowed
	}{
		{"93.184.216.34", "", ""},
		{"2606:2800:220:1:248:1893:25c8:1946", "", ""},
		{"127.0.0.1", "loopback", ""},
		{"127.9.9.9", "loopback", ""},
		{"::1", "loopback", ""},
		{"10.0.0.1", "private", ""},
		{"172.16.5.4", "private", ""},
		{"172.32.0.1", "", ""},
		{"192.168.1.1", "private", ""},
		{"fd12:3456::1", "private", ""},
		{"169.254.10.10", "link-local", ""},
		{"fe80::1", "link-local", ""},
		{"fe80::1%eth0", "link-local", ""},
		{"100.64.0.1", "shared address space", ""},
		{"100.127.255.254", "shared address space", ""},
		{"100.128.0.1", "", ""},
		{"198.18.0.1", "benchmarking", ""},
		{"169.254.169.254", "cloud metadata", "cloud metadata"},
		{"fd00:ec2::254", "cloud metadata", "cloud metadata"},
		{"::ffff:169.254.169.254", "cloud metadata", "cloud metadata"},
		{"0.0.0.0", "unspecified", "unspecified"},
		{"0.1.2.3", "unspecified", "unspecified"},
		{"::", "unspecified", "unspecified"},
		{"224.0.0.1", "multicast", "multicast"},
		{"ff02::1", "multicast", "multicast"},
		{"255.255.255.255", "reserved", "reserved"},
		{"::ffff:127.0.0.1", "loopback", ""},
		{"::ffff:10.1.1.1", "private", ""},
		{"::ffff:8.8.8.8", "", ""},
		{"64:ff9b::7f00:1", "loopback", ""},                        // NAT64 of 127.0.0.1
		{"64:ff9b::a9fe:a9fe", "cloud metadata", "cloud metadata"}, // NAT64 of 169.254.169.254
		{"2002:c0a8:0101::1", "private", ""},                       // 6to4 of 192.168.1.1
		{"::10.0.0.1", "private", ""},                              // IPv4-compatible
	}
	for _, c := range cases {
		a := netip.MustParseAddr(c.addr)
		for _, p := range []struct {
			pol  TargetPolicy
			want string
		}{{TargetPolicy{}, c.strict}, {TargetPolicy{AllowPrivate: true}, c.loose}} {
			err := p.pol.CheckAddr(a)
			var ae *AddressError
			switch {
			case p.want == "" && err != nil:
				t.Errorf("%s under %+v refused: %v", c.addr, p.pol, err)
			case p.want != "" && (!errors.As(err, &ae) || ae.Reason != p.want || !errors.Is(err, ErrForbiddenAddress)):
				t.Errorf("%s under %+v = %v, want refused as %s", c.addr, p.pol, err, p.want)
			}
		}
	}
}

func TestValidateTarget(t *testing.T) {
	strict, dev := TargetPolicy{}, TargetPolicy{AllowHTTP: true, AllowPrivate: true}
	cases := []struct {
		url  string
		p    TargetPolicy
		want string // part of the reason for "url"; "" when valid
	}{
		{"https://hooks.example.com/eventcal?x=1", strict, ""},
		{"https://hooks.example.com:8443/h", strict, ""},
		{"https://[2606:2800:220:1::1]/h", strict, ""},
		{"http://hooks.example.com/h", strict, "must be an https URL"},
		{"http://hooks.example.com/h", dev, ""},
		{"ftp://hooks.example.com/h", strict, "must be an https URL"},
		{"ftp://hooks.example.com/h", dev, "https or http"},
		{"", strict, "required"},
		{"hooks.example.com/h", strict, "must be an https URL"},
		{"https:///h", strict, "must name a host"},
		{"https://user:pw@hooks.example.com/h", strict, "user name or password"},
		{"https://user@hooks.example.com/h", strict, "user name or password"},
		{"https://hooks.example.com:0/h", strict, "invalid port"},
		{"https://hooks.example.com:99999/h", strict, "invalid port"},
		{"https://hooks.example.com:/h", strict, "invalid port"},
		{"https://127.0.0.1/h", strict, "loopback"},
		{"https://127.0.0.1/h", dev, ""},
		{"https://[::1]:8443/h", strict, "loopback"},
		{"https://10.1.2.3/h", strict, "private"},
		{"https://169.254.169.254/latest/meta-data", strict, "cloud metadata"},
		{"https://169.254.169.254/latest/meta-data", dev, "cloud metadata"},
		{"https://[::ffff:169.254.169.254]/", dev, "cloud metadata"},
		{"https://localhost/h", strict, "loopback"},
		{"https://LocalHost./h", strict, "loopback"},
		{"https://api.localhost/h", strict, "loopback"},
		{"http://localhost:8080/h", dev, ""},
		{"https://hooks.example.com/" + strings.Repeat("a", 2048), strict, "longer than"},
		{"https://hooks.example.com/%zz", strict, "not a valid URL"},
	}
	for _, c := range cases {
		err := ValidateTarget(c.url, c.p)
		if c.want == "" {
			if err != nil {
				t.Errorf("ValidateTarget(%.60q, %+v) = %v", c.url, c.p, err)
			}
			continue
		}
		var inv *InvalidError
		if !errors.As(err, &inv) || !errors.Is(err, ErrInvalid) || !strings.Contains(inv.Params["url"], c.want) || len(inv.Params) != 1 {
			t.Errorf("ValidateTarget(%.60q, %+v) = %v, want url %q", c.url, c.p, err, c.want)
		}
	}
}

func TestSubscriptionValidateNamesEveryArgument(t *testing.T) {
	s := Subscription{URL: "http://hooks.example.com", Types: []string{"event.created", "event.exploded", "gig.created"}, Secret: "nope"}
	err := s.Validate(TargetPolicy{})
	var inv *InvalidError
	if !errors.As(err, &inv) {
		t.Fatalf("Validate = %v", err)
	}
	for _, arg := range []string{"url", "events", "secret"} {
		if inv.Params[arg] == "" {
			t.Errorf("no reason for %s in %v", arg, err)
		}
	}
	if !strings.Contains(err.Error(), `"event.exploded"`) {
		t.Errorf("error does not name the bad type: %v", err)
	}
	if err := (Subscription{URL: "https://h.example.com", Types: nil, Secret: specSecret}).Validate(TargetPolicy{}); err == nil || !strings.Contains(err.Error(), "events") {
		t.Errorf("no types: %v", err)
	}
	ok := Subscription{URL: "https://h.example.com", Types: append(EventTypes(), TypeAll), Secret: specSecret}
	if err := ok.Validate(TargetPolicy{}); err != nil {
		t.Errorf("valid subscription: %v", err)
	}
	if len(EventTypes()) != 25 {
		t.Errorf("EventTypes has %d entries, want 25", len(EventTypes()))
	}
}
