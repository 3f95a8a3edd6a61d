package redisstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/redis/go-redis/v9"
)

// CreatePost stores a new post in one script run: id from the post sequence,
// first free slug of its kind, record and index entries.
func (s *Store) CreatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !p.Kind.IsPost() {
		return nil, invalid("create post: %v is not a post kind", p.Kind)
	}
	rec := p.Clone()
	rec.ID, rec.Version = 0, 1
	tpl, err := postTemplate(rec)
	if err != nil {
		return nil, err
	}
	c := newCommit(s.k, s.k.postPrefix())
	c.newID(s.k.postSeq())
	c.pickSlug(s.k.slugs(rec.Kind), rec.Slug, false, "")
	c.template(tpl)
	c.hset(s.k.meta(), "", encodeMeta(rec))
	c.reindex(nil, s.k.postEntries(rec), "")
	id, slug, err := s.run(ctx, "create post", c)
	if err != nil {
		return nil, err
	}
	rec.ID, rec.Slug = id, slug
	return rec, nil
}

// UpdatePost reads the stored post, then commits the new one guarded on the
// bytes it read, so the version compare-and-set holds across processes.
func (s *Store) UpdatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key := s.k.post(p.ID)
	for range maxAttempts {
		raw, found, err := s.getRaw(ctx, "update post", key)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, notFound("post", p.ID)
		}
		old, err := storage.DecodePost(raw)
		if err != nil {
			return nil, err
		}
		if old.Kind != p.Kind {
			return nil, invalid("update post %d: it is a %v, not a %v", p.ID, old.Kind, p.Kind)
		}
		if old.Version != p.Version {
			return nil, conflict("post %d is at version %d, not %d", p.ID, old.Version, p.Version)
		}
		rec := p.Clone()
		rec.Version = p.Version + 1
		tpl, err := postTemplate(rec)
		if err != nil {
			return nil, err
		}
		c := newCommit(s.k, s.k.postPrefix())
		c.useID(p.ID)
		c.guardValue(key, raw)
		c.pickSlug(s.k.slugs(rec.Kind), rec.Slug, true, old.Slug)
		c.template(tpl)
		c.hset(s.k.meta(), itoa(p.ID), encodeMeta(rec))
		c.reindex(s.k.postEntries(old), s.k.postEntries(rec), itoa(p.ID))
		_, slug, err := s.run(ctx, "update post", c)
		if errors.Is(err, errStale) {
			continue // changed since read: read again, which reports the conflict
		}
		if err != nil {
			return nil, err
		}
		rec.Slug = slug
		return rec, nil
	}
	return nil, conflict("post %d: too many concurrent writers", p.ID)
}

// DeletePost removes a post and, in the same script run, unlinks it from
// every event that names it as venue, organizer or parent.
func (s *Store) DeletePost(ctx context.Context, id, version int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	key := s.k.post(id)
	refKeys := []string{s.k.evLink(calendar.KindVenue, id), s.k.evLink(calendar.KindOrganizer, id), s.k.evParent(id)}
	for range maxAttempts {
		pipe := s.c.Pipeline()
		get := pipe.Get(ctx, key)
		ranges := make([]*redis.StringSliceCmd, len(refKeys))
		for i, k := range refKeys {
			ranges[i] = pipe.ZRange(ctx, k, 0, -1)
		}
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return fail(ctx, "delete post", err)
		}
		raw, err := get.Bytes()
		if errors.Is(err, redis.Nil) {
			return notFound("post", id)
		}
		if err != nil {
			return fail(ctx, "delete post", err)
		}
		old, err := storage.DecodePost(raw)
		if err != nil {
			return err
		}
		if version != 0 && old.Version != version {
			return conflict("post %d is at version %d, not %d", id, old.Version, version)
		}
		c := newCommit(s.k, s.k.postPrefix())
		c.useID(id)
		c.guardValue(key, raw)
		var refs []int64
		for i, r := range ranges {
			c.guardMembers(refKeys[i], r.Val())
			for _, m := range r.Val() {
				if rid, err := strconv.ParseInt(m, 10, 64); err == nil && rid != id {
					refs = append(refs, rid)
				}
			}
		}
		slices.Sort(refs)
		refs = slices.Compact(refs)
		if err := s.rewriteEvents(ctx, c, refs, func(ev *calendar.PostRecord) bool { return unlinkPost(ev, id) }); err != nil {
			return err
		}
		c.reindex(s.k.postEntries(old), nil, itoa(id))
		c.delOwn()
		c.hdel(s.k.meta(), itoa(id))
		c.hdelIf(s.k.slugs(old.Kind), old.Slug, itoa(id))
		for _, k := range refKeys {
			c.del(k)
		}
		if _, _, err := s.run(ctx, "delete post", c); errors.Is(err, errStale) {
			continue
		} else {
			return err
		}
	}
	return conflict("post %d: too many concurrent writers", id)
}

// rewriteEvents reads the events ids, applies change to each, and adds the
// changed ones (Version+1) to c, guarded on the bytes read. The caller drops
// the index keys that change implies.
func (s *Store) rewriteEvents(ctx context.Context, c *commit, ids []int64, change func(*calendar.PostRecord) bool) error {
	if len(ids) == 0 {
		return nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = s.k.post(id)
	}
	vals, err := s.fetch(ctx, "unlink", keys)
	if err != nil {
		return err
	}
	for i, raw := range vals {
		c.guardValue(keys[i], raw)
		if raw == nil {
			continue
		}
		ev, err := storage.DecodePost(raw)
		if err != nil {
			return err
		}
		if !change(ev) {
			continue
		}
		ev.Version++
		enc, err := storage.EncodePost(ev)
		if err != nil {
			return err
		}
		c.set(keys[i], enc)
		c.hset(s.k.meta(), itoa(ev.ID), encodeMeta(ev))
	}
	return nil
}

// unlinkPost removes post id from the venue, organizer and parent links of
// ev and reports whether anything changed.
func unlinkPost(ev *calendar.PostRecord, id int64) bool {
	changed := false
	for _, k := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
		if links := ev.Links(k); slices.Contains(links, id) {
			ev.SetLinks(k, slices.DeleteFunc(slices.Clone(links), func(v int64) bool { return v == id }))
			changed = true
		}
	}
	if ev.PostParent == id {
		ev.PostParent = 0
		changed = true
	}
	return changed
}

// GetPost reads one post: one GET.
func (s *Store) GetPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	raw, found, err := s.getRaw(ctx, "get post", s.k.post(id))
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, notFound("post", id)
	}
	return storage.DecodePost(raw)
}

// GetPosts reads the posts that exist among ids, in the order asked: one MGET
// (pipelined batches beyond the fetch batch).
func (s *Store) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = s.k.post(id)
	}
	vals, err := s.fetch(ctx, "get posts", keys)
	if err != nil {
		return nil, err
	}
	out := make([]*calendar.PostRecord, 0, len(vals))
	for _, raw := range vals {
		if raw == nil {
			continue
		}
		p, err := storage.DecodePost(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// PostBySlug resolves the slug and reads the post in one script run.
func (s *Store) PostBySlug(ctx context.Context, kind calendar.Kind, slug string) (*calendar.PostRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !kind.IsPost() {
		return nil, fmt.Errorf("redisstore: %v is not a post kind: %w", kind, calendar.ErrNotFound)
	}
	raw, err := bySlugScript.Run(ctx, s.c, []string{s.k.slugs(kind)}, slug, s.k.postPrefix()).Text()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("redisstore: %v slug %q: %w", kind, slug, calendar.ErrNotFound)
	}
	if err != nil {
		return nil, fail(ctx, "post by slug", err)
	}
	return storage.DecodePost([]byte(raw))
}
