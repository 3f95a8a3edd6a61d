package boltstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// CreatePost stores a new post with the next post id and Version 1, its slug
// made unique per kind with calendar.SlugCandidate, all in one transaction.
func (s *Store) CreatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if p == nil || !p.Kind.IsPost() {
		return nil, errInvalid("create post: not a post record")
	}
	rec := p.Clone()
	err := s.update(ctx, func(tx *bolt.Tx) error {
		id, err := nextID(tx, kPostSeq)
		if err != nil {
			return err
		}
		rec.ID, rec.Version = id, 1
		if rec.Slug, err = reserveSlug(tx.Bucket(bPostSlugs), rec.Kind, p.Slug, id); err != nil {
			return err
		}
		return writePost(tx, nil, rec)
	})
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// UpdatePost replaces post p.ID if its stored version is p.Version.
func (s *Store) UpdatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if p == nil || !p.Kind.IsPost() {
		return nil, errInvalid("update post: not a post record")
	}
	rec := p.Clone()
	err := s.update(ctx, func(tx *bolt.Tx) error {
		old, err := getPost(tx, p.ID)
		if err != nil {
			return err
		}
		if old.Kind != p.Kind {
			return errInvalid("update post %d: kind %s cannot become %s", p.ID, old.Kind, p.Kind)
		}
		if old.Version != p.Version {
			return errVersion("post", p.ID, p.Version, old.Version)
		}
		rec.Version = old.Version + 1
		if p.Slug != old.Slug {
			slugs := tx.Bucket(bPostSlugs)
			if err := releaseSlug(slugs, old.Kind, old.Slug); err != nil {
				return err
			}
			if rec.Slug, err = reserveSlug(slugs, rec.Kind, p.Slug, rec.ID); err != nil {
				return err
			}
		}
		return writePost(tx, old, rec)
	})
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// DeletePost removes a post for good and, in the same transaction, unlinks
// it from every event that refers to it.
func (s *Store) DeletePost(ctx context.Context, id, version int64) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		old, err := getPost(tx, id)
		if err != nil {
			return err
		}
		if version != 0 && old.Version != version {
			return errVersion("post", id, version, old.Version)
		}
		if err := releaseSlug(tx.Bucket(bPostSlugs), old.Kind, old.Slug); err != nil {
			return err
		}
		if err := deleteEntries(tx, postEntries(old)); err != nil {
			return err
		}
		if err := tx.Bucket(bPosts).Delete(storage.IDKey(id)); err != nil {
			return err
		}
		switch old.Kind {
		case calendar.KindEvent:
			return unlinkEvents(ctx, tx, bParentChildren, id, func(e *calendar.PostRecord) { e.PostParent = 0 })
		case calendar.KindVenue, calendar.KindOrganizer:
			k := old.Kind
			return unlinkEvents(ctx, tx, linkBucket(k), id, func(e *calendar.PostRecord) {
				e.SetLinks(k, without(e.Links(k), id))
			})
		}
		return nil
	})
}

// GetPost returns post id of any kind.
func (s *Store) GetPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	var p *calendar.PostRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		v := tx.Bucket(bPosts).Get(storage.IDKey(id))
		if v == nil {
			return errPostNotFound(id)
		}
		p, err = s.cache.post(id, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// GetPosts returns the posts with these ids that exist, in the order asked.
func (s *Store) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	out := make([]*calendar.PostRecord, 0, len(ids))
	err := s.view(ctx, func(tx *bolt.Tx) error {
		posts := tx.Bucket(bPosts)
		for i, id := range ids {
			if i%64 == 63 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			v := posts.Get(storage.IDKey(id))
			if v == nil {
				continue
			}
			p, err := s.cache.post(id, v)
			if err != nil {
				return err
			}
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PostBySlug returns the post of this kind holding exactly this slug.
func (s *Store) PostBySlug(ctx context.Context, kind calendar.Kind, slug string) (*calendar.PostRecord, error) {
	var p *calendar.PostRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bPostSlugs).Get(slugKey(kind, slug))
		if v == nil {
			return fmt.Errorf("boltstore: %s slug %q: %w", kind, slug, calendar.ErrNotFound)
		}
		id := storage.ParseIDKey(v)
		if v = tx.Bucket(bPosts).Get(v); v == nil {
			return errPostNotFound(id) // a slug without its record: see Check
		}
		var err error
		p, err = s.cache.post(id, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

func getPost(tx *bolt.Tx, id int64) (*calendar.PostRecord, error) {
	v := tx.Bucket(bPosts).Get(storage.IDKey(id))
	if v == nil {
		return nil, errPostNotFound(id)
	}
	return decodePost(id, v)
}

func decodePost(id int64, v []byte) (*calendar.PostRecord, error) {
	p, err := storage.DecodePost(v)
	if err != nil {
		return nil, fmt.Errorf("boltstore: post %d: %w", id, err)
	}
	return p, nil
}

// writePost stores rec and its index entries, replacing those of old (the
// stored version of the same post, nil on create). The slug is handled by
// the caller.
func writePost(tx *bolt.Tx, old, rec *calendar.PostRecord) error {
	if old != nil {
		if err := deleteEntries(tx, postEntries(old)); err != nil {
			return err
		}
	}
	if rec.Kind == calendar.KindEvent {
		if err := raiseMaxDuration(tx, rec.End.Sub(rec.Start)); err != nil {
			return err
		}
	}
	v, err := storage.EncodePost(rec)
	if err != nil {
		return err
	}
	posts := tx.Bucket(bPosts)
	posts.FillPercent = appendFill
	if err := posts.Put(storage.IDKey(rec.ID), v); err != nil {
		return err
	}
	for _, e := range postEntries(rec) {
		b := tx.Bucket(e.bucket)
		if e.appends {
			b.FillPercent = appendFill
		}
		if err := b.Put(e.key, e.value); err != nil {
			return err
		}
	}
	return nil
}

func deleteEntries(tx *bolt.Tx, es []entry) error {
	for _, e := range es {
		if err := tx.Bucket(e.bucket).Delete(e.key); err != nil {
			return err
		}
	}
	return nil
}

// unlinkEvents applies change to every event listed under linked in the
// reverse index bucket and stores each with Version+1.
func unlinkEvents(ctx context.Context, tx *bolt.Tx, bucket []byte, linked int64, change func(*calendar.PostRecord)) error {
	ids, err := linkedEvents(ctx, tx.Bucket(bucket), linked)
	if err != nil {
		return err
	}
	for _, id := range ids {
		old, err := getPost(tx, id)
		if err != nil {
			return err
		}
		rec := old.Clone()
		change(rec)
		rec.Version++
		if err := writePost(tx, old, rec); err != nil {
			return err
		}
	}
	return nil
}

// linkedEvents returns the event ids filed under linked in a reverse index
// bucket, ascending. The ids are collected before any write so that the
// cursor never walks a bucket being changed.
func linkedEvents(ctx context.Context, b *bolt.Bucket, linked int64) ([]int64, error) {
	var ids []int64
	prefix := storage.IDKey(linked)
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = c.Next() {
		if len(ids)%256 == 255 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		ids = append(ids, storage.ParseIDKey(k[8:]))
	}
	return ids, nil
}

func without(ids []int64, id int64) []int64 {
	return slices.DeleteFunc(slices.Clone(ids), func(v int64) bool { return v == id })
}

// nextID advances the sequence under key and returns the new id; sequences
// only grow, so ids of deleted records are never handed out again.
func nextID(tx *bolt.Tx, key []byte) (int64, error) {
	seq := tx.Bucket(bSeq)
	n, _ := readU64(seq.Get(key))
	n++
	if err := seq.Put(key, u64(n)); err != nil {
		return 0, err
	}
	return int64(n), nil
}

// reserveSlug files id under the first free candidate of want in the slug
// bucket and returns the slug it got. An empty slug reserves nothing.
func reserveSlug(b *bolt.Bucket, k calendar.Kind, want string, id int64) (string, error) {
	if want == "" {
		return "", nil
	}
	for n := 1; ; n++ {
		slug := calendar.SlugCandidate(want, n)
		key := slugKey(k, slug)
		if b.Get(key) != nil {
			continue
		}
		return slug, b.Put(key, storage.IDKey(id))
	}
}

func releaseSlug(b *bolt.Bucket, k calendar.Kind, slug string) error {
	if slug == "" {
		return nil
	}
	return b.Delete(slugKey(k, slug))
}

func hasPrefix(k, prefix []byte) bool {
	return len(k) >= len(prefix) && string(k[:len(prefix)]) == string(prefix)
}

// maxDuration returns the bound on End − Start of every stored event: an
// event that ends at or after t starts at or after t − maxDuration, which
// turns an End range into a Start range on post_order. The bound only
// grows (deletes leave it), which keeps it a bound.
func maxDuration(tx *bolt.Tx) time.Duration {
	n, _ := readU64(tx.Bucket(bSeq).Get(kMaxDur))
	return time.Duration(n)
}

func raiseMaxDuration(tx *bolt.Tx, d time.Duration) error {
	if d <= maxDuration(tx) {
		return nil
	}
	return tx.Bucket(bSeq).Put(kMaxDur, u64(uint64(d)))
}
