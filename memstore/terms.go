package memstore

import (
	"context"
	"slices"

	"github.com/eventcal/eventcal/calendar"
)

// CreateTerm stores a new category or tag with the next term id and Version
// 1, its slug made unique within its taxonomy. See calendar.Repository.
func (s *Store) CreateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if t == nil || t.Taxonomy.Kind() == 0 {
		return nil, errInvalid("create term: unknown taxonomy")
	}
	rec := t.Clone()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastTerm++
	rec.ID, rec.Version = s.lastTerm, 1
	slugs := s.termSlugs[rec.Taxonomy]
	rec.Slug = freeSlug(slugs, rec.Slug, rec.ID)
	slugs[rec.Slug] = rec.ID
	s.terms[rec.ID] = rec
	s.termIDs[rec.Taxonomy] = append(s.termIDs[rec.Taxonomy], rec.ID) // ids only grow: stays sorted
	return rec.Clone(), nil
}

// UpdateTerm replaces term t.ID if t.Version is the stored version. See
// calendar.Repository.
func (s *Store) UpdateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if t == nil {
		return nil, errInvalid("update term: nil record")
	}
	rec := t.Clone()
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.terms[rec.ID]
	if old == nil {
		return nil, errTermNotFound(rec.ID)
	}
	if rec.Taxonomy != old.Taxonomy {
		return nil, errInvalid("update term %d: it is in %s, not %s", rec.ID, old.Taxonomy, rec.Taxonomy)
	}
	if rec.Version != old.Version {
		return nil, errVersion("term", rec.ID, rec.Version, old.Version)
	}
	rec.Version++
	slugs := s.termSlugs[rec.Taxonomy]
	rec.Slug = freeSlug(slugs, rec.Slug, rec.ID)
	if rec.Slug != old.Slug {
		delete(slugs, old.Slug)
		slugs[rec.Slug] = rec.ID
	}
	s.terms[rec.ID] = rec
	return rec.Clone(), nil
}

// DeleteTerm removes term id, unlinks it from every event and gives the
// children of a removed category its parent, all in one write.
func (s *Store) DeleteTerm(ctx context.Context, id, version int64) error {
	if err := checkCtx(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.terms[id]
	if old == nil {
		return errTermNotFound(id)
	}
	if version != 0 && version != old.Version {
		return errVersion("term", id, version, old.Version)
	}
	delete(s.terms, id)
	delete(s.termSlugs[old.Taxonomy], old.Slug)
	ids := s.termIDs[old.Taxonomy]
	if i, ok := slices.BinarySearch(ids, id); ok {
		s.termIDs[old.Taxonomy] = slices.Delete(ids, i, i+1)
	}

	kind := old.Taxonomy.Kind()
	if l := s.links[kind][id]; l != nil {
		for _, e := range l.records() { // a copy: rewriting an event edits l
			rec := e.Clone()
			rec.SetLinks(kind, without(rec.Links(kind), id))
			rec.Version++
			s.replacePost(e, rec)
		}
	}
	if old.Taxonomy.Hierarchical() {
		for _, cid := range s.termIDs[old.Taxonomy] {
			if c := s.terms[cid]; c.Parent == id {
				rec := c.Clone()
				rec.Parent = old.Parent
				rec.Version++
				s.terms[cid] = rec
			}
		}
	}
	return nil
}

// GetTerm returns a copy of term id.
func (s *Store) GetTerm(ctx context.Context, id int64) (*calendar.TermRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	t := s.terms[id]
	s.mu.RUnlock()
	if t == nil {
		return nil, errTermNotFound(id)
	}
	return t.Clone(), nil
}

// GetTerms returns copies of the existing terms among ids, in the order asked.
func (s *Store) GetTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	found := make([]*calendar.TermRecord, 0, len(ids))
	s.mu.RLock()
	for _, id := range ids {
		if t := s.terms[id]; t != nil {
			found = append(found, t)
		}
	}
	s.mu.RUnlock()
	for i, t := range found {
		found[i] = t.Clone()
	}
	return found, nil
}

// TermBySlug returns a copy of the term of tax with exactly this slug.
func (s *Store) TermBySlug(ctx context.Context, tax calendar.Taxonomy, slug string) (*calendar.TermRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	var t *calendar.TermRecord
	if id, ok := s.termSlugs[tax][slug]; ok {
		t = s.terms[id]
	}
	s.mu.RUnlock()
	if t == nil {
		return nil, errSlugNotFound(string(tax), slug)
	}
	return t.Clone(), nil
}

// ListTerms returns copies of every term of tax in ascending id order.
func (s *Store) ListTerms(ctx context.Context, tax calendar.Taxonomy) ([]*calendar.TermRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	ids := s.termIDs[tax]
	out := make([]*calendar.TermRecord, len(ids))
	for i, id := range ids {
		out[i] = s.terms[id]
	}
	s.mu.RUnlock()
	for i, t := range out {
		out[i] = t.Clone()
	}
	return out, nil
}
