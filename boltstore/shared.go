package boltstore

import (
	"context"

	"github.com/eventcal/eventcal/calendar"
)

// SharedReads returns a view of s whose post reads (GetPost, GetPosts,
// PostBySlug, ListPosts) and term reads (GetTerm, GetTerms, TermBySlug,
// ListTerms) hand out the decoded records kept by the Store's caches
// rather than copies of them; every other method is the Store's own.
//
// A read's copy of a cached record costs about as much as rendering it
// (every translatable text is a map), and the calendar's read-only paths
// (GetEvent, ListEvents and what their events embed) only look at records.
// The view is safe for concurrent use because a cached record is never
// modified: a write stores new bytes, which are decoded into a new record.
// In return, the caller must never modify a record it got from the view.
// Without a cache (WithCacheSize(0)) every read decodes a record of its own.
//
// The calendar reads the category tree (ListTerms) on every category list
// and the terms a page embeds (GetTerms) on every page: through the view
// they cost no decode and no copy.
func (s *Store) SharedReads() calendar.Repository { return sharedView{s} }

// sharedView is the Store seen through SharedReads.
type sharedView struct{ *Store }

func (v sharedView) GetPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	return v.getPost(ctx, id, true)
}

func (v sharedView) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	return v.getPosts(ctx, ids, true)
}

func (v sharedView) PostBySlug(ctx context.Context, kind calendar.Kind, slug string) (*calendar.PostRecord, error) {
	return v.postBySlug(ctx, kind, slug, true)
}

func (v sharedView) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	return v.listPosts(ctx, q, true)
}

func (v sharedView) GetTerm(ctx context.Context, id int64) (*calendar.TermRecord, error) {
	return v.getTerm(ctx, id, true)
}

func (v sharedView) GetTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
	return v.getTerms(ctx, ids, true)
}

func (v sharedView) TermBySlug(ctx context.Context, tax calendar.Taxonomy, slug string) (*calendar.TermRecord, error) {
	return v.termBySlug(ctx, tax, slug, true)
}

func (v sharedView) ListTerms(ctx context.Context, tax calendar.Taxonomy) ([]*calendar.TermRecord, error) {
	return v.listTermsWith(ctx, tax, true)
}
