package memstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/eventcal/eventcal/calendar"
)

// CreatePost stores a new post with the next post id and Version 1, its
// slug made unique within its kind. See calendar.Repository.
func (s *Store) CreatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if p == nil {
		return nil, errInvalid("create post: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpCreatePost, Post: p})
	return r.Post, err
}

// UpdatePost replaces post p.ID if p.Version is the stored version. See
// calendar.Repository.
func (s *Store) UpdatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if p == nil {
		return nil, errInvalid("update post: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpUpdatePost, Post: p})
	return r.Post, err
}

// DeletePost removes post id and, in the same write, every link to it from
// events and every PostParent naming it. See calendar.Repository.
func (s *Store) DeletePost(ctx context.Context, id, version int64) error {
	_, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpDeletePost, ID: id, Version: version})
	return err
}

// without returns ids with every occurrence of id removed, nil when none is left.
func without(ids []int64, id int64) []int64 {
	out := slices.DeleteFunc(ids, func(v int64) bool { return v == id })
	if len(out) == 0 {
		return nil
	}
	return out
}

// GetPost returns a copy of post id. See calendar.Repository.
func (s *Store) GetPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	p, err := s.getPost(ctx, id)
	return p.Clone(), err
}

// getPost returns the stored post id itself (see SharedReads).
func (s *Store) getPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	p := s.posts[id]
	s.mu.RUnlock()
	if p == nil {
		return nil, errPostNotFound(id)
	}
	return p, nil
}

// GetPosts returns copies of the existing posts among ids, in the order asked.
func (s *Store) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	found, err := s.getPosts(ctx, ids)
	// Stored records are immutable (writes swap pointers), so the clones
	// are made outside the lock.
	for i, p := range found {
		found[i] = p.Clone()
	}
	return found, err
}

// getPosts returns the stored posts among ids themselves (see SharedReads).
func (s *Store) getPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	found := make([]*calendar.PostRecord, 0, len(ids))
	s.mu.RLock()
	for _, id := range ids {
		if p := s.posts[id]; p != nil {
			found = append(found, p)
		}
	}
	s.mu.RUnlock()
	return found, nil
}

// PostByUID returns a copy of the post of kind whose UID is uid.
func (s *Store) PostByUID(ctx context.Context, kind calendar.Kind, uid string) (*calendar.PostRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	var p *calendar.PostRecord
	if id, ok := s.postUIDs[kind][uid]; ok && uid != "" {
		p = s.posts[id]
	}
	s.mu.RUnlock()
	if p == nil {
		return nil, fmt.Errorf("memstore: %s with uid %q: %w", kind, uid, calendar.ErrNotFound)
	}
	return p.Clone(), nil
}

// PostBySlug returns a copy of the post of kind with exactly this slug.
func (s *Store) PostBySlug(ctx context.Context, kind calendar.Kind, slug string) (*calendar.PostRecord, error) {
	p, err := s.postBySlug(ctx, kind, slug)
	return p.Clone(), err
}

// postBySlug returns the stored post of kind with this slug itself (see
// SharedReads).
func (s *Store) postBySlug(ctx context.Context, kind calendar.Kind, slug string) (*calendar.PostRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	var p *calendar.PostRecord
	if id, ok := s.postSlugs[kind][slug]; ok {
		p = s.posts[id]
	}
	s.mu.RUnlock()
	if p == nil {
		return nil, errSlugNotFound(kind.String(), slug)
	}
	return p, nil
}
