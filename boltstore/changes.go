package boltstore

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// The change log lives in its own bucket, keyed by Seq (8 bytes, big
// endian, so the bucket's order is the log's order), and two counters in
// the seq bucket: the newest Seq and the newest Seq trimmed away. The bucket
// is additive: Open creates it in a file written before it existed, whose
// log then starts empty.
var (
	bChanges       = []byte("changes")
	kChangeSeq     = []byte("change")
	kChangeTrimmed = []byte("change_trimmed")
)

// WithChangeRetention sets how long and how many changes the change log
// keeps (calendar.ChangeRetention.Normalized applies; default 30 days, at
// most a million).
func WithChangeRetention(r calendar.ChangeRetention) Option {
	return func(c *config) { c.retention = r.Normalized() }
}

var _ calendar.ChangeLog = (*Store)(nil)

// note records the change of one record write of this Apply.
func (a *applier) note(c calendar.Change) { a.changes = append(a.changes, c) }

// commitChanges appends the write's changes inside its transaction and
// trims a bounded number of old ones.
func (s *Store) commitChanges(tx *bolt.Tx, cs []calendar.Change) error {
	if len(cs) == 0 {
		return nil
	}
	seq := tx.Bucket(bSeq)
	last, _ := readU64(seq.Get(kChangeSeq))
	now := time.Now().UTC()
	storage.StampChanges(cs, int64(last), now)
	b := tx.Bucket(bChanges)
	b.FillPercent = appendFill
	for i := range cs {
		if err := b.Put(storage.IDKey(cs[i].Seq), encodeChange(&cs[i])); err != nil {
			return err
		}
	}
	if err := seq.Put(kChangeSeq, u64(uint64(cs[len(cs)-1].Seq))); err != nil {
		return err
	}
	return s.trim(tx, now, storage.MaxTrimPerWrite+len(cs))
}

// trim removes, from the oldest on, at most max changes the retention no
// longer keeps; it reads one entry more than it removes.
func (s *Store) trim(tx *bolt.Tx, now time.Time, max int) error {
	seq := tx.Bucket(bSeq)
	last, _ := readU64(seq.Get(kChangeSeq))
	trimmed, _ := readU64(seq.Get(kChangeTrimmed))
	cut := now.Add(-s.retention.MaxAge)
	c := tx.Bucket(bChanges).Cursor()
	n, upTo := 0, trimmed
	for k, v := c.First(); k != nil && n < max; k, v = c.First() {
		var ch calendar.Change
		if err := decodeChange(k, v, &ch); err != nil {
			return err
		}
		if int64(last)-ch.Seq+1 <= int64(s.retention.MaxCount) && !ch.Time.Before(cut) {
			break
		}
		if err := c.Delete(); err != nil {
			return err
		}
		upTo = uint64(ch.Seq)
		n++
	}
	if upTo == trimmed {
		return nil
	}
	return seq.Put(kChangeTrimmed, u64(upTo))
}

// ChangesAfter implements calendar.ChangeLog.
func (s *Store) ChangesAfter(ctx context.Context, after int64, limit int) ([]calendar.Change, error) {
	if limit <= 0 {
		limit = 100
	}
	var out []calendar.Change
	err := s.view(ctx, func(tx *bolt.Tx) error {
		trimmed, _ := readU64(tx.Bucket(bSeq).Get(kChangeTrimmed))
		if after < int64(trimmed) {
			return fmt.Errorf("boltstore: changes after %d: %w", after, calendar.ErrChangesExpired)
		}
		c := tx.Bucket(bChanges).Cursor()
		for k, v := c.Seek(storage.IDKey(after + 1)); k != nil && len(out) < limit; k, v = c.Next() {
			var ch calendar.Change
			if err := decodeChange(k, v, &ch); err != nil {
				return err
			}
			out = append(out, ch)
		}
		return nil
	})
	return out, err
}

// LastChangeSeq implements calendar.ChangeLog.
func (s *Store) LastChangeSeq(ctx context.Context) (int64, error) {
	var last uint64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		last, _ = readU64(tx.Bucket(bSeq).Get(kChangeSeq))
		return nil
	})
	return int64(last), err
}

// TrimChanges implements calendar.ChangeLog, in transactions of bounded size.
func (s *Store) TrimChanges(ctx context.Context, now time.Time) error {
	for {
		var before, after uint64
		err := s.update(ctx, func(tx *bolt.Tx) error {
			before, _ = readU64(tx.Bucket(bSeq).Get(kChangeTrimmed))
			if err := s.trim(tx, now, 10_000); err != nil {
				return err
			}
			after, _ = readU64(tx.Bucket(bSeq).Get(kChangeTrimmed))
			return nil
		})
		if err != nil || after == before {
			return err
		}
	}
}

// WaitChanges implements calendar.ChangeLog; a file has one writing process,
// so the in-process signal of commits is enough.
func (s *Store) WaitChanges(ctx context.Context, after int64) error {
	return storage.WaitChanges(ctx, &s.changeSig, after, s.LastChangeSeq)
}

// A change is stored as
//
//	time(12) kind(1) action(1) id(8) version(8) tx(8) series(8)
//
// with its Seq in the key. The actions are numbered here, not spelled: the
// stored form never follows a renamed constant.
var actionCodes = []calendar.ChangeAction{"", calendar.ChangeCreated, calendar.ChangeUpdated,
	calendar.ChangeTrashed, calendar.ChangeRestored, calendar.ChangeDeleted}

const changeLen = 12 + 1 + 1 + 8*4

func encodeChange(c *calendar.Change) []byte {
	b := make([]byte, 0, changeLen)
	b = appendTime(b, c.Time)
	var act byte
	for i, a := range actionCodes {
		if a == c.Action {
			act = byte(i)
		}
	}
	b = append(b, byte(c.Kind), act)
	for _, n := range []int64{c.ID, c.Version, c.Tx, c.Series} {
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return b
}

func decodeChange(k, v []byte, c *calendar.Change) error {
	if len(k) != 8 || len(v) != changeLen || int(v[13]) >= len(actionCodes) || v[13] == 0 {
		return fmt.Errorf("%w: malformed change-log entry", storage.ErrBadRecord)
	}
	c.Seq = storage.ParseIDKey(k)
	c.Time = readTime(v)
	c.Kind, c.Action = calendar.Kind(v[12]), actionCodes[v[13]]
	c.ID = int64(binary.BigEndian.Uint64(v[14:]))
	c.Version = int64(binary.BigEndian.Uint64(v[22:]))
	c.Tx = int64(binary.BigEndian.Uint64(v[30:]))
	c.Series = int64(binary.BigEndian.Uint64(v[38:]))
	return nil
}
