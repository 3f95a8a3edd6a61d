package webhooks

import (
	"errors"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"testing"
	"time"
)

// FuzzValidateTarget: any input is accepted or refused with an error naming
// "url", never a panic; an accepted URL has an allowed scheme, a host and no
// user info, and a literal address in it passes the connect-time check.
func FuzzValidateTarget(f *testing.F) {
	for _, s := range []string{"https://hooks.example.com/x", "http://127.0.0.1:8080/", "https://[::ffff:169.254.169.254]/",
		"https://u:p@h/", "https://h:0/", "//h/x", "https://%31%32%37.0.0.1/", "https://0x7f.1/", "https://[fe80::1%25eth0]/"} {
		f.Add(s, false, false)
		f.Add(s, true, true)
	}
	f.Fuzz(func(t *testing.T, raw string, allowHTTP, allowPrivate bool) {
		p := TargetPolicy{AllowHTTP: allowHTTP, AllowPrivate: allowPrivate}
		err := ValidateTarget(raw, p)
		if err != nil {
			var inv *InvalidError
			if !errors.As(err, &inv) || inv.Params["url"] == "" {
				t.Fatalf("error without the url argument: %v", err)
			}
			return
		}
		u, perr := url.Parse(raw)
		if perr != nil || u.User != nil || u.Hostname() == "" || !(u.Scheme == "https" || u.Scheme == "HTTPS" || u.Scheme != "" && allowHTTP) {
			t.Fatalf("accepted %q (%+v)", raw, u)
		}
		if a, err := netip.ParseAddr(u.Hostname()); err == nil {
			if err := p.CheckAddr(a); err != nil {
				t.Fatalf("accepted %q whose address is refused: %v", raw, err)
			}
		}
	})
}

// FuzzVerify: Verify never panics on received headers, accepts what Sign
// makes, and refuses any other body.
func FuzzVerify(f *testing.F) {
	f.Add("msg_1_1", "1614265330", "v1,abc", []byte(`{"a":1}`), []byte(`{"a":2}`))
	f.Add("", "x", "v1, v1,,", []byte{}, []byte{0})
	f.Fuzz(func(t *testing.T, id, ts, sig string, body, other []byte) {
		h := http.Header{}
		h.Set(HeaderID, id)
		h.Set(HeaderTimestamp, ts)
		h.Set(HeaderSignature, sig)
		Verify(specSecret, h, body)
		if id == "" {
			return
		}
		now := time.Now()
		good, err := Sign(specSecret, id, now, body)
		if err != nil {
			t.Fatal(err)
		}
		h.Set(HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
		h.Set(HeaderSignature, good)
		if http.Header.Get(h, HeaderID) != id {
			return // not representable in a header
		}
		if err := Verify(specSecret, h, body); err != nil {
			t.Fatalf("own signature refused: %v", err)
		}
		if string(other) != string(body) {
			if err := Verify(specSecret, h, other); !errors.Is(err, ErrSignature) {
				t.Fatalf("other body: %v", err)
			}
		}
	})
}
