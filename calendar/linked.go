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

// PostLinkedGetter is an optional Repository extension: GetPost and the
// records the post links, read together: posts holds the posts among its
// VenueIDs and OrganizerIDs that exist, terms the terms among its
// CategoryIDs and TagIDs, each once, in any order. A driver with a cost per
// call (a round trip on Redis) saves the call that reads an event's embeds.
type PostLinkedGetter interface {
	GetPostLinked(ctx context.Context, id int64) (p *PostRecord, posts []*PostRecord, terms []*TermRecord, err error)
}

// linkedRecords are records read along with a post; nil when the driver
// read none (the render then reads them itself).
type linkedRecords struct {
	posts []*PostRecord
	terms []*TermRecord
}

// linkedGet is repo whose GetPost also reads the records the post links
// (PostLinkedGetter), for the render that follows: a read by id through it
// costs one call where GetPost and GetLinked cost two.
type linkedGet struct {
	Repository
	lg     PostLinkedGetter
	linked *linkedRecords
}

// withLinkedGet returns repo reading links with GetPost when the driver
// can, and what the last GetPost read.
func withLinkedGet(repo Repository) (Repository, func() *linkedRecords) {
	lg, ok := repo.(PostLinkedGetter)
	if !ok {
		return repo, func() *linkedRecords { return nil }
	}
	l := &linkedGet{Repository: repo, lg: lg}
	return l, func() *linkedRecords { return l.linked }
}

func (l *linkedGet) GetPost(ctx context.Context, id int64) (*PostRecord, error) {
	p, ps, ts, err := l.lg.GetPostLinked(ctx, id)
	if err != nil {
		return nil, err
	}
	l.linked = &linkedRecords{ps, ts}
	return p, nil
}

// adopt keeps records read along with events (nil: none were) as the ones
// the events link, so rendering them reads no more: the ids the events link
// that are not among them do not exist.
func (r *render) adopt(events []*PostRecord, l *linkedRecords) error {
	if l == nil {
		return nil
	}
	r.unknownLinks(events)
	return r.know(l.posts, l.terms)
}

// unknownLinks returns the posts and terms events link that r has not
// loaded, and marks them loaded (nil until known).
func (r *render) unknownLinks(events []*PostRecord) (postIDs, termIDs []int64) {
	for _, e := range events {
		for _, ids := range [...][]int64{e.VenueIDs, e.OrganizerIDs} {
			for _, id := range ids {
				if _, ok := r.posts[id]; !ok {
					postIDs = append(postIDs, id)
					r.posts[id] = nil
				}
			}
		}
		for _, ids := range [...][]int64{e.CategoryIDs, e.TagIDs} {
			for _, id := range ids {
				if _, ok := r.terms[id]; !ok {
					termIDs = append(termIDs, id)
					r.terms[id] = nil
				}
			}
		}
	}
	return postIDs, termIDs
}

// know keeps linked posts and terms, and counts the terms.
func (r *render) know(ps []*PostRecord, ts []*TermRecord) error {
	for _, p := range ps {
		r.posts[p.ID] = p
	}
	for _, t := range ts {
		r.terms[t.ID] = t
	}
	if len(ts) > 0 {
		return r.countTerms(ts)
	}
	return nil
}
