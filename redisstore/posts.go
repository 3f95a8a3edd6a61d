package redisstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/eventcal/eventcal/calendar"
)

// CreatePost stores a new post: a one-step Apply.
func (s *Store) CreatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if p == nil {
		return nil, invalid("create post: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpCreatePost, Post: p})
	return r.Post, err
}

// UpdatePost replaces a post with version compare-and-set: a one-step Apply.
func (s *Store) UpdatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if p == nil {
		return nil, invalid("update post: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpUpdatePost, Post: p})
	return r.Post, err
}

// DeletePost removes a post and, in the same script run, unlinks it from
// every event that names it as venue, organizer or parent: a one-step Apply.
func (s *Store) DeletePost(ctx context.Context, id, version int64) error {
	_, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpDeletePost, ID: id, Version: version})
	return err
}

// unlinkPost removes post id from the venue, organizer and parent links of
// ev and reports whether anything changed.
func unlinkPost(ev *calendar.PostRecord, id int64) bool {
	changed := false
	for _, k := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
		if unlink(ev, k, id) {
			changed = true
		}
	}
	if ev.PostParent == id {
		ev.PostParent = 0
		changed = true
	}
	return changed
}

// unlink removes id from the links of kind k of ev and reports whether it
// was there. The links are replaced, not edited in place, since ev may share
// them.
func unlink(ev *calendar.PostRecord, k calendar.Kind, id int64) bool {
	links := ev.Links(k)
	if !slices.Contains(links, id) {
		return false
	}
	ev.SetLinks(k, slices.DeleteFunc(slices.Clone(links), func(v int64) bool { return v == id }))
	return true
}

// GetPost reads one post: one GET.
func (s *Store) GetPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	return get(ctx, s, postFamily, id)
}

// GetPosts reads the posts that exist among ids, in the order asked: one MGET
// (pipelined batches beyond the fetch batch).
func (s *Store) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	return getMany(ctx, s, postFamily, ids)
}

// PostBySlug resolves the slug and reads the post in one script run.
func (s *Store) PostBySlug(ctx context.Context, kind calendar.Kind, slug string) (*calendar.PostRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !kind.IsPost() {
		return nil, fmt.Errorf("redisstore: %v is not a post kind: %w", kind, calendar.ErrNotFound)
	}
	return bySlug(ctx, s, postFamily, kind, kind.String(), slug)
}
