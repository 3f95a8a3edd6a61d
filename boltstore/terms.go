package boltstore

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// CreateTerm stores a new category or tag (a one-step Apply of
// OpCreateTerm): the next term id or the one asked for, Version 1, its slug
// made unique per taxonomy, its names free at its level.
func (s *Store) CreateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if t == nil {
		return nil, errInvalid("create term: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpCreateTerm, Term: t})
	return r.Term, err
}

// UpdateTerm replaces term t.ID if its stored version is t.Version (a
// one-step Apply of OpUpdateTerm).
func (s *Store) UpdateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if t == nil {
		return nil, errInvalid("update term: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpUpdateTerm, Term: t})
	return r.Term, err
}

// DeleteTerm removes a term for good; in the same transaction it is unlinked
// from every event and its child categories move up to its parent (a
// one-step Apply of OpDeleteTerm).
func (s *Store) DeleteTerm(ctx context.Context, id, version int64) error {
	_, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpDeleteTerm, ID: id, Version: version})
	return err
}

func (a *applier) createTerm(rec *calendar.TermRecord) (*calendar.TermRecord, error) {
	k := rec.Taxonomy.Kind()
	if k == 0 {
		return nil, errInvalid("create term: unknown taxonomy %q", rec.Taxonomy)
	}
	var err error
	if rec.ID, err = claimID(a.tx, bTerms, kTermSeq, "term", rec.ID); err != nil {
		return nil, err
	}
	if err := checkTermParent(a.tx, rec); err != nil {
		return nil, err
	}
	if err := checkTermNames(a.tx, nil, rec); err != nil {
		return nil, err
	}
	rec.Version = 1
	if rec.Slug, err = reserveSlug(a.tx.Bucket(bTermSlugs), k, rec.Slug, rec.ID); err != nil {
		return nil, err
	}
	a.note(calendar.TermChange(nil, rec))
	return rec, writeTerm(a.tx, nil, rec)
}

func (a *applier) updateTerm(rec *calendar.TermRecord) (*calendar.TermRecord, error) {
	old, err := getTerm(a.tx, rec.ID)
	if err != nil {
		return nil, err
	}
	if old.Taxonomy != rec.Taxonomy {
		return nil, errInvalid("update term %d: taxonomy %s cannot become %s", rec.ID, old.Taxonomy, rec.Taxonomy)
	}
	if old.Version != rec.Version {
		return nil, errVersion("term", rec.ID, rec.Version, old.Version)
	}
	if err := checkTermParent(a.tx, rec); err != nil {
		return nil, err
	}
	if err := checkTermNames(a.tx, old, rec); err != nil {
		return nil, err
	}
	rec.Version = old.Version + 1
	if rec.Slug != old.Slug {
		slugs := a.tx.Bucket(bTermSlugs)
		k := old.Taxonomy.Kind()
		if err := releaseSlug(slugs, k, old.Slug); err != nil {
			return nil, err
		}
		if rec.Slug, err = reserveSlug(slugs, k, rec.Slug, rec.ID); err != nil {
			return nil, err
		}
	}
	a.note(calendar.TermChange(old, rec))
	return rec, writeTerm(a.tx, old, rec)
}

// ensureTerm returns the lowest-id term of the taxonomy, at any level,
// holding the name key of rec's name, or creates rec when there is none.
func (a *applier) ensureTerm(rec *calendar.TermRecord) (*calendar.TermRecord, bool, error) {
	k := rec.Taxonomy.Kind()
	if k == 0 {
		return nil, false, errInvalid("ensure term: unknown taxonomy %q", rec.Taxonomy)
	}
	key := calendar.NameKey(rec.Name.Get(rec.Lang, rec.Lang))
	if key == "" {
		return nil, false, errInvalid("ensure term: the record has no name in its language")
	}
	prefix := namePrefix(byte(k), key)
	if ek, _ := a.tx.Bucket(bTermNames).Cursor().Seek(prefix); ek != nil && hasPrefix(ek, prefix) {
		t, err := getTerm(a.tx, storage.ParseIDKey(ek[len(prefix):]))
		return t, true, err
	}
	t, err := a.createTerm(rec)
	return t, false, err
}

func (a *applier) deleteTerm(id, version int64) error {
	tx := a.tx
	old, err := getTerm(tx, id)
	if err != nil {
		return err
	}
	if version != 0 && old.Version != version {
		return errVersion("term", id, version, old.Version)
	}
	k := old.Taxonomy.Kind()
	if err := releaseSlug(tx.Bucket(bTermSlugs), k, old.Slug); err != nil {
		return err
	}
	if err := writeTerm(tx, old, nil); err != nil {
		return err
	}
	a.note(calendar.TermChange(old, nil))
	if err := a.unlinkEvents(linkBucket(k), id, func(e *calendar.PostRecord) {
		e.SetLinks(k, without(e.Links(k), id))
	}); err != nil {
		return err
	}
	if !old.Taxonomy.Hierarchical() {
		return nil
	}
	// Category sets are small: finding the children by a scan is cheaper
	// than keeping a parent index up to date. The children move up without
	// a name check: the level they join may hold one of their names, which
	// the next update of such a term reports (domain rules allow it; a
	// delete is never refused for it).
	children, err := listTerms(a.ctx, tx, old.Taxonomy, decodeTerm)
	if err != nil {
		return err
	}
	for _, c := range children {
		if c.Parent != id {
			continue
		}
		moved := c.Clone()
		moved.Parent = old.Parent
		moved.Version++
		a.note(calendar.TermChange(c, moved))
		if err := writeTerm(tx, c, moved); err != nil {
			return err
		}
	}
	return nil
}

// checkTermParent: a category's parent is an existing category other than
// itself; tags have none.
func checkTermParent(tx *bolt.Tx, t *calendar.TermRecord) error {
	if t.Parent == 0 {
		return nil
	}
	if t.Taxonomy != calendar.TaxonomyCategory || t.Parent == t.ID {
		return errLinkMissing(calendar.KindCategory, t.Parent)
	}
	p, err := getTerm(tx, t.Parent)
	if errors.Is(err, calendar.ErrNotFound) || err == nil && p.Taxonomy != calendar.TaxonomyCategory {
		return errLinkMissing(calendar.KindCategory, t.Parent)
	}
	return err
}

// checkTermNames: no other term of the taxonomy with t's parent holds one of
// t's name keys. The name index holds each holder's parent, so this reads
// the entries of t's keys only. On update (old is the stored term), a key t
// already held at the same level is not checked again: it was reserved when
// t took it, so only a file migrated from layout 1, where names were not
// enforced, can have another holder there, and such a term stays editable
// as long as it takes no new name.
func checkTermNames(tx *bolt.Tx, old, t *calendar.TermRecord) error {
	c := tx.Bucket(bTermNames).Cursor()
	var held []string
	if old != nil && old.Parent == t.Parent {
		held = old.NameKeys()
	}
	for _, key := range t.NameKeys() {
		if slices.Contains(held, key) {
			continue
		}
		prefix := namePrefix(byte(t.Taxonomy.Kind()), key)
		for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
			holder := storage.ParseIDKey(k[len(prefix):])
			if holder != t.ID && storage.ParseIDKey(v) == t.Parent {
				return &calendar.NameTakenError{Taxonomy: t.Taxonomy, Parent: t.Parent, Name: key, ID: holder}
			}
		}
	}
	return nil
}

// TermsByName returns the terms of the taxonomy holding the name key of
// name, at any level, in ascending id order, from the name index.
func (s *Store) TermsByName(ctx context.Context, tax calendar.Taxonomy, name string) ([]*calendar.TermRecord, error) {
	var out []*calendar.TermRecord
	key := calendar.NameKey(name)
	if key == "" || tax.Kind() == 0 {
		return out, ctx.Err()
	}
	err := s.view(ctx, func(tx *bolt.Tx) error {
		prefix := namePrefix(byte(tax.Kind()), key)
		c := tx.Bucket(bTermNames).Cursor()
		for k, _ := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = c.Next() {
			t, err := readTerm(tx, storage.ParseIDKey(k[len(prefix):]), s.terms.in(tx, false))
			if err != nil {
				return err // a name without its record: see Check
			}
			out = append(out, t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// GetTerm returns term id.
func (s *Store) GetTerm(ctx context.Context, id int64) (*calendar.TermRecord, error) {
	return s.getTerm(ctx, id, false)
}

func (s *Store) getTerm(ctx context.Context, id int64, share bool) (*calendar.TermRecord, error) {
	var t *calendar.TermRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		t, err = readTerm(tx, id, s.terms.in(tx, share))
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// GetTerms returns the terms with these ids that exist, in the order asked.
func (s *Store) GetTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
	return s.getTerms(ctx, ids, false)
}

func (s *Store) getTerms(ctx context.Context, ids []int64, share bool) ([]*calendar.TermRecord, error) {
	out := make([]*calendar.TermRecord, 0, len(ids))
	err := s.view(ctx, func(tx *bolt.Tx) error {
		terms, rd := tx.Bucket(bTerms), s.terms.in(tx, share)
		for _, id := range ids {
			t, err := rd.read(terms, id)
			if err != nil {
				return err
			}
			if t != nil {
				out = append(out, t)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// TermBySlug returns the term of the taxonomy holding exactly this slug.
func (s *Store) TermBySlug(ctx context.Context, tax calendar.Taxonomy, slug string) (*calendar.TermRecord, error) {
	return s.termBySlug(ctx, tax, slug, false)
}

func (s *Store) termBySlug(ctx context.Context, tax calendar.Taxonomy, slug string, share bool) (*calendar.TermRecord, error) {
	var t *calendar.TermRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bTermSlugs).Get(slugKey(tax.Kind(), slug))
		if v == nil {
			return fmt.Errorf("boltstore: %s slug %q: %w", tax, slug, calendar.ErrNotFound)
		}
		var err error
		t, err = readTerm(tx, storage.ParseIDKey(v), s.terms.in(tx, share))
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// ListTerms returns every term of the taxonomy in ascending id order.
func (s *Store) ListTerms(ctx context.Context, tax calendar.Taxonomy) ([]*calendar.TermRecord, error) {
	return s.listTermsWith(ctx, tax, false)
}

// listTermsWith is ListTerms with the cache's records copied or, if
// shared, handed out as they are (SharedReads). The copies are made after
// the taxonomy check, so a list of categories copies no tag.
func (s *Store) listTermsWith(ctx context.Context, tax calendar.Taxonomy, shared bool) ([]*calendar.TermRecord, error) {
	var out []*calendar.TermRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		out, err = listTerms(ctx, tx, tax, s.terms.in(tx, true).decode)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !shared {
		for i, t := range out {
			out[i] = t.Clone()
		}
	}
	return out, nil
}

// listTerms walks the terms bucket in id order. Both taxonomies share it:
// term sets are small, and one id sequence keeps ids unique across them.
func listTerms(ctx context.Context, tx *bolt.Tx, tax calendar.Taxonomy, decode func(id int64, raw []byte) (*calendar.TermRecord, error)) ([]*calendar.TermRecord, error) {
	var out []*calendar.TermRecord
	c := tx.Bucket(bTerms).Cursor()
	n := 0
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if n++; n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		t, err := decode(storage.ParseIDKey(k), v)
		if err != nil {
			return nil, err
		}
		if t.Taxonomy == tax {
			out = append(out, t)
		}
	}
	return out, nil
}

// readTerm reads term id with rd.
func readTerm(tx *bolt.Tx, id int64, rd cacheReader[calendar.TermRecord]) (*calendar.TermRecord, error) {
	t, err := rd.read(tx.Bucket(bTerms), id)
	if err == nil && t == nil {
		return nil, errTermNotFound(id)
	}
	return t, err
}

func getTerm(tx *bolt.Tx, id int64) (*calendar.TermRecord, error) {
	v := tx.Bucket(bTerms).Get(storage.IDKey(id))
	if v == nil {
		return nil, errTermNotFound(id)
	}
	return decodeTerm(id, v)
}

func decodeTerm(id int64, v []byte) (*calendar.TermRecord, error) {
	t, err := storage.DecodeTerm(v)
	if err != nil {
		return nil, fmt.Errorf("boltstore: term %d: %w", id, err)
	}
	return t, nil
}

// writeTerm stores rec and its index entries, replacing old (the stored
// version of the same term; nil on create); a nil rec deletes old. The slug
// is handled by the caller.
func writeTerm(tx *bolt.Tx, old, rec *calendar.TermRecord) error {
	terms := tx.Bucket(bTerms)
	if old != nil {
		if err := deleteEntries(tx, termEntries(old)); err != nil {
			return err
		}
		if rec == nil {
			return terms.Delete(storage.IDKey(old.ID))
		}
	}
	v, err := storage.EncodeTerm(rec)
	if err != nil {
		return err
	}
	terms.FillPercent = appendFill
	if err := terms.Put(storage.IDKey(rec.ID), v); err != nil {
		return err
	}
	return putEntries(tx, termEntries(rec))
}
