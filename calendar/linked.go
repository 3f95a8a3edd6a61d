package calendar

import "context"

// LinkedReader is an optional Repository extension: the posts and terms a
// rendered page embeds (its events' venues, organizers, categories and
// tags) read in one call. The result is what GetPosts(postIDs) and
// GetTerms(termIDs) return: the records that exist, in the order asked. A
// driver with a cost per call (a round trip on Redis) saves one call per
// rendered page; without it the two calls are made.
type LinkedReader interface {
	GetLinked(ctx context.Context, postIDs, termIDs []int64) ([]*PostRecord, []*TermRecord, error)
}

// GetLinked reads postIDs and termIDs from repo: through the driver's
// LinkedReader when it has one, else with GetPosts and GetTerms (each
// skipped when it has no ids).
func GetLinked(ctx context.Context, repo Repository, postIDs, termIDs []int64) ([]*PostRecord, []*TermRecord, error) {
	if lr, ok := repo.(LinkedReader); ok {
		return lr.GetLinked(ctx, postIDs, termIDs)
	}
	var ps []*PostRecord
	var ts []*TermRecord
	var err error
	if len(postIDs) > 0 {
		if ps, err = repo.GetPosts(ctx, postIDs); err != nil {
			return nil, nil, err
		}
	}
	if len(termIDs) > 0 {
		if ts, err = repo.GetTerms(ctx, termIDs); err != nil {
			return nil, nil, err
		}
	}
	return ps, ts, nil
}
