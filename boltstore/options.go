package boltstore

import (
	"github.com/eventcal/eventcal/calendar"
	"io/fs"
	"time"
)

// DefaultTimeout is how long Open waits for the file lock by default.
const DefaultTimeout = 3 * time.Second

// Option tunes Open.
type Option func(*config)

type config struct {
	timeout time.Duration
	noSync  bool
	mode    fs.FileMode
	cache   int

	retention calendar.ChangeRetention
}

func defaultConfig() config {
	return config{timeout: DefaultTimeout, mode: 0o600, cache: DefaultCacheSize, retention: calendar.DefaultChangeRetention}
}

// WithTimeout sets how long Open waits for the lock on a file that another
// process (or another Store in this process) holds before it gives up with
// ErrLocked. A value ≤ 0 means DefaultTimeout: waiting forever is never what
// a server starting up wants.
func WithTimeout(d time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			d = DefaultTimeout
		}
		c.timeout = d
	}
}

// WithNoSync stops fsyncing each write. It GIVES UP DURABILITY: a write that
// returned may be lost, and the file may be corrupt, after a crash or power
// loss. It exists to seed large data sets quickly (benchmarks, imports that
// are re-run from scratch on failure); never use it for data you keep.
func WithNoSync() Option {
	return func(c *config) { c.noSync = true }
}

// WithFileMode sets the permissions of a file Open creates (default 0600:
// the file holds drafts and passwords).
func WithFileMode(mode fs.FileMode) Option {
	return func(c *config) { c.mode = mode }
}

// WithCacheSize sets how many decoded posts (and, apart, terms) the store keeps in memory to
// save decoding them again on reads (default DefaultCacheSize; 0 turns the
// cache off). A cached post is only used while its stored bytes are
// unchanged, so the cache never serves stale data.
func WithCacheSize(n int) Option {
	return func(c *config) { c.cache = max(n, 0) }
}
