package redisstore

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// create stores a new record of family f in one script run: id from the
// family's sequence, first free slug of its kind, record, meta and index
// entries.
func create[T any](ctx context.Context, s *Store, f *family[T], in *T) (*T, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := f.checkNew(in); err != nil {
		return nil, err
	}
	rec := f.clone(in)
	h := f.head(rec)
	*h.id, *h.version = 0, 1
	tpl, err := templateOf(f, rec)
	if err != nil {
		return nil, err
	}
	c := newCommit(s.k, f.prefix(s.k))
	c.newID(f.seq(s.k))
	c.pickSlug(f.slugs(s.k, rec), *h.slug, false, "")
	c.template(tpl)
	index(c, s.k, f, nil, rec, "") // "": the script's own id
	id, slug, err := s.run(ctx, "create "+f.what, c)
	if err != nil {
		return nil, err
	}
	*h.id, *h.slug = id, slug
	return rec, nil
}

// update reads the stored record, then commits in guarded on the bytes it
// read, so the version compare-and-set holds across processes.
func update[T any](ctx context.Context, s *Store, f *family[T], in *T) (*T, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	want := f.head(in) // the caller's record: only read
	id, op := *want.id, "update "+f.what
	key := f.key(s.k, id)
	var out *T
	err := retryStale(f.what, id, func() error {
		raw, found, err := s.getRaw(ctx, op, key)
		if err != nil {
			return err
		}
		if !found {
			return notFound(f.what, id)
		}
		old, err := f.decode(raw)
		if err != nil {
			return err
		}
		if err := f.checkUpdate(old, in); err != nil {
			return err
		}
		was := f.head(old)
		if *was.version != *want.version {
			return conflict("%s %d is at version %d, not %d", f.what, id, *was.version, *want.version)
		}
		rec := f.clone(in)
		h := f.head(rec)
		*h.version = *want.version + 1
		tpl, err := templateOf(f, rec)
		if err != nil {
			return err
		}
		c := newCommit(s.k, f.prefix(s.k))
		c.useID(id)
		c.guardValue(key, raw)
		c.pickSlug(f.slugs(s.k, rec), *h.slug, true, *was.slug)
		c.template(tpl)
		index(c, s.k, f, old, rec, itoa(id))
		_, slug, err := s.run(ctx, op, c)
		if err != nil {
			return err // errStale: changed since read; read again, which reports the conflict
		}
		*h.slug = slug
		out = rec
		return nil
	})
	return out, err
}

// index adds to c the meta and index writes that move member from record
// old (nil: none) to now.
func index[T any](c *commit, k keys, f *family[T], old, now *T, member string) {
	if f.meta != nil {
		c.hset(k.meta(), member, f.meta(now))
	}
	var was []zentry
	if old != nil {
		was = f.entries(k, old)
	}
	c.reindex(was, f.entries(k, now), member)
}

// remove deletes record id of family f (any version when version is 0) in
// one script run. The record and the sorted sets refKeys are read in one
// pipeline; plan adds to c the guards and the rewrites of other records that
// the members of refKeys call for, and returns the keys to drop with the
// record.
func remove[T any](ctx context.Context, s *Store, f *family[T], id, version int64, refKeys []string,
	plan func(c *commit, old *T, members [][]string) (drop []string, err error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	key, op, member := f.key(s.k, id), "delete "+f.what, itoa(id)
	return retryStale(f.what, id, func() error {
		pipe := s.c.Pipeline()
		get := pipe.Get(ctx, key)
		ranges := make([]*redis.StringSliceCmd, len(refKeys))
		for i, k := range refKeys {
			ranges[i] = pipe.ZRange(ctx, k, 0, -1)
		}
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return fail(ctx, op, err)
		}
		raw, err := get.Bytes()
		if errors.Is(err, redis.Nil) {
			return notFound(f.what, id)
		}
		if err != nil {
			return fail(ctx, op, err)
		}
		old, err := f.decode(raw)
		if err != nil {
			return err
		}
		was := f.head(old)
		if version != 0 && *was.version != version {
			return conflict("%s %d is at version %d, not %d", f.what, id, *was.version, version)
		}
		members := make([][]string, len(ranges))
		for i, r := range ranges {
			members[i] = r.Val()
		}
		c := newCommit(s.k, f.prefix(s.k))
		c.useID(id)
		c.guardValue(key, raw)
		drop, err := plan(c, old, members)
		if err != nil {
			return err
		}
		c.reindex(f.entries(s.k, old), nil, member)
		c.delOwn()
		if f.meta != nil {
			c.hdel(s.k.meta(), member)
		}
		c.hdelIf(f.slugs(s.k, old), *was.slug, member)
		for _, k := range drop {
			c.del(k)
		}
		_, _, err = s.run(ctx, op, c)
		return err
	})
}

// rewrite reads the records ids of family f, applies change to each, and
// adds the changed ones (Version+1, with their meta) to c, guarded on the
// bytes read; also, when not nil, adds what else a changed record needs. The
// caller drops the index keys that change implies.
func rewrite[T any](ctx context.Context, s *Store, c *commit, f *family[T], op string, ids []int64,
	change func(*T) bool, also func(*T)) error {
	if len(ids) == 0 {
		return nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = f.key(s.k, id)
	}
	vals, err := s.fetch(ctx, op, keys)
	if err != nil {
		return err
	}
	for i, raw := range vals {
		c.guardValue(keys[i], raw)
		if raw == nil {
			continue
		}
		rec, err := f.decode(raw)
		if err != nil {
			return err
		}
		if !change(rec) {
			continue
		}
		h := f.head(rec)
		*h.version++
		enc, err := f.encode(rec)
		if err != nil {
			return err
		}
		c.set(keys[i], enc)
		if f.meta != nil {
			c.hset(s.k.meta(), itoa(*h.id), f.meta(rec))
		}
		if also != nil {
			also(rec)
		}
	}
	return nil
}

// retryStale runs attempt, a read-decide-commit of record id, again while its
// commit fails as stale, at most maxAttempts times.
func retryStale(what string, id int64, attempt func() error) error {
	for range maxAttempts {
		if err := attempt(); !errors.Is(err, errStale) {
			return err
		}
	}
	return conflict("%s %d: too many concurrent writers", what, id)
}
