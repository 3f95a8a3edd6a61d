package redisstore

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

var _ calendar.LinkedReader = (*Store)(nil)

// GetLinked reads posts and terms in one MGET (their keys share the
// calendar's hash slot): the calendar renders a page's embeds with it, a
// round trip fewer than GetPosts and GetTerms.
func (s *Store) GetLinked(ctx context.Context, postIDs, termIDs []int64) ([]*calendar.PostRecord, []*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	keys := make([]string, 0, len(postIDs)+len(termIDs))
	for _, id := range postIDs {
		keys = append(keys, postFamily.key(s.k, id))
	}
	for _, id := range termIDs {
		keys = append(keys, termFamily.key(s.k, id))
	}
	vals, err := s.batched(ctx, "get linked records", len(keys), func(c redis.Cmdable, lo, hi int) *redis.SliceCmd {
		return c.MGet(ctx, keys[lo:hi]...)
	})
	if err != nil {
		return nil, nil, err
	}
	posts, err := decodeAll(s, vals[:len(postIDs)], postFamily.decode)
	if err != nil {
		return nil, nil, err
	}
	terms, err := decodeAll(s, vals[len(postIDs):], termFamily.decode)
	if err != nil {
		return nil, nil, err
	}
	return posts, terms, nil
}

var _ calendar.PostLinkedGetter = (*Store)(nil)

// linkedRecords are the posts and terms some records link.
type linkedRecords struct {
	posts []*calendar.PostRecord
	terms []*calendar.TermRecord
}

// decodeLinked decodes the two MGET replies of linkedOf (missing records
// are nil and skipped).
func (s *Store) decodeLinked(posts, terms any) (*linkedRecords, error) {
	ps, ok1 := posts.([]any)
	ts, ok2 := terms.([]any)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("redisstore: linked records: unexpected reply %T %T", posts, terms)
	}
	var l linkedRecords
	var err error
	if l.posts, err = decodeAll(s, ps, postFamily.decode); err != nil {
		return nil, err
	}
	if l.terms, err = decodeAll(s, ts, termFamily.decode); err != nil {
		return nil, err
	}
	return &l, nil
}

// GetPostLinked reads post id and the records it links in one round trip
// (getLinkedScript): the links are read on its meta. A post without a meta
// takes one GetLinked round trip more.
func (s *Store) GetPostLinked(ctx context.Context, id int64) (*calendar.PostRecord, []*calendar.PostRecord, []*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	reply, err := getLinkedScript.Run(ctx, s.c, []string{s.k.post(id), s.k.meta()}, id, s.k.postPrefix(), s.k.termPrefix()).Slice()
	if errors.Is(err, redis.Nil) {
		return nil, nil, nil, notFound(postFamily.what, id)
	}
	if err != nil {
		return nil, nil, nil, fail(ctx, "get post", err)
	}
	raw, ok := reply[0].(string)
	if !ok || len(reply) != 1 && len(reply) != 3 {
		return nil, nil, nil, fmt.Errorf("redisstore: get post: unexpected reply %.50v", reply)
	}
	p, err := s.decodePost(raw)
	if err != nil {
		return nil, nil, nil, err
	}
	var linked *linkedRecords
	if len(reply) == 3 {
		linked, err = s.decodeLinked(reply[1], reply[2])
	} else {
		linked, err = s.linkedOf(ctx, []*calendar.PostRecord{p})
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return p, linked.posts, linked.terms, nil
}

// linkedOf reads the records ps link with GetLinked, each id once.
func (s *Store) linkedOf(ctx context.Context, ps []*calendar.PostRecord) (*linkedRecords, error) {
	var postIDs, termIDs []int64
	for _, p := range ps {
		for _, ids := range [][]int64{p.VenueIDs, p.OrganizerIDs} {
			for _, id := range ids {
				if !slices.Contains(postIDs, id) {
					postIDs = append(postIDs, id)
				}
			}
		}
		for _, ids := range [][]int64{p.CategoryIDs, p.TagIDs} {
			for _, id := range ids {
				if !slices.Contains(termIDs, id) {
					termIDs = append(termIDs, id)
				}
			}
		}
	}
	if len(postIDs) == 0 && len(termIDs) == 0 {
		return &linkedRecords{}, nil
	}
	posts, terms, err := s.GetLinked(ctx, postIDs, termIDs)
	if err != nil {
		return nil, err
	}
	return &linkedRecords{posts, terms}, nil
}
