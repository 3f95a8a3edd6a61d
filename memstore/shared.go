package memstore

import (
	"context"

	"github.com/eventcal/eventcal/calendar"
)

// ListPosts answers q with copies of the matching records. See
// calendar.Repository and listPosts.
func (s *Store) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	page, err := s.listPosts(ctx, q)
	if err != nil {
		return nil, err
	}
	// Stored records are immutable, so the page is cloned outside the lock.
	for i, p := range page.Records {
		page.Records[i] = p.Clone()
	}
	return page, nil
}

// SharedReads returns a view of s whose reads of posts and terms (GetPost,
// GetPosts, PostBySlug, ListPosts, GetTerms) hand out the stored records
// themselves rather than copies; every other method is the Store's own.
//
// Copying a record costs more than rendering it (every translatable text is a
// map), and a reader that only looks at a record does not need a copy. The
// view is safe for concurrent use because the store never modifies a record
// it has handed out: a write stores a new record in place of the old one, so
// a reader holding the old one keeps a consistent, if outdated, record. In
// return, the caller must never modify a record it got from the view — not
// a field, not a map, not a slice element. The calendar reads through it
// only on its read-only paths (GetEvent, ListEvents and what they embed).
func (s *Store) SharedReads() calendar.Repository { return sharedView{s} }

// sharedView is the Store seen through SharedReads.
type sharedView struct{ *Store }

func (v sharedView) GetPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	return v.getPost(ctx, id)
}

func (v sharedView) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	return v.getPosts(ctx, ids)
}

func (v sharedView) PostBySlug(ctx context.Context, kind calendar.Kind, slug string) (*calendar.PostRecord, error) {
	return v.postBySlug(ctx, kind, slug)
}

func (v sharedView) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	return v.listPosts(ctx, q)
}

func (v sharedView) GetTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
	return v.getTerms(ctx, ids)
}
