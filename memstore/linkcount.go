package memstore

import (
	"context"
	"fmt"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

var _ calendar.LinkCounter = (*Store)(nil)

// CountLinks counts, under one read lock, the events linked to each id of
// q. Each id's reverse link list is counted from its summary tree where
// the query allows (see countable), else walked and confirmed with
// storage.MatchPost, so the counts of a whole set of ids cost no more than
// their link lists. See calendar.LinkCounter.
func (s *Store) CountLinks(ctx context.Context, q *calendar.LinkCountQuery) (map[int64]int, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if err := q.Check(); err != nil {
		return nil, fmt.Errorf("memstore: %w", err)
	}
	out := make(map[int64]int, len(q.IDs))
	s.mu.RLock()
	defer s.mu.RUnlock()
	seen := 0
	for _, id := range q.IDs {
		if _, done := out[id]; done {
			continue
		}
		eq := q.Events(id)
		if ok, n := s.countable(eq); ok {
			out[id] = n
			continue
		}
		n := 0
		if l := s.links[q.Link][id]; l != nil {
			for _, part := range l.all() {
				for _, p := range part {
					if seen++; seen%ctxEvery == 0 {
						if err := checkCtx(ctx); err != nil {
							return nil, err
						}
					}
					if storage.MatchPost(eq, p) {
						n++
					}
				}
			}
		}
		out[id] = n
	}
	return out, nil
}
