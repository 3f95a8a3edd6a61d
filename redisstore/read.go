package redisstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// get reads record id of family f: one GET.
func get[T any](ctx context.Context, s *Store, f *family[T], id int64) (*T, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	raw, err := s.c.Get(ctx, f.key(s.k, id)).Result()
	if errors.Is(err, redis.Nil) {
		return nil, notFound(f.what, id)
	}
	if err != nil {
		return nil, fail(ctx, "get "+f.what, err)
	}
	return f.decode(s, raw)
}

// getMany reads the records of family f that exist among ids, in the order
// asked: see fetchRecords.
func getMany[T any](ctx context.Context, s *Store, f *family[T], ids []int64) ([]*T, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = f.key(s.k, id)
	}
	return fetchRecords(ctx, s, "get "+f.what+"s", keys, f.decode)
}

// fetchRecords reads the records at keys with fetch (one MGET, pipelined
// batches beyond the fetch batch) and decodes those that exist, in order.
func fetchRecords[T any](ctx context.Context, s *Store, op string, keys []string, decode func(*Store, string) (*T, error)) ([]*T, error) {
	vals, err := s.batched(ctx, op, len(keys), func(c redis.Cmdable, lo, hi int) *redis.SliceCmd {
		return c.MGet(ctx, keys[lo:hi]...)
	})
	if err != nil {
		return nil, err
	}
	return decodeAll(s, vals, decode)
}

// decodeAll decodes the values of an MGET that exist, in order.
func decodeAll[T any](s *Store, vals []any, decode func(*Store, string) (*T, error)) ([]*T, error) {
	out := make([]*T, 0, len(vals))
	for _, v := range vals {
		raw, ok := v.(string)
		if !ok {
			continue // deleted, or never existed
		}
		rec, err := decode(s, raw)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// bySlug resolves slug in the slug hash of kind and reads the record of
// family f in one script run; name is the kind as the not-found error says
// it.
func bySlug[T any](ctx context.Context, s *Store, f *family[T], kind calendar.Kind, name, slug string) (*T, error) {
	raw, err := bySlugScript.Run(ctx, s.c, []string{s.k.slugs(kind)}, slug, f.prefix(s.k)).Text()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("redisstore: %s slug %q: %w", name, slug, calendar.ErrNotFound)
	}
	if err != nil {
		return nil, fail(ctx, f.what+" by slug", err)
	}
	return f.decode(s, raw)
}
