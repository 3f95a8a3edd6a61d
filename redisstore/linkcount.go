package redisstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/redis/go-redis/v9"
)

var _ calendar.LinkCounter = (*Store)(nil)

// CountLinks counts the events linked to each id of q in two round trips,
// however many ids: one ZUNION of the ids' link sets gives every candidate
// once, and one pipeline of HMGETs (chunked, so Redis serves other clients
// between them) reads their metas. Each meta is confirmed with
// storage.MatchPost and counted for every asked id among its links, so no
// rule is repeated in Lua. As with ListPosts, an event changed between the
// two round trips is counted as its meta stands then. See
// calendar.LinkCounter.
func (s *Store) CountLinks(ctx context.Context, q *calendar.LinkCountQuery) (map[int64]int, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := q.Check(); err != nil {
		return nil, fmt.Errorf("redisstore: %w", err)
	}
	out := make(map[int64]int, len(q.IDs))
	var keys []string
	for _, id := range q.IDs {
		if _, dup := out[id]; !dup {
			out[id] = 0
			keys = append(keys, s.k.evLink(q.Link, id))
		}
	}
	if len(keys) == 0 {
		return out, nil
	}
	ids, err := s.c.ZUnion(ctx, redis.ZStore{Keys: keys}).Result()
	if err != nil {
		return nil, fail(ctx, "count links", err)
	}
	if len(ids) == 0 {
		return out, nil
	}
	pipe := s.c.Pipeline()
	cmds := make([]*redis.SliceCmd, 0, (len(ids)+mgetChunk-1)/mgetChunk)
	for lo := 0; lo < len(ids); lo += mgetChunk {
		cmds = append(cmds, pipe.HMGet(ctx, s.k.meta(), ids[lo:min(lo+mgetChunk, len(ids))]...))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fail(ctx, "count links", err)
	}
	// The link restriction is what the candidates come from; the meta's own
	// links say which asked ids each match counts for.
	base := q.Events(0)
	base.VenueIDs, base.OrganizerIDs, base.CategoryIDs, base.TagIDs = nil, nil, nil, nil
	var scratch metaScratch
	i := 0
	for _, cmd := range cmds {
		for _, v := range cmd.Val() {
			field := ids[i]
			i++
			raw, ok := v.(string)
			if !ok {
				continue // deleted since the union was read
			}
			id, err := strconv.ParseInt(field, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("redisstore: link index member %q: %w", field, storage.ErrBadRecord)
			}
			p, err := scratch.decode(id, raw)
			if err != nil {
				return nil, err
			}
			if !storage.MatchPost(base, p) {
				continue
			}
			links := p.Links(q.Link)
			for j, l := range links {
				if _, asked := out[l]; asked && !seenBefore(links[:j], l) {
					out[l]++
				}
			}
		}
	}
	return out, nil
}

// seenBefore reports whether id is among ids (an event's link list, short).
func seenBefore(ids []int64, id int64) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}
