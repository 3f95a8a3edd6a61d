package memstore

import (
	"context"

	"github.com/eventcal/eventcal/calendar"
)

// CreateTerm stores a new category or tag with the next term id and Version
// 1, its slug made unique within its taxonomy. See calendar.Repository.
func (s *Store) CreateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if t == nil {
		return nil, errInvalid("create term: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpCreateTerm, Term: t})
	return r.Term, err
}

// UpdateTerm replaces term t.ID if t.Version is the stored version. See
// calendar.Repository.
func (s *Store) UpdateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if t == nil {
		return nil, errInvalid("update term: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpUpdateTerm, Term: t})
	return r.Term, err
}

// DeleteTerm removes term id, unlinks it from every event and gives the
// children of a removed category its parent, all in one write.
func (s *Store) DeleteTerm(ctx context.Context, id, version int64) error {
	_, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpDeleteTerm, ID: id, Version: version})
	return err
}

// TermsByName returns copies of the terms of tax holding the name key of
// name, in ascending id order.
func (s *Store) TermsByName(ctx context.Context, tax calendar.Taxonomy, name string) ([]*calendar.TermRecord, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	ids := s.termNames[tax][calendar.NameKey(name)]
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
	found, err := s.getTerms(ctx, ids)
	for i, t := range found {
		found[i] = t.Clone()
	}
	return found, err
}

// getTerms returns the stored terms among ids themselves (see SharedReads).
func (s *Store) getTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
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
