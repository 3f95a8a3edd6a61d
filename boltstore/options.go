package boltstore

import (
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
}

func defaultConfig() config {
	return config{timeout: DefaultTimeout, mode: 0o600}
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
