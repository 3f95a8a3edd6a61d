package boltstore

import (
	"fmt"

	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// migrateBatch is how many records a migration reads before it writes them
// back: bbolt cursors must not walk a bucket that is being changed.
const migrateBatch = 1024

// migrateLayout1 turns a file of layout 1 into layout 2 inside Open's
// transaction: every record is rewritten in the current format and the
// name and UID indexes, which layout 1 did not have, are built from the
// records. The other indexes are unchanged between the two layouts.
//
// Term names were not enforced by layout 1, so a level may hold one name
// twice; the index keeps both (it is not unique), both terms stay editable,
// and no term can take that name at that level any more (checkTermNames).
// UIDs did not exist in format 1.
func migrateLayout1(tx *bolt.Tx) error {
	err := rewriteAll(tx, bPosts, func(k, v []byte) ([]byte, []entry, error) {
		p, err := storage.DecodePost(v)
		if err != nil {
			return nil, nil, fmt.Errorf("post %d: %w", storage.ParseIDKey(k), err)
		}
		b, err := storage.EncodePost(p)
		if err != nil {
			return nil, nil, err
		}
		var es []entry
		for _, e := range postEntries(p) {
			if string(e.bucket) == string(bPostNames) || string(e.bucket) == string(bPostUIDs) {
				es = append(es, e)
			}
		}
		return b, es, nil
	})
	if err != nil {
		return err
	}
	return rewriteAll(tx, bTerms, func(k, v []byte) ([]byte, []entry, error) {
		t, err := storage.DecodeTerm(v)
		if err != nil {
			return nil, nil, fmt.Errorf("term %d: %w", storage.ParseIDKey(k), err)
		}
		b, err := storage.EncodeTerm(t)
		if err != nil {
			return nil, nil, err
		}
		return b, termEntries(t), nil
	})
}

// rewriteAll replaces every value of bucket by what conv returns and adds
// the index entries it returns, a batch at a time.
func rewriteAll(tx *bolt.Tx, bucket []byte, conv func(k, v []byte) ([]byte, []entry, error)) error {
	b := tx.Bucket(bucket)
	var after []byte
	for {
		type rec struct {
			key, value []byte
			entries    []entry
		}
		batch := make([]rec, 0, migrateBatch)
		c := b.Cursor()
		k, v := c.First()
		if after != nil {
			if k, v = c.Seek(after); k != nil && string(k) == string(after) {
				k, v = c.Next()
			}
		}
		for ; k != nil && len(batch) < migrateBatch; k, v = c.Next() {
			nv, es, err := conv(k, v)
			if err != nil {
				return err
			}
			batch = append(batch, rec{append([]byte(nil), k...), nv, es})
		}
		if len(batch) == 0 {
			return nil
		}
		for _, r := range batch {
			if err := b.Put(r.key, r.value); err != nil {
				return err
			}
			for _, e := range r.entries {
				ib := tx.Bucket(e.bucket)
				if string(e.bucket) == string(bPostUIDs) && ib.Get(e.key) != nil {
					return fmt.Errorf("%w: two posts hold uid key %q", ErrIncompatible, e.key)
				}
				if err := ib.Put(e.key, e.value); err != nil {
					return err
				}
			}
		}
		after = batch[len(batch)-1].key
	}
}

// buildLinkOrder fills link_order from the records: the migration from
// layout 3, which did not have it. Posts are read a batch at a time and
// their entries written after, so no cursor walks a bucket being changed.
func buildLinkOrder(tx *bolt.Tx) error {
	posts, links := tx.Bucket(bPosts), tx.Bucket(bLinkOrder)
	var after []byte
	for {
		var batch []entry
		c := posts.Cursor()
		k, v := c.First()
		if after != nil {
			if k, v = c.Seek(after); k != nil && string(k) == string(after) {
				k, v = c.Next()
			}
		}
		n := 0
		for ; k != nil && n < migrateBatch; k, v = c.Next() {
			n++
			after = append(after[:0], k...)
			p, err := storage.DecodePost(v)
			if err != nil {
				return fmt.Errorf("post %d: %w", storage.ParseIDKey(k), err)
			}
			for _, e := range postEntries(p) {
				if string(e.bucket) == string(bLinkOrder) {
					batch = append(batch, e)
				}
			}
		}
		if n == 0 {
			return nil
		}
		for _, e := range batch {
			if err := links.Put(e.key, e.value); err != nil {
				return err
			}
		}
	}
}
