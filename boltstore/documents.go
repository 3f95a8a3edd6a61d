package boltstore

import (
	"context"

	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// Documents is a keyed set of small documents kept in the store's file
// beside the records (the webhook subscriptions of httpadapter/webhooks
// live here): one bucket per name, keyed by id, with the bucket's own
// sequence for new ids. Every Update is one transaction.
type Documents struct {
	s      *Store
	bucket []byte
}

// Documents returns the document set called name.
func (s *Store) Documents(name string) *Documents {
	return &Documents{s: s, bucket: []byte("doc:" + name)}
}

// NextID returns a new id, never handed out before in this set.
func (d *Documents) NextID(ctx context.Context) (int64, error) {
	var id uint64
	err := d.s.update(ctx, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(d.bucket)
		if err != nil {
			return err
		}
		id, err = b.NextSequence()
		return err
	})
	return int64(id), err
}

// Get returns document id, or nil when there is none.
func (d *Documents) Get(ctx context.Context, id int64) ([]byte, error) {
	var out []byte
	err := d.s.view(ctx, func(tx *bolt.Tx) error {
		if b := tx.Bucket(d.bucket); b != nil {
			if v := b.Get(storage.IDKey(id)); v != nil {
				out = append([]byte(nil), v...)
			}
		}
		return nil
	})
	return out, err
}

// All returns every document by id.
func (d *Documents) All(ctx context.Context) (map[int64][]byte, error) {
	out := map[int64][]byte{}
	err := d.s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(d.bucket)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			out[storage.ParseIDKey(k)] = append([]byte(nil), v...)
			return nil
		})
	})
	return out, err
}

// Update replaces document id by what fn returns (nil deletes it), in one
// transaction.
func (d *Documents) Update(ctx context.Context, id int64, fn func(old []byte) ([]byte, error)) error {
	return d.s.update(ctx, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(d.bucket)
		if err != nil {
			return err
		}
		var old []byte
		if v := b.Get(storage.IDKey(id)); v != nil {
			old = append([]byte(nil), v...)
		}
		v, err := fn(old)
		if err != nil {
			return err
		}
		if v == nil {
			return b.Delete(storage.IDKey(id))
		}
		return b.Put(storage.IDKey(id), v)
	})
}
