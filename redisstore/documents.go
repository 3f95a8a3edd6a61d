package redisstore

import (
	"context"
	"errors"
	mrand "math/rand/v2"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Documents is a keyed set of small documents kept in the calendar's Redis
// keys (the webhook subscriptions of httpadapter/webhooks live here, shared
// by every instance): a hash by id and a counter for new ids, in the
// calendar's hash tag. Update is an optimistic WATCH/MULTI transaction,
// retried a bounded number of times.
type Documents struct {
	c         redis.UniversalClient
	key, seqK string
}

// Documents returns the document set called name.
func (s *Store) Documents(name string) *Documents {
	return &Documents{c: s.c, key: s.k.tag + "doc:" + name, seqK: s.k.tag + "doc:" + name + ":seq"}
}

// NextID returns a new id.
func (d *Documents) NextID(ctx context.Context) (int64, error) {
	n, err := d.c.Incr(ctx, d.seqK).Result()
	if err != nil {
		return 0, fail(ctx, "document id", err)
	}
	return n, nil
}

// Get returns document id, or nil.
func (d *Documents) Get(ctx context.Context, id int64) ([]byte, error) {
	v, err := d.c.HGet(ctx, d.key, strconv.FormatInt(id, 10)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fail(ctx, "document", err)
	}
	return v, nil
}

// All returns every document by id.
func (d *Documents) All(ctx context.Context) (map[int64][]byte, error) {
	m, err := d.c.HGetAll(ctx, d.key).Result()
	if err != nil {
		return nil, fail(ctx, "documents", err)
	}
	out := make(map[int64][]byte, len(m))
	for k, v := range m {
		id, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			continue // not a document of this set
		}
		out[id] = []byte(v)
	}
	return out, nil
}

// Update replaces document id by what fn returns (nil deletes it); a
// concurrent change of the set makes it read and call fn again.
func (d *Documents) Update(ctx context.Context, id int64, fn func(old []byte) ([]byte, error)) error {
	field := strconv.FormatInt(id, 10)
	for attempt := range maxAttempts {
		var fnErr error
		err := d.c.Watch(ctx, func(tx *redis.Tx) error {
			old, err := tx.HGet(ctx, d.key, field).Bytes()
			if errors.Is(err, redis.Nil) {
				old, err = nil, nil
			}
			if err != nil {
				return err
			}
			v, err := fn(old)
			if err != nil {
				fnErr = err
				return err
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				if v == nil {
					p.HDel(ctx, d.key, field)
				} else {
					p.HSet(ctx, d.key, field, v)
				}
				return nil
			})
			return err
		}, d.key)
		if errors.Is(err, redis.TxFailedErr) {
			// Step aside a random while, longer each time, as Apply does.
			pause := time.Duration(mrand.Int64N(int64(time.Millisecond) << min(attempt, 5)))
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pause):
			}
			continue
		}
		if err != nil && err != fnErr {
			return fail(ctx, "update document", err)
		}
		return err
	}
	return conflict("document %d: too many concurrent writers", id)
}
