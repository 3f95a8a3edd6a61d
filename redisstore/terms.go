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

// CreateTerm stores a new term in one script run: id from the term sequence,
// first free slug of its taxonomy, record and index entries.
func (s *Store) CreateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	kind := t.Taxonomy.Kind()
	if kind == 0 {
		return nil, invalid("create term: unknown taxonomy %q", t.Taxonomy)
	}
	rec := t.Clone()
	rec.ID, rec.Version = 0, 1
	tpl, err := termTemplate(rec)
	if err != nil {
		return nil, err
	}
	c := newCommit(s.k, s.k.termPrefix())
	c.newID(s.k.termSeq())
	c.pickSlug(s.k.slugs(kind), rec.Slug, false, "")
	c.template(tpl)
	c.reindex(nil, s.k.termEntries(rec), "")
	id, slug, err := s.run(ctx, "create term", c)
	if err != nil {
		return nil, err
	}
	rec.ID, rec.Slug = id, slug
	return rec, nil
}

// UpdateTerm replaces a term with version compare-and-set, guarded like
// UpdatePost.
func (s *Store) UpdateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key := s.k.term(t.ID)
	for range maxAttempts {
		raw, found, err := s.getRaw(ctx, "update term", key)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, notFound("term", t.ID)
		}
		old, err := storage.DecodeTerm(raw)
		if err != nil {
			return nil, err
		}
		if old.Taxonomy != t.Taxonomy {
			return nil, invalid("update term %d: it is in %s, not %s", t.ID, old.Taxonomy, t.Taxonomy)
		}
		if old.Version != t.Version {
			return nil, conflict("term %d is at version %d, not %d", t.ID, old.Version, t.Version)
		}
		rec := t.Clone()
		rec.Version = t.Version + 1
		tpl, err := termTemplate(rec)
		if err != nil {
			return nil, err
		}
		c := newCommit(s.k, s.k.termPrefix())
		c.useID(t.ID)
		c.guardValue(key, raw)
		c.pickSlug(s.k.slugs(old.Taxonomy.Kind()), rec.Slug, true, old.Slug)
		c.template(tpl)
		c.reindex(s.k.termEntries(old), s.k.termEntries(rec), itoa(t.ID))
		_, slug, err := s.run(ctx, "update term", c)
		if errors.Is(err, errStale) {
			continue
		}
		if err != nil {
			return nil, err
		}
		rec.Slug = slug
		return rec, nil
	}
	return nil, conflict("term %d: too many concurrent writers", t.ID)
}

// DeleteTerm removes a term and, in the same script run, unlinks it from
// every event (Version+1 each) and gives its child categories its parent
// (Version+1 each).
func (s *Store) DeleteTerm(ctx context.Context, id, version int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	key := s.k.term(id)
	for range maxAttempts {
		pipe := s.c.Pipeline()
		get := pipe.Get(ctx, key)
		catEvents := pipe.ZRange(ctx, s.k.evLink(calendar.KindCategory, id), 0, -1)
		tagEvents := pipe.ZRange(ctx, s.k.evLink(calendar.KindTag, id), 0, -1)
		children := pipe.ZRange(ctx, s.k.children(id), 0, -1)
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return fail(ctx, "delete term", err)
		}
		raw, err := get.Bytes()
		if errors.Is(err, redis.Nil) {
			return notFound("term", id)
		}
		if err != nil {
			return fail(ctx, "delete term", err)
		}
		old, err := storage.DecodeTerm(raw)
		if err != nil {
			return err
		}
		if version != 0 && old.Version != version {
			return conflict("term %d is at version %d, not %d", id, old.Version, version)
		}
		kind := old.Taxonomy.Kind()
		linkKey := s.k.evLink(kind, id)
		events := catEvents
		if kind == calendar.KindTag {
			events = tagEvents
		}
		c := newCommit(s.k, s.k.termPrefix())
		c.useID(id)
		c.guardValue(key, raw)
		c.guardMembers(linkKey, events.Val())
		c.guardMembers(s.k.children(id), children.Val())
		if err := s.rewriteEvents(ctx, c, parseIDs(events.Val()), func(ev *calendar.PostRecord) bool {
			links := ev.Links(kind)
			if !slices.Contains(links, id) {
				return false
			}
			ev.SetLinks(kind, slices.DeleteFunc(slices.Clone(links), func(v int64) bool { return v == id }))
			return true
		}); err != nil {
			return err
		}
		if err := s.reparent(ctx, c, parseIDs(children.Val()), id, old.Parent); err != nil {
			return err
		}
		c.reindex(s.k.termEntries(old), nil, itoa(id))
		c.delOwn()
		c.hdelIf(s.k.slugs(kind), old.Slug, itoa(id))
		c.del(linkKey)
		c.del(s.k.children(id))
		if _, _, err := s.run(ctx, "delete term", c); errors.Is(err, errStale) {
			continue
		} else {
			return err
		}
	}
	return conflict("term %d: too many concurrent writers", id)
}

// reparent moves the child categories ids of category from to parent to
// (Version+1 each), guarded on the bytes read.
func (s *Store) reparent(ctx context.Context, c *commit, ids []int64, from, to int64) error {
	if len(ids) == 0 {
		return nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = s.k.term(id)
	}
	vals, err := s.fetch(ctx, "reparent", keys)
	if err != nil {
		return err
	}
	for i, raw := range vals {
		c.guardValue(keys[i], raw)
		if raw == nil {
			continue
		}
		t, err := storage.DecodeTerm(raw)
		if err != nil {
			return err
		}
		if t.Parent != from || t.ID == to {
			continue
		}
		t.Parent = to
		t.Version++
		enc, err := storage.EncodeTerm(t)
		if err != nil {
			return err
		}
		c.set(keys[i], enc)
		if to != 0 {
			c.zadd(s.k.children(to), itoa(t.ID), itoa(t.ID))
		}
	}
	return nil
}

func parseIDs(ms []string) []int64 {
	out := make([]int64, 0, len(ms))
	for _, m := range ms {
		if id, err := strconv.ParseInt(m, 10, 64); err == nil {
			out = append(out, id)
		}
	}
	return out
}

// GetTerm reads one term: one GET.
func (s *Store) GetTerm(ctx context.Context, id int64) (*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	raw, found, err := s.getRaw(ctx, "get term", s.k.term(id))
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, notFound("term", id)
	}
	return storage.DecodeTerm(raw)
}

// GetTerms reads the terms that exist among ids, in the order asked.
func (s *Store) GetTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = s.k.term(id)
	}
	vals, err := s.fetch(ctx, "get terms", keys)
	if err != nil {
		return nil, err
	}
	out := make([]*calendar.TermRecord, 0, len(vals))
	for _, raw := range vals {
		if raw == nil {
			continue
		}
		t, err := storage.DecodeTerm(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// TermBySlug resolves the slug and reads the term in one script run.
func (s *Store) TermBySlug(ctx context.Context, tax calendar.Taxonomy, slug string) (*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	kind := tax.Kind()
	if kind == 0 {
		return nil, fmt.Errorf("redisstore: unknown taxonomy %q: %w", tax, calendar.ErrNotFound)
	}
	raw, err := bySlugScript.Run(ctx, s.c, []string{s.k.slugs(kind)}, slug, s.k.termPrefix()).Text()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("redisstore: %s slug %q: %w", tax, slug, calendar.ErrNotFound)
	}
	if err != nil {
		return nil, fail(ctx, "term by slug", err)
	}
	return storage.DecodeTerm([]byte(raw))
}

// ListTerms reads every term of the taxonomy in ascending id order in one
// script run.
func (s *Store) ListTerms(ctx context.Context, tax calendar.Taxonomy) ([]*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	kind := tax.Kind()
	if kind == 0 {
		return nil, nil
	}
	vals, err := rangeGetScript.Run(ctx, s.c, []string{s.k.kindIndex(kind)}, s.k.termPrefix()).StringSlice()
	if err != nil {
		return nil, fail(ctx, "list terms", err)
	}
	out := make([]*calendar.TermRecord, 0, len(vals))
	for _, v := range vals {
		t, err := storage.DecodeTerm([]byte(v))
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
