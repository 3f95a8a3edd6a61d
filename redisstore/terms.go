package redisstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// CreateTerm stores a new term in one script run: id from the term sequence,
// first free slug of its taxonomy, record and index entries.
func (s *Store) CreateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	return create(ctx, s, termFamily, t)
}

// UpdateTerm replaces a term with version compare-and-set, guarded like
// UpdatePost.
func (s *Store) UpdateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	return update(ctx, s, termFamily, t)
}

// DeleteTerm removes a term and, in the same script run, unlinks it from
// every event (Version+1 each) and gives its child categories its parent
// (Version+1 each).
func (s *Store) DeleteTerm(ctx context.Context, id, version int64) error {
	// Both link indexes are read because the taxonomy is only known once the
	// term is: one pipeline either way.
	catEvents, tagEvents, children := s.k.evLink(calendar.KindCategory, id), s.k.evLink(calendar.KindTag, id), s.k.children(id)
	refKeys := []string{catEvents, tagEvents, children}
	return remove(ctx, s, termFamily, id, version, refKeys, func(c *commit, old *calendar.TermRecord, members [][]string) ([]string, error) {
		kind := old.Taxonomy.Kind()
		linkKey := s.k.evLink(kind, id)
		events := members[0]
		if kind == calendar.KindTag {
			events = members[1]
		}
		c.guardMembers(linkKey, events)
		c.guardMembers(children, members[2])
		if err := s.rewriteEvents(ctx, c, parseIDs(events), func(ev *calendar.PostRecord) bool { return unlink(ev, kind, id) }); err != nil {
			return nil, err
		}
		if err := s.reparent(ctx, c, parseIDs(members[2]), id, old.Parent); err != nil {
			return nil, err
		}
		return []string{linkKey, children}, nil
	})
}

// reparent moves the child categories ids of category from to parent to
// (Version+1 each), guarded on the bytes read.
func (s *Store) reparent(ctx context.Context, c *commit, ids []int64, from, to int64) error {
	return rewrite(ctx, s, c, termFamily, "reparent", ids, func(t *calendar.TermRecord) bool {
		if t.Parent != from || t.ID == to {
			return false
		}
		t.Parent = to
		return true
	}, func(t *calendar.TermRecord) {
		if to != 0 {
			c.zadd(s.k.children(to), itoa(t.ID), itoa(t.ID))
		}
	})
}

// parseIDs reads the decimal ids among sorted-set members, skipping any
// other member.
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
	return get(ctx, s, termFamily, id)
}

// GetTerms reads the terms that exist among ids, in the order asked.
func (s *Store) GetTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
	return getMany(ctx, s, termFamily, ids)
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
	return bySlug(ctx, s, termFamily, kind, string(tax), slug)
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
