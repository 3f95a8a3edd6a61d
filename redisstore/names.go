package redisstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// TermsByName reads the terms of the taxonomy having the name key of name,
// at any level, from the name index: one round trip.
func (s *Store) TermsByName(ctx context.Context, tax calendar.Taxonomy, name string) ([]*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	kind, key := tax.Kind(), calendar.NameKey(name)
	if kind == 0 || key == "" {
		return nil, nil
	}
	vals, err := s.byName(ctx, "terms by name", s.k.termName(kind, key), s.k.termPrefix())
	if err != nil {
		return nil, err
	}
	out := make([]*calendar.TermRecord, 0, len(vals))
	for _, v := range vals {
		t, err := s.decodeTerm(v)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b *calendar.TermRecord) int { return compareIDs(a.ID, b.ID) })
	return out, nil
}

func compareIDs(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// byName reads the records of a name index, migrating the calendar first
// when it has no such index yet.
func (s *Store) byName(ctx context.Context, op, index, recordPrefix string) ([]string, error) {
	for {
		res, err := byNameScript.Run(ctx, s.c, []string{s.k.format()}, index, recordPrefix).StringSlice()
		if err != nil {
			return nil, fail(ctx, op, err)
		}
		if ok, err := s.layoutOK(ctx, res[0]); err != nil {
			return nil, err
		} else if ok {
			return res[1:], nil
		}
	}
}

// PostByUID resolves the UID in the UID index of kind and reads the post:
// one round trip.
func (s *Store) PostByUID(ctx context.Context, kind calendar.Kind, uid string) (*calendar.PostRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !kind.IsPost() || uid == "" {
		return nil, fmt.Errorf("redisstore: %v with uid %q: %w", kind, uid, calendar.ErrNotFound)
	}
	for {
		res, err := byUIDScript.Run(ctx, s.c, []string{s.k.format()}, s.k.uids(kind), uid, s.k.postPrefix()).StringSlice()
		if err != nil {
			return nil, fail(ctx, "post by uid", err)
		}
		if ok, err := s.layoutOK(ctx, res[0]); err != nil {
			return nil, err
		} else if !ok {
			continue
		}
		if res[1] == "" {
			return nil, fmt.Errorf("redisstore: %v with uid %q: %w", kind, uid, calendar.ErrNotFound)
		}
		return s.decodePost(res[1])
	}
}

// listByName answers a venue or organizer list with a Name from the name
// index: one round trip reads the posts having that name key, which are then
// confirmed and ordered like every other list.
func (s *Store) listByName(ctx context.Context, q *calendar.PostQuery, key string) (*calendar.PostPage, error) {
	vals, err := s.byName(ctx, "list posts", s.k.postName(q.Kind, key), s.k.postPrefix())
	if err != nil {
		return nil, err
	}
	matches := make([]*calendar.PostRecord, 0, len(vals))
	for _, v := range vals {
		p, err := s.decodePost(v)
		if err != nil {
			return nil, err
		}
		if storage.MatchPost(q, p) {
			matches = append(matches, p)
		}
	}
	slices.SortFunc(matches, storage.ComparePosts)
	return &calendar.PostPage{Records: storage.Window(matches, q), Total: len(matches)}, nil
}
