package redisstore

import (
	"errors"
	"strings"
	"sync"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// DefaultPrefix is the key prefix used when WithPrefix is not given.
const DefaultPrefix = "eventcal"

// DefaultFetchBatch is the default number of records fetched per pipelined
// round trip when a list has many candidates.
const DefaultFetchBatch = 16384

// mgetChunk is the number of keys per MGET inside a fetch pipeline: small
// enough that Redis interleaves other clients between chunks.
const mgetChunk = 512

// maxAttempts bounds the optimistic read-plan-write loop of Apply when
// another writer changes a record or index it planned on in between.
const maxAttempts = 16

// Store is a calendar.Repository on Redis. It is safe for concurrent use, and
// any number of Store values in any number of processes may share one
// calendar (same server, same prefix).
type Store struct {
	c     redis.UniversalClient
	k     keys
	batch int
	// The bounds of the exact window path (window.go); tests lower them to
	// exercise the fallback, or set noWindow to force the candidate path.
	maxIrregular, windowBudget int
	noWindow                   bool
	// decoded keeps decoded records by their bytes (decoded.go); nil: off.
	decoded *decodedCache
	// retention bounds the change log (changes.go).
	retention calendar.ChangeRetention
	// fault is the failure FailApplyAfter (defined in tests) injects into
	// the next Apply. A pointer, so that a Store value can be copied whole
	// (SharedReads) and its copies share it.
	fault *applyFault
}

type applyFault struct {
	sync.Mutex
	after int
	err   error
}

var _ calendar.Repository = (*Store)(nil)

// Option configures a Store.
type Option func(*Store) error

// WithPrefix sets the key prefix, so several calendars can share one Redis
// server; every key of the calendar is tagged "{prefix}:" so that it hashes to
// one Cluster slot. The prefix must be non-empty and must not contain '{' or
// '}'.
func WithPrefix(prefix string) Option {
	return func(s *Store) error {
		if prefix == "" || strings.ContainsAny(prefix, "{}") {
			return errors.New("redisstore: prefix must be non-empty and free of '{' and '}'")
		}
		s.k = newKeys(prefix)
		return nil
	}
}

// WithFetchBatch sets how many records a list fetches per round trip
// (default DefaultFetchBatch). Lists whose candidate set is larger take one
// more round trip per batch; a smaller batch bounds the memory of one reply.
func WithFetchBatch(n int) Option {
	return func(s *Store) error {
		if n < 1 {
			return errors.New("redisstore: fetch batch must be positive")
		}
		s.batch = n
		return nil
	}
}

// WithDecodedCache sets how many decoded records the Store keeps, keyed by
// their encoded bytes (default DefaultDecodedCache; 0 turns it off). Reads
// still fetch every record from Redis, so they see every write; the cache
// only skips decoding bytes it decoded before.
func WithDecodedCache(n int) Option {
	return func(s *Store) error {
		if n < 0 {
			return errors.New("redisstore: decoded cache size must not be negative")
		}
		s.decoded = newDecodedCache(n)
		return nil
	}
}

// New returns a Store on client. It does not contact the server: the first
// operation does, and a server that is down yields errors wrapping
// calendar.ErrUnavailable until it is back. The caller keeps ownership of
// client and closes it.
func New(client redis.UniversalClient, opts ...Option) (*Store, error) {
	if client == nil {
		return nil, errors.New("redisstore: nil client")
	}
	s := &Store{c: client, k: newKeys(DefaultPrefix), batch: DefaultFetchBatch,
		maxIrregular: maxIrregular, windowBudget: windowBudget, decoded: newDecodedCache(DefaultDecodedCache), fault: new(applyFault)}
	for _, o := range opts {
		if err := o(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Prefix returns the SCAN MATCH pattern of every key of this calendar,
// "{prefix}:*" with glob characters of the prefix escaped (for example to
// delete a calendar with SCAN and UNLINK).
func (s *Store) Prefix() string { return globEscape(s.k.tag) + "*" }

func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
