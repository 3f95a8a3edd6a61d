package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The Standard Webhooks headers.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// secretPrefix marks a Standard Webhooks secret.
const secretPrefix = "whsec_"

// secretBytes is the length of secrets NewSecret makes; the scheme allows
// 24 to 64.
const secretBytes = 32

// NewSecret returns a new random signing secret: "whsec_" and the base64 of
// 32 random bytes.
func NewSecret() (string, error) {
	b := make([]byte, secretBytes)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(b), nil
}

// parseSecret returns the key of a "whsec_" secret.
func parseSecret(s string) ([]byte, error) {
	rest, ok := strings.CutPrefix(s, secretPrefix)
	if !ok {
		return nil, errors.New(`must start with "whsec_"`)
	}
	key, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return nil, errors.New(`must be "whsec_" and standard base64`)
	}
	if len(key) < 24 || len(key) > 64 {
		return nil, errors.New("must hold 24 to 64 bytes")
	}
	return key, nil
}

// Sign returns the webhook-signature value ("v1," and the base64 HMAC-SHA256
// of id.timestamp.body) for a message signed with secret at ts.
func Sign(secret, id string, ts time.Time, body []byte) (string, error) {
	key, err := parseSecret(secret)
	if err != nil {
		return "", errors.New("webhooks: secret " + err.Error())
	}
	return "v1," + base64.StdEncoding.EncodeToString(mac(key, id, ts.Unix(), body)), nil
}

func mac(key []byte, id string, unix int64, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	var b [24]byte
	h.Write([]byte(id))
	h.Write(append(strconv.AppendInt(append(b[:0], '.'), unix, 10), '.'))
	h.Write(body)
	return h.Sum(nil)
}

// DefaultTolerance is how far a webhook-timestamp may be from the receiver's
// clock, either way, before Verify refuses the message (as the reference
// libraries do).
const DefaultTolerance = 5 * time.Minute

// Errors returned by Verify.
var (
	ErrMissingHeaders = errors.New("webhooks: missing webhook-id, webhook-timestamp or webhook-signature")
	ErrTimestamp      = errors.New("webhooks: timestamp outside the tolerance")
	ErrSignature      = errors.New("webhooks: no matching signature")
)

// VerifyOption adjusts Verify.
type VerifyOption func(*verifyConfig)

type verifyConfig struct {
	now       func() time.Time
	tolerance time.Duration
}

// VerifyTolerance sets how far the timestamp may be from now (default
// DefaultTolerance).
func VerifyTolerance(d time.Duration) VerifyOption {
	return func(c *verifyConfig) { c.tolerance = d }
}

// VerifyNow sets the receiver's clock (default time.Now).
func VerifyNow(now func() time.Time) VerifyOption { return func(c *verifyConfig) { c.now = now } }

// Verify checks a received webhook as a receiver would: the three headers are
// present, the timestamp is within the tolerance of now, and one of the
// space-separated "v1,…" signatures matches body under secret. It returns nil
// or an error matching ErrMissingHeaders, ErrTimestamp or ErrSignature. Pass
// the body exactly as received, before any JSON decoding.
func Verify(secret string, h http.Header, body []byte, opts ...VerifyOption) error {
	cfg := verifyConfig{now: time.Now, tolerance: DefaultTolerance}
	for _, o := range opts {
		o(&cfg)
	}
	key, err := parseSecret(secret)
	if err != nil {
		return errors.New("webhooks: secret " + err.Error())
	}
	id, ts, sigs := h.Get(HeaderID), h.Get(HeaderTimestamp), h.Get(HeaderSignature)
	if id == "" || ts == "" || sigs == "" {
		return ErrMissingHeaders
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return ErrTimestamp
	}
	now := cfg.now().Unix()
	if d := cfg.tolerance / time.Second; now-unix > int64(d) || unix-now > int64(d) {
		return ErrTimestamp
	}
	want := mac(key, id, unix, body)
	for _, s := range strings.Fields(sigs) {
		v, sig, ok := strings.Cut(s, ",")
		if !ok || v != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return ErrSignature
}
