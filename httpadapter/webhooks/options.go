package webhooks

import (
	"crypto/tls"
	"log/slog"
	"strings"
	"time"
)

// Defaults of the Dispatcher options.
const (
	DefaultTimeout         = 10 * time.Second
	DefaultMinBackoff      = time.Second
	DefaultMaxBackoff      = time.Hour
	DefaultDisableAfter    = 24 * time.Hour
	DefaultConcurrency     = 16
	DefaultLeaseTTL        = 30 * time.Second
	DefaultRefreshInterval = 30 * time.Second
	DefaultPageSize        = 100
)

// Option configures a Dispatcher.
type Option func(*config)

type config struct {
	log          *slog.Logger
	policy       TargetPolicy
	timeout      time.Duration
	minBackoff   time.Duration
	maxBackoff   time.Duration
	disableAfter time.Duration
	concurrency  int
	leaser       Leaser
	leaseTTL     time.Duration
	instance     string
	clock        Clock
	matcher      Matcher
	restBase     string
	tlsConf      *tls.Config
	lookup       LookupFunc
	refresh      time.Duration
	pageSize     int
}

// WithLogger sets where the dispatcher logs (default slog.Default()).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.log = l
		}
	}
}

// WithTargetPolicy sets which targets may be reached (default: https and
// public addresses only). Deliveries check it at connect time, so it holds
// for subscriptions stored before the policy changed too.
func WithTargetPolicy(p TargetPolicy) Option { return func(c *config) { c.policy = p } }

// WithTimeout bounds one delivery attempt: connecting, sending and reading
// the answer (default 10 s). A time-out is a failed attempt.
func WithTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithBackoff sets the shortest and the longest wait between two attempts
// at one change (default 1 s and 1 h). The n-th retry waits a random time
// between min and min·2ⁿ⁻¹, capped at max.
func WithBackoff(min, max time.Duration) Option {
	return func(c *config) {
		if min > 0 && max >= min {
			c.minBackoff, c.maxBackoff = min, max
		}
	}
}

// WithDisableAfter sets how long a subscription may fail without a single
// success before it is disabled (default 24 h).
func WithDisableAfter(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.disableAfter = d
		}
	}
}

// WithConcurrency bounds the deliveries in flight at once across all
// subscriptions (default 16). Each subscription has at most one in flight.
func WithConcurrency(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.concurrency = n
		}
	}
}

// WithLeaser sets the lease store shared by every instance that delivers
// the same subscriptions (default: a MemoryLeaser of this dispatcher alone,
// right for a single instance).
func WithLeaser(l Leaser) Option { return func(c *config) { c.leaser = l } }

// WithLeaseTTL sets how long a lease outlives its holder (default 30 s):
// the time another instance needs to take over from one that died. It is
// raised to at least twice the attempt time-out, because the holder renews
// it before each attempt so that it cannot expire during one.
func WithLeaseTTL(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.leaseTTL = d
		}
	}
}

// WithInstanceID names this dispatcher as a lease owner (default: random).
// Every running dispatcher must have its own.
func WithInstanceID(id string) Option {
	return func(c *config) {
		if id != "" {
			c.instance = id
		}
	}
}

// WithClock sets the clock retries and failure runs are measured with
// (default the real one); for tests.
func WithClock(cl Clock) Option {
	return func(c *config) {
		if cl != nil {
			c.clock = cl
		}
	}
}

// WithMatcher sets how subscription filters are decided (default: filters
// are ignored).
func WithMatcher(m Matcher) Option { return func(c *config) { c.matcher = m } }

// WithRESTBase sets the URL of the REST namespace records are read from,
// e.g. "https://example.com/wp-json/calendar/events/v1", so deliveries carry
// rest_url ("…/events/12"). Without it rest_url is "".
func WithRESTBase(u string) Option {
	return func(c *config) { c.restBase = strings.TrimRight(u, "/") }
}

// WithTLSConfig sets the TLS client configuration (default: the system's
// roots), e.g. to trust a private CA.
func WithTLSConfig(t *tls.Config) Option { return func(c *config) { c.tlsConf = t } }

// WithLookup replaces the system resolver; the addresses it returns are
// still checked against the target policy when connecting.
func WithLookup(f LookupFunc) Option { return func(c *config) { c.lookup = f } }

// WithRefreshInterval sets how often the dispatcher re-reads the active
// subscriptions (default 30 s); Refresh asks for it at once.
func WithRefreshInterval(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.refresh = d
		}
	}
}

// WithPageSize sets how many changes are read from the source at a time
// (default 100).
func WithPageSize(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.pageSize = n
		}
	}
}
