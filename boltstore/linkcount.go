package boltstore

import (
	"context"
	"fmt"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

var _ calendar.LinkCounter = (*Store)(nil)

// CountLinks counts, in one read transaction, the events linked to each id
// of q: a walk of the id's range of the reverse link bucket, each entry
// confirmed with storage.MatchPost on the summary the entry holds, so no
// record is decoded. See calendar.LinkCounter.
func (s *Store) CountLinks(ctx context.Context, q *calendar.LinkCountQuery) (map[int64]int, error) {
	if err := q.Check(); err != nil {
		return nil, fmt.Errorf("boltstore: %w", err)
	}
	// Every entry of the range is linked to the id: the summary answers
	// everything else the count asks.
	base := q.Events(0)
	base.VenueIDs, base.OrganizerIDs, base.CategoryIDs, base.TagIDs = nil, nil, nil, nil
	out := make(map[int64]int, len(q.IDs))
	err := s.view(ctx, func(tx *bolt.Tx) error {
		c := tx.Bucket(linkBucket(q.Link)).Cursor()
		var skel calendar.PostRecord
		steps := 0
		for _, id := range q.IDs {
			if _, done := out[id]; done {
				continue
			}
			prefix := storage.IDKey(id)
			n := 0
			for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
				if steps++; steps%ctxEvery == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				if len(k) != 16 || len(v) < 8 {
					return fmt.Errorf("%w: link entry of %d: malformed", storage.ErrBadRecord, id)
				}
				skel = calendar.PostRecord{ID: storage.ParseIDKey(k[8:]), Kind: calendar.KindEvent}
				if err := decodeSummary(v[8:], &skel); err != nil {
					return err
				}
				if storage.MatchPost(base, &skel) {
					n++
				}
			}
			out[id] = n
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
