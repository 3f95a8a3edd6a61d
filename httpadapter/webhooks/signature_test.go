package webhooks

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The example of the Standard Webhooks specification; the reference library
// (testdata/verifier) signs it to the same value.
const (
	specSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	specID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	specUnix   = 1614265330
	specBody   = `{"test": 2432232314}`
	specSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func TestSignMatchesSpecificationExample(t *testing.T) {
	got, err := Sign(specSecret, specID, time.Unix(specUnix, 0), []byte(specBody))
	if err != nil {
		t.Fatal(err)
	}
	if got != specSig {
		t.Fatalf("Sign = %s, want %s", got, specSig)
	}
}

func specHeader(id string, unix int64, sig string) http.Header {
	h := http.Header{}
	h.Set(HeaderID, id)
	h.Set(HeaderTimestamp, strconv.FormatInt(unix, 10))
	h.Set(HeaderSignature, sig)
	return h
}

func TestVerify(t *testing.T) {
	at := func(unix int64) VerifyOption { return VerifyNow(func() time.Time { return time.Unix(unix, 0) }) }
	other, _ := NewSecret()
	cases := []struct {
		name   string
		secret string
		h      http.Header
		body   string
		opts   []VerifyOption
		want   error
	}{
		{"valid", specSecret, specHeader(specID, specUnix, specSig), specBody, []VerifyOption{at(specUnix)}, nil},
		{"valid among several", specSecret, specHeader(specID, specUnix, "v1,bm9wZQ== v2,x "+specSig), specBody, []VerifyOption{at(specUnix)}, nil},
		{"4m59s late", specSecret, specHeader(specID, specUnix, specSig), specBody, []VerifyOption{at(specUnix + 299)}, nil},
		{"tampered body", specSecret, specHeader(specID, specUnix, specSig), `{"test": 2432232315}`, []VerifyOption{at(specUnix)}, ErrSignature},
		{"other id", specSecret, specHeader("msg_other", specUnix, specSig), specBody, []VerifyOption{at(specUnix)}, ErrSignature},
		{"other secret", other, specHeader(specID, specUnix, specSig), specBody, []VerifyOption{at(specUnix)}, ErrSignature},
		{"shifted timestamp", specSecret, specHeader(specID, specUnix+1, specSig), specBody, []VerifyOption{at(specUnix)}, ErrSignature},
		{"too old", specSecret, specHeader(specID, specUnix, specSig), specBody, []VerifyOption{at(specUnix + 301)}, ErrTimestamp},
		{"too new", specSecret, specHeader(specID, specUnix, specSig), specBody, []VerifyOption{at(specUnix - 301)}, ErrTimestamp},
		{"own tolerance", specSecret, specHeader(specID, specUnix, specSig), specBody, []VerifyOption{at(specUnix + 61), VerifyTolerance(time.Minute)}, ErrTimestamp},
		{"v0 only", specSecret, specHeader(specID, specUnix, strings.Replace(specSig, "v1,", "v0,", 1)), specBody, []VerifyOption{at(specUnix)}, ErrSignature},
		{"no signature", specSecret, specHeader(specID, specUnix, ""), specBody, []VerifyOption{at(specUnix)}, ErrMissingHeaders},
		{"bad timestamp", specSecret, func() http.Header { h := specHeader(specID, 0, specSig); h.Set(HeaderTimestamp, "x"); return h }(), specBody, nil, ErrTimestamp},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Verify(c.secret, c.h, []byte(c.body), c.opts...)
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("Verify = %v, want %v", err, c.want)
			}
		})
	}
}

func TestSecrets(t *testing.T) {
	a, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewSecret()
	if a == b || !strings.HasPrefix(a, "whsec_") {
		t.Fatalf("NewSecret = %q, %q", a, b)
	}
	if key, err := parseSecret(a); err != nil || len(key) != secretBytes {
		t.Fatalf("parseSecret(%q) = %d bytes, %v", a, len(key), err)
	}
	for _, bad := range []string{"", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_***", "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 23)), "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 65))} {
		if _, err := Sign(bad, "id", time.Now(), nil); err == nil {
			t.Errorf("Sign accepted secret %q", bad)
		}
	}
}

func TestMessageIDStable(t *testing.T) {
	if got := MessageID(7, 42); got != "msg_7_42" {
		t.Fatalf("MessageID = %q", got)
	}
	if MessageID(1, 23) == MessageID(12, 3) {
		t.Fatal("ids of different subscriptions collide")
	}
}

func TestPayload(t *testing.T) {
	at := time.Date(2026, 3, 13, 21, 0, 0, 0, time.FixedZone("CET", 3600))
	body, err := payloadFor(Change{Seq: 42, Time: at, Kind: KindCategory, ID: 12, Action: ActionTrashed, Version: 3}, "https://x.test/wp-json/calendar/events/v1/")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"category.trashed","timestamp":"2026-03-13T20:00:00Z","data":{"kind":"category","id":12,"version":3,"action":"trashed","seq":42,"rest_url":"https://x.test/wp-json/calendar/events/v1/categories/12","series":null}}`
	if string(body) != want {
		t.Fatalf("payload\n got %s\nwant %s", body, want)
	}
	body, _ = payloadFor(Change{Seq: 1, Time: at, Kind: KindEvent, ID: 5, Action: ActionCreated, Version: 1, Series: 4}, "")
	if !strings.Contains(string(body), `"rest_url":"","series":4}`) {
		t.Fatalf("occurrence payload %s", body)
	}
}
