package boltstore

import (
	"context"
	"fmt"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// CreateTerm stores a new category or tag with the next term id and Version
// 1, its slug made unique per taxonomy.
func (s *Store) CreateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if t == nil || t.Taxonomy.Kind() == 0 {
		return nil, errInvalid("create term: unknown taxonomy")
	}
	rec := t.Clone()
	err := s.update(ctx, func(tx *bolt.Tx) error {
		id, err := nextID(tx, kTermSeq)
		if err != nil {
			return err
		}
		rec.ID, rec.Version = id, 1
		if rec.Slug, err = reserveSlug(tx.Bucket(bTermSlugs), rec.Taxonomy.Kind(), t.Slug, id); err != nil {
			return err
		}
		return putTerm(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// UpdateTerm replaces term t.ID if its stored version is t.Version.
func (s *Store) UpdateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	if t == nil || t.Taxonomy.Kind() == 0 {
		return nil, errInvalid("update term: unknown taxonomy")
	}
	rec := t.Clone()
	err := s.update(ctx, func(tx *bolt.Tx) error {
		old, err := getTerm(tx, t.ID)
		if err != nil {
			return err
		}
		if old.Taxonomy != t.Taxonomy {
			return errInvalid("update term %d: taxonomy %s cannot become %s", t.ID, old.Taxonomy, t.Taxonomy)
		}
		if old.Version != t.Version {
			return errVersion("term", t.ID, t.Version, old.Version)
		}
		rec.Version = old.Version + 1
		if t.Slug != old.Slug {
			slugs := tx.Bucket(bTermSlugs)
			k := old.Taxonomy.Kind()
			if err := releaseSlug(slugs, k, old.Slug); err != nil {
				return err
			}
			if rec.Slug, err = reserveSlug(slugs, k, t.Slug, rec.ID); err != nil {
				return err
			}
		}
		return putTerm(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// DeleteTerm removes a term for good; in the same transaction it is unlinked
// from every event and its child categories move up to its parent.
func (s *Store) DeleteTerm(ctx context.Context, id, version int64) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
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
		terms := tx.Bucket(bTerms)
		if err := terms.Delete(storage.IDKey(id)); err != nil {
			return err
		}
		if err := unlinkEvents(ctx, tx, linkBucket(k), id, func(e *calendar.PostRecord) {
			e.SetLinks(k, without(e.Links(k), id))
		}); err != nil {
			return err
		}
		// Term sets are small: finding the children by a scan is cheaper
		// than keeping a parent index up to date.
		children, err := listTerms(ctx, tx, old.Taxonomy)
		if err != nil {
			return err
		}
		for _, c := range children {
			if c.Parent != id {
				continue
			}
			c.Parent = old.Parent
			c.Version++
			if err := putTerm(tx, c); err != nil {
				return err
			}
		}
		return nil
	})
}

// GetTerm returns term id.
func (s *Store) GetTerm(ctx context.Context, id int64) (*calendar.TermRecord, error) {
	var t *calendar.TermRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		t, err = getTerm(tx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// GetTerms returns the terms with these ids that exist, in the order asked.
func (s *Store) GetTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
	out := make([]*calendar.TermRecord, 0, len(ids))
	err := s.view(ctx, func(tx *bolt.Tx) error {
		terms := tx.Bucket(bTerms)
		for _, id := range ids {
			v := terms.Get(storage.IDKey(id))
			if v == nil {
				continue
			}
			t, err := decodeTerm(id, v)
			if err != nil {
				return err
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

// TermBySlug returns the term of the taxonomy holding exactly this slug.
func (s *Store) TermBySlug(ctx context.Context, tax calendar.Taxonomy, slug string) (*calendar.TermRecord, error) {
	var t *calendar.TermRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bTermSlugs).Get(slugKey(tax.Kind(), slug))
		if v == nil {
			return fmt.Errorf("boltstore: %s slug %q: %w", tax, slug, calendar.ErrNotFound)
		}
		var err error
		t, err = getTerm(tx, storage.ParseIDKey(v))
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// ListTerms returns every term of the taxonomy in ascending id order.
func (s *Store) ListTerms(ctx context.Context, tax calendar.Taxonomy) ([]*calendar.TermRecord, error) {
	var out []*calendar.TermRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		out, err = listTerms(ctx, tx, tax)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// listTerms walks the terms bucket in id order. Both taxonomies share it:
// term sets are small, and one id sequence keeps ids unique across them.
func listTerms(ctx context.Context, tx *bolt.Tx, tax calendar.Taxonomy) ([]*calendar.TermRecord, error) {
	var out []*calendar.TermRecord
	c := tx.Bucket(bTerms).Cursor()
	n := 0
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if n++; n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		t, err := decodeTerm(storage.ParseIDKey(k), v)
		if err != nil {
			return nil, err
		}
		if t.Taxonomy == tax {
			out = append(out, t)
		}
	}
	return out, nil
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

func putTerm(tx *bolt.Tx, t *calendar.TermRecord) error {
	v, err := storage.EncodeTerm(t)
	if err != nil {
		return err
	}
	terms := tx.Bucket(bTerms)
	terms.FillPercent = appendFill
	return terms.Put(storage.IDKey(t.ID), v)
}
