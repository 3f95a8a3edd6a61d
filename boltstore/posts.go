package boltstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// CreatePost stores a new post (a one-step Apply of OpCreatePost): the next
// post id or the one asked for, Version 1, its slug made unique per kind
// with calendar.SlugCandidate, all in one transaction.
func (s *Store) CreatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if p == nil {
		return nil, errInvalid("create post: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpCreatePost, Post: p})
	return r.Post, err
}

// UpdatePost replaces post p.ID if its stored version is p.Version (a
// one-step Apply of OpUpdatePost).
func (s *Store) UpdatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	if p == nil {
		return nil, errInvalid("update post: nil record")
	}
	r, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpUpdatePost, Post: p})
	return r.Post, err
}

// DeletePost removes a post for good and, in the same transaction, unlinks
// it from every event that refers to it (a one-step Apply of OpDeletePost).
func (s *Store) DeletePost(ctx context.Context, id, version int64) error {
	_, err := s.applyOne(ctx, calendar.Step{Op: calendar.OpDeletePost, ID: id, Version: version})
	return err
}

func (a *applier) createPost(rec *calendar.PostRecord) (*calendar.PostRecord, error) {
	if !rec.Kind.IsPost() {
		return nil, errInvalid("create post: not an event, venue or organizer")
	}
	var err error
	if rec.ID, err = claimID(a.tx, bPosts, kPostSeq, "post", rec.ID); err != nil {
		return nil, err
	}
	if err := a.checkPostLinks(rec); err != nil {
		return nil, err
	}
	if err := checkUID(a.tx, rec); err != nil {
		return nil, err
	}
	rec.Version = 1
	if rec.Slug, err = reserveSlug(a.tx.Bucket(bPostSlugs), rec.Kind, rec.Slug, rec.ID); err != nil {
		return nil, err
	}
	a.note(calendar.PostChange(nil, rec))
	return rec, writePost(a.tx, nil, rec)
}

func (a *applier) updatePost(rec *calendar.PostRecord) (*calendar.PostRecord, error) {
	old, err := getPost(a.tx, rec.ID)
	if err != nil {
		return nil, err
	}
	if old.Kind != rec.Kind {
		return nil, errInvalid("update post %d: kind %s cannot become %s", rec.ID, old.Kind, rec.Kind)
	}
	if old.Version != rec.Version {
		return nil, errVersion("post", rec.ID, rec.Version, old.Version)
	}
	if err := a.checkPostLinks(rec); err != nil {
		return nil, err
	}
	if err := checkUID(a.tx, rec); err != nil {
		return nil, err
	}
	rec.Version = old.Version + 1
	if rec.Slug != old.Slug {
		slugs := a.tx.Bucket(bPostSlugs)
		if err := releaseSlug(slugs, old.Kind, old.Slug); err != nil {
			return nil, err
		}
		if rec.Slug, err = reserveSlug(slugs, rec.Kind, rec.Slug, rec.ID); err != nil {
			return nil, err
		}
	}
	a.note(calendar.PostChange(old, rec))
	return rec, writePost(a.tx, old, rec)
}

// ensurePost returns the lowest-id venue or organizer holding the name key
// of rec's title that is not trashed and that st.Visible allows at st.Now,
// deciding on the summaries of the name index; it creates rec when there is
// none. The transaction makes the look-up and the create one step.
func (a *applier) ensurePost(st *calendar.Step) (*calendar.PostRecord, bool, error) {
	rec := st.Post
	if rec.Kind != calendar.KindVenue && rec.Kind != calendar.KindOrganizer {
		return nil, false, errInvalid("ensure post: only venues and organizers are found by name")
	}
	key := calendar.NameKey(rec.Title.Get(rec.Lang, rec.Lang))
	if key == "" {
		return nil, false, errInvalid("ensure post: the record has no name in its language")
	}
	prefix := namePrefix(byte(rec.Kind), key)
	c := a.tx.Bucket(bPostNames).Cursor()
	for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
		skel := calendar.PostRecord{ID: storage.ParseIDKey(k[len(prefix):]), Kind: rec.Kind}
		if err := decodeSummary(v, &skel); err != nil {
			return nil, false, err
		}
		if es := skel.EffectiveStatus(st.Now); es != calendar.StatusTrash && st.Visible.Allows(skel.Author, es) {
			raw := a.tx.Bucket(bPosts).Get(storage.IDKey(skel.ID))
			if raw == nil {
				return nil, false, errPostNotFound(skel.ID) // an index entry without its record: see Check
			}
			p, err := a.cache.in(a.tx, false).decode(skel.ID, raw)
			return p, true, err
		}
	}
	p, err := a.createPost(rec)
	return p, false, err
}

func (a *applier) deletePost(id, version int64) error {
	tx := a.tx
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
	if err := countOddEnd(tx, old, nil); err != nil {
		return err
	}
	if err := recount(tx, old, nil); err != nil {
		return err
	}
	if err := tx.Bucket(bPosts).Delete(storage.IDKey(id)); err != nil {
		return err
	}
	a.note(calendar.PostChange(old, nil))
	switch old.Kind {
	case calendar.KindEvent:
		return a.unlinkEvents(bParentChildren, id, func(e *calendar.PostRecord) { e.PostParent = 0 })
	case calendar.KindVenue, calendar.KindOrganizer:
		k := old.Kind
		return a.unlinkEvents(linkBucket(k), id, func(e *calendar.PostRecord) {
			e.SetLinks(k, without(e.Links(k), id))
		})
	}
	return nil
}

// checkPostLinks: every record an event links to exists now (earlier steps
// of the write count), of the right kind.
func (a *applier) checkPostLinks(p *calendar.PostRecord) error {
	if p.Kind != calendar.KindEvent {
		return nil
	}
	posts := a.tx.Bucket(bPosts)
	postIs := func(id int64, k calendar.Kind) error {
		raw := posts.Get(storage.IDKey(id))
		if raw == nil {
			return errLinkMissing(k, id)
		}
		l, err := a.cache.in(a.tx, true).decode(id, raw)
		if err != nil {
			return err
		}
		if l.Kind != k {
			return errLinkMissing(k, id)
		}
		return nil
	}
	for _, k := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
		for _, id := range p.Links(k) {
			if err := postIs(id, k); err != nil {
				return err
			}
		}
	}
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		for _, id := range p.Links(tax.Kind()) {
			if t, err := getTerm(a.tx, id); errors.Is(err, calendar.ErrNotFound) || err == nil && t.Taxonomy != tax {
				return errLinkMissing(tax.Kind(), id)
			} else if err != nil {
				return err
			}
		}
	}
	if p.PostParent != 0 {
		if p.PostParent == p.ID {
			return errLinkMissing(calendar.KindEvent, p.PostParent)
		}
		return postIs(p.PostParent, calendar.KindEvent)
	}
	return nil
}

// checkUID: a post's UID is free among the posts of its kind, or its own.
func checkUID(tx *bolt.Tx, p *calendar.PostRecord) error {
	if p.UID == "" {
		return nil
	}
	if v := tx.Bucket(bPostUIDs).Get(uidKey(p.Kind, p.UID)); v != nil && storage.ParseIDKey(v) != p.ID {
		return fmt.Errorf("boltstore: %s uid %q is held by post %d: %w", p.Kind, p.UID, storage.ParseIDKey(v), calendar.ErrConflict)
	}
	return nil
}

// PostByUID returns the post of this kind whose UID is uid, from the UID index.
func (s *Store) PostByUID(ctx context.Context, kind calendar.Kind, uid string) (*calendar.PostRecord, error) {
	var p *calendar.PostRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var v []byte
		if uid != "" {
			v = tx.Bucket(bPostUIDs).Get(uidKey(kind, uid))
		}
		if v == nil {
			return fmt.Errorf("boltstore: %s with uid %q: %w", kind, uid, calendar.ErrNotFound)
		}
		id := storage.ParseIDKey(v)
		raw := tx.Bucket(bPosts).Get(v)
		if raw == nil {
			return errPostNotFound(id) // a UID without its record: see Check
		}
		var err error
		p, err = s.cache.in(tx, false).decode(id, raw)
		return err
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// GetPost returns post id of any kind.
func (s *Store) GetPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	return s.getPost(ctx, id, false)
}

func (s *Store) getPost(ctx context.Context, id int64, share bool) (*calendar.PostRecord, error) {
	var p *calendar.PostRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		if p, err = s.cache.in(tx, share).read(tx.Bucket(bPosts), id); err == nil && p == nil {
			return errPostNotFound(id)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// GetPosts returns the posts with these ids that exist, in the order asked.
func (s *Store) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	return s.getPosts(ctx, ids, false)
}

func (s *Store) getPosts(ctx context.Context, ids []int64, share bool) ([]*calendar.PostRecord, error) {
	out := make([]*calendar.PostRecord, 0, len(ids))
	err := s.view(ctx, func(tx *bolt.Tx) error {
		posts, rd := tx.Bucket(bPosts), s.cache.in(tx, share)
		for i, id := range ids {
			if i%64 == 63 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			p, err := rd.read(posts, id)
			if err != nil {
				return err
			}
			if p != nil {
				out = append(out, p)
			}
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
	return s.postBySlug(ctx, kind, slug, false)
}

func (s *Store) postBySlug(ctx context.Context, kind calendar.Kind, slug string, share bool) (*calendar.PostRecord, error) {
	var p *calendar.PostRecord
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bPostSlugs).Get(slugKey(kind, slug))
		if v == nil {
			return fmt.Errorf("boltstore: %s slug %q: %w", kind, slug, calendar.ErrNotFound)
		}
		id := storage.ParseIDKey(v)
		var err error
		if p, err = s.cache.in(tx, share).read(tx.Bucket(bPosts), id); err == nil && p == nil {
			return errPostNotFound(id) // a slug without its record: see Check
		}
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
	if err := countOddEnd(tx, old, rec); err != nil {
		return err
	}
	if err := recount(tx, old, rec); err != nil {
		return err
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
	return putEntries(tx, postEntries(rec))
}

func putEntries(tx *bolt.Tx, es []entry) error {
	for _, e := range es {
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
func (a *applier) unlinkEvents(bucket []byte, linked int64, change func(*calendar.PostRecord)) error {
	tx := a.tx
	ids, err := linkedEvents(a.ctx, tx.Bucket(bucket), linked)
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
		a.note(calendar.PostChange(old, rec))
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

// claimID returns the id a new record gets: the next of the sequence under
// seqKey when want is 0, else want itself if no record of the bucket holds
// it (ErrConflict otherwise), with the sequence moved past it so it is never
// handed out again.
func claimID(tx *bolt.Tx, bucket, seqKey []byte, what string, want int64) (int64, error) {
	switch {
	case want < 0:
		return 0, errInvalid("create %s: negative id %d", what, want)
	case want == 0:
		return nextID(tx, seqKey)
	}
	if tx.Bucket(bucket).Get(storage.IDKey(want)) != nil {
		return 0, fmt.Errorf("boltstore: %s id %d is taken: %w", what, want, calendar.ErrConflict)
	}
	seq := tx.Bucket(bSeq)
	if n, _ := readU64(seq.Get(seqKey)); uint64(want) > n {
		if err := seq.Put(seqKey, u64(uint64(want))); err != nil {
			return 0, err
		}
	}
	return want, nil
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

// oddEnd reports whether p is an event ending before it starts (imported
// data may have no end at all).
func oddEnd(p *calendar.PostRecord) bool {
	return p != nil && p.Kind == calendar.KindEvent && p.End.Before(p.Start)
}

// oddEnds returns how many stored events end before they start.
func oddEnds(tx *bolt.Tx) uint64 {
	n, _ := readU64(tx.Bucket(bSeq).Get(kOddEnds))
	return n
}

// countOddEnd keeps kOddEnds as a write replaces old by rec (either nil).
func countOddEnd(tx *bolt.Tx, old, rec *calendar.PostRecord) error {
	if oddEnd(old) == oddEnd(rec) {
		return nil
	}
	n := oddEnds(tx)
	if oddEnd(rec) {
		n++
	} else if n > 0 {
		n--
	}
	return tx.Bucket(bSeq).Put(kOddEnds, u64(n))
}

// initOddEnds counts the odd ends of a file that has no count yet, from
// the event_end index alone (key End ‖ id, value Start ‖ summary).
func initOddEnds(tx *bolt.Tx) error {
	if tx.Bucket(bSeq).Get(kOddEnds) != nil {
		return nil
	}
	var n uint64
	c := tx.Bucket(bEventEnd).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) >= 8 && len(v) >= 8 && bytes.Compare(k[:8], v[:8]) < 0 {
			n++
		}
	}
	return tx.Bucket(bSeq).Put(kOddEnds, u64(n))
}
