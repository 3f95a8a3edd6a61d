package memstore

import (
	"context"
	"slices"

	"github.com/eventcal/eventcal/calendar"
)

// CreatePost stores a new post with the next post id and Version 1, its
// slug made unique within its kind. See calendar.Repository.
func (s *Store) CreatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if p == nil || !p.Kind.IsPost() {
		return nil, errInvalid("create post: not an event, venue or organizer")
	}
	rec := p.Clone() // before locking: the clone needs no lock
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastPost++
	rec.ID, rec.Version = s.lastPost, 1
	slugs := s.postSlugs[rec.Kind]
	rec.Slug = freeSlug(slugs, rec.Slug, rec.ID)
	slugs[rec.Slug] = rec.ID
	s.posts[rec.ID] = rec
	s.index(rec)
	return rec.Clone(), nil
}

// UpdatePost replaces post p.ID if p.Version is the stored version. See
// calendar.Repository.
func (s *Store) UpdatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if p == nil {
		return nil, errInvalid("update post: nil record")
	}
	rec := p.Clone()
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.posts[rec.ID]
	if old == nil {
		return nil, errPostNotFound(rec.ID)
	}
	if rec.Kind != old.Kind {
		return nil, errInvalid("update post %d: it is a %s, not a %s", rec.ID, old.Kind, rec.Kind)
	}
	if rec.Version != old.Version {
		return nil, errVersion("post", rec.ID, rec.Version, old.Version)
	}
	rec.Version++
	slugs := s.postSlugs[rec.Kind]
	rec.Slug = freeSlug(slugs, rec.Slug, rec.ID)
	if rec.Slug != old.Slug {
		delete(slugs, old.Slug)
		slugs[rec.Slug] = rec.ID
	}
	s.replacePost(old, rec)
	return rec.Clone(), nil
}

// DeletePost removes post id and, in the same write, every link to it from
// events and every PostParent naming it. See calendar.Repository.
func (s *Store) DeletePost(ctx context.Context, id, version int64) error {
	if err := checkCtx(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.posts[id]
	if old == nil {
		return errPostNotFound(id)
	}
	if version != 0 && version != old.Version {
		return errVersion("post", id, version, old.Version)
	}
	s.unindex(old)
	delete(s.posts, id)
	delete(s.postSlugs[old.Kind], old.Slug)

	// Every event naming id as venue, organizer or parent, each once. The
	// lists are copied because rewriting an event edits them.
	var refs []*calendar.PostRecord
	for _, l := range []*postList{s.links[calendar.KindVenue][id], s.links[calendar.KindOrganizer][id], s.children[id]} {
		if l == nil {
			continue
		}
		for _, e := range l.records() {
			if !slices.Contains(refs, e) {
				refs = append(refs, e)
			}
		}
	}
	for _, e := range refs {
		rec := e.Clone()
		rec.VenueIDs = without(rec.VenueIDs, id)
		rec.OrganizerIDs = without(rec.OrganizerIDs, id)
		if rec.PostParent == id {
			rec.PostParent = 0
		}
		rec.Version++
		s.replacePost(e, rec)
	}
	return nil
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
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	p := s.posts[id]
	s.mu.RUnlock()
	// Stored records are immutable (writes swap pointers), so the clone
	// can be made outside the lock.
	if p == nil {
		return nil, errPostNotFound(id)
	}
	return p.Clone(), nil
}

// GetPosts returns copies of the existing posts among ids, in the order asked.
func (s *Store) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
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
	for i, p := range found {
		found[i] = p.Clone()
	}
	return found, nil
}

// PostBySlug returns a copy of the post of kind with exactly this slug.
func (s *Store) PostBySlug(ctx context.Context, kind calendar.Kind, slug string) (*calendar.PostRecord, error) {
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
	return p.Clone(), nil
}
