package boltstore

import (
	"context"

	"github.com/eventcal/eventcal/calendar"
)

// SharedReads returns a view of s whose post reads (GetPost, GetPosts,
// PostBySlug, ListPosts) hand out the decoded records kept by the Store's
// cache rather than copies of them; every other method is the Store's own.
//
// A read's copy of a cached record costs about as much as rendering it
// (every translatable text is a map), and the calendar's read-only paths
// (GetEvent, ListEvents and what their events embed) only look at records.
// The view is safe for concurrent use because a cached record is never
// modified: a write stores new bytes, which are decoded into a new record.
// In return, the caller must never modify a record it got from the view.
// Without a cache (WithCacheSize(0)) every read decodes a record of its own.
func (s *Store) SharedReads() calendar.Repository { return sharedView{s} }

// sharedView is the Store seen through SharedReads.
type sharedView struct{ *Store }

func (v sharedView) GetPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	return v.getPost(ctx, id, v.cache.shared)
}

func (v sharedView) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	return v.getPosts(ctx, ids, v.cache.shared)
}

func (v sharedView) PostBySlug(ctx context.Context, kind calendar.Kind, slug string) (*calendar.PostRecord, error) {
	return v.postBySlug(ctx, kind, slug, v.cache.shared)
}

func (v sharedView) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	return v.listPosts(ctx, q, v.cache.shared)
}
