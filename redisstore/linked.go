package redisstore

import (
	"context"

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
