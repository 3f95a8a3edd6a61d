package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// LayoutVersion is the version of this package's bucket and key layout. It is
// stored in every file beside storage.FormatVersion. Open migrates a file of
// layout 1 (record format 1), 2 or 3 in place; a file carrying any other pair
// is refused.
//
//	1: records in format 1; no name or UID index
//	2: records in format 2; name indexes (post_names, term_names) and UIDs (post_uids)
//	3: event counts (event_counts) with the scheduled and odd-ended events apart (event_future, event_odd)
//	4: the events of each linked venue, organizer, category and tag in list order (link_order)
const LayoutVersion = 4

// magic marks a file as an eventcal store, so that Open refuses to adopt a
// bbolt file written by some other program.
const magic = "eventcal/boltstore"

// ErrLocked is wrapped by the error Open returns when the file is held by
// another process or another open Store.
var ErrLocked = errors.New("boltstore: database file is locked (in use by another process or another open Store)")

// ErrIncompatible is wrapped by the error Open returns for a file this build
// cannot read: written by a newer or unknown version, or not an eventcal store.
var ErrIncompatible = errors.New("boltstore: incompatible database file")

// Store is a calendar.Repository kept in one bbolt file. It is safe for
// concurrent use; writes are serialized by bbolt, reads run in parallel.
type Store struct {
	db      *bolt.DB
	path    string
	cache   *postCache
	terms   *termCache
	fault   faultHook // armed only by tests
	commits committer

	retention calendar.ChangeRetention
	changeSig storage.ChangeSignal

	closeOnce sync.Once
	closeErr  error
}

var _ calendar.Repository = (*Store)(nil)

// Open opens the store in the file at path, creating it (and its buckets) if
// it does not exist. It fails with an error wrapping ErrLocked when another
// process holds the file for longer than the lock timeout (WithTimeout), and
// with one wrapping ErrIncompatible when the file was written by another
// version or is not an eventcal store.
func Open(path string, opts ...Option) (*Store, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	db, err := bolt.Open(path, cfg.mode, &bolt.Options{Timeout: cfg.timeout, NoSync: cfg.noSync})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("boltstore: open %s: file still in use after waiting %v: %w (%w)", path, cfg.timeout, ErrLocked, err)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum):
		return nil, fmt.Errorf("boltstore: open %s: not a bbolt database: %w (%w)", path, ErrIncompatible, err)
	case err != nil:
		return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
	}
	if err := db.Update(initLayout); err != nil {
		db.Close()
		return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
	}
	return &Store{db: db, path: path, cache: newPostCache(cfg.cache), terms: newTermCache(cfg.cache), retention: cfg.retention}, nil
}

// Path returns the file the store was opened on.
func (s *Store) Path() string { return s.path }

// Close releases the file. It is safe to call more than once and from
// several goroutines; later calls return the first call's result. Operations
// after Close fail with an error wrapping calendar.ErrUnavailable.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		if err := s.db.Close(); err != nil {
			s.closeErr = fmt.Errorf("boltstore: close %s: %w", s.path, err)
		}
	})
	return s.closeErr
}

// initLayout creates the buckets of a new file and stamps its versions, or
// checks the stamp of an existing one and migrates an older layout it knows,
// all in Open's one transaction: a migration that fails leaves the file as
// it was.
func initLayout(tx *bolt.Tx) error {
	meta := tx.Bucket(bMeta)
	if meta == nil {
		empty := true
		if err := tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil }); err != nil {
			return err
		}
		if !empty {
			return fmt.Errorf("%w: the file holds bbolt buckets but no eventcal meta bucket", ErrIncompatible)
		}
		var err error
		if meta, err = tx.CreateBucket(bMeta); err != nil {
			return err
		}
		if err := meta.Put(kMagic, []byte(magic)); err != nil {
			return err
		}
		if err := stamp(meta); err != nil {
			return err
		}
	}
	format, layout, err := readStamp(meta)
	if err != nil {
		return err
	}
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	migrated := false
	if format == 1 && layout == 1 {
		if err := migrateLayout1(tx); err != nil {
			return fmt.Errorf("migrating from layout 1: %w", err)
		}
		format, layout, migrated = storage.FormatVersion, 2, true
	}
	if layout == 2 && format == storage.FormatVersion {
		if err := buildCounts(tx); err != nil {
			return fmt.Errorf("migrating from layout 2: %w", err)
		}
		layout, migrated = 3, true
	}
	if layout == 3 && format == storage.FormatVersion {
		if err := buildLinkOrder(tx); err != nil {
			return fmt.Errorf("migrating from layout 3: %w", err)
		}
		migrated = true
	}
	if migrated {
		if err := stamp(meta); err != nil {
			return err
		}
	} else if err := checkMeta(meta); err != nil {
		return err
	}
	return initOddEnds(tx)
}

// stamp records the current format and layout.
func stamp(meta *bolt.Bucket) error {
	if err := meta.Put(kFormat, u64(storage.FormatVersion)); err != nil {
		return err
	}
	return meta.Put(kLayout, u64(LayoutVersion))
}

func readStamp(meta *bolt.Bucket) (format, layout uint64, err error) {
	if m := meta.Get(kMagic); !bytes.Equal(m, []byte(magic)) {
		return 0, 0, fmt.Errorf("%w: not an eventcal store (magic %q)", ErrIncompatible, m)
	}
	format, okF := readU64(meta.Get(kFormat))
	layout, okL := readU64(meta.Get(kLayout))
	if !okF || !okL {
		return 0, 0, fmt.Errorf("%w: version stamp missing or malformed", ErrIncompatible)
	}
	return format, layout, nil
}

// checkMeta accepts the current stamp only.
func checkMeta(meta *bolt.Bucket) error {
	format, layout, err := readStamp(meta)
	if err != nil {
		return err
	}
	if format != storage.FormatVersion || layout != LayoutVersion {
		return fmt.Errorf("%w: written with record format %d, layout %d; this build reads format %d, layout %d (and migrates layouts 1 to 3)",
			ErrIncompatible, format, layout, storage.FormatVersion, LayoutVersion)
	}
	return nil
}

func u64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

func readU64(b []byte) (uint64, bool) {
	if len(b) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(b), true
}

// view runs fn in a read-only transaction after checking ctx.
func (s *Store) view(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.wrapTx(s.db.View(fn))
}

// wrapTx marks failures of bbolt itself (closed store, I/O errors, a full
// disk) as unavailable. Errors the driver made on purpose (not found,
// conflict, invalid, an undecodable record) and context errors pass through.
func (s *Store) wrapTx(err error) error {
	var ce *calendar.Error
	var se *calendar.StepError
	switch {
	case err == nil, errors.As(err, &ce), errors.As(err, &se), errors.Is(err, calendar.ErrNameTaken),
		errors.Is(err, storage.ErrBadRecord), errors.Is(err, ErrInconsistent),
		errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return fmt.Errorf("boltstore: %s: %w: %w", s.path, calendar.ErrUnavailable, err)
}
