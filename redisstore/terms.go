package redisstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/eventcal/eventcal/calendar"
)

// CreateTerm stores a new term: a one-step Apply.
func (s *Store) CreateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if t == nil {
		return nil, invalid("create term: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpCreateTerm, Term: t})
	return r.Term, err
}

// UpdateTerm replaces a term with version compare-and-set: a one-step Apply.
func (s *Store) UpdateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if t == nil {
		return nil, invalid("update term: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpUpdateTerm, Term: t})
	return r.Term, err
}

// DeleteTerm removes a term and, in the same script run, unlinks it from
// every event (Version+1 each) and gives its child categories its parent
// (Version+1 each): a one-step Apply.
func (s *Store) DeleteTerm(ctx context.Context, id, version int64) error {
	_, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpDeleteTerm, ID: id, Version: version})
	return err
}

// parseIDs reads the decimal ids among sorted-set members, skipping any
// other member.
func parseIDs(ms []string) []int64 {
	out := make([]int64, 0, len(ms))
	for _, m := range ms {
		if id, err := strconv.ParseInt(m, 10, 64); err == nil {
			out = append(out, id)
		}
	}
	return out
}

// GetTerm reads one term: one GET.
func (s *Store) GetTerm(ctx context.Context, id int64) (*calendar.TermRecord, error) {
	return get(ctx, s, termFamily, id)
}

// GetTerms reads the terms that exist among ids, in the order asked.
func (s *Store) GetTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
	return getMany(ctx, s, termFamily, ids)
}

// TermBySlug resolves the slug and reads the term in one script run.
func (s *Store) TermBySlug(ctx context.Context, tax calendar.Taxonomy, slug string) (*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	kind := tax.Kind()
	if kind == 0 {
		return nil, fmt.Errorf("redisstore: unknown taxonomy %q: %w", tax, calendar.ErrNotFound)
	}
	return bySlug(ctx, s, termFamily, kind, string(tax), slug)
}

// ListTerms reads every term of the taxonomy in ascending id order in one
// script run.
func (s *Store) ListTerms(ctx context.Context, tax calendar.Taxonomy) ([]*calendar.TermRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	kind := tax.Kind()
	if kind == 0 {
		return nil, nil
	}
	vals, err := rangeGetScript.Run(ctx, s.c, []string{s.k.kindIndex(kind)}, s.k.termPrefix()).StringSlice()
	if err != nil {
		return nil, fail(ctx, "list terms", err)
	}
	out := make([]*calendar.TermRecord, 0, len(vals))
	for _, v := range vals {
		t, err := s.decodeTerm(v)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
