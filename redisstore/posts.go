package redisstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/eventcal/eventcal/calendar"
)

// CreatePost stores a new post in one script run: id from the post sequence,
// first free slug of its kind, record and index entries.
func (s *Store) CreatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	return create(ctx, s, postFamily, p)
}

// UpdatePost reads the stored post, then commits the new one guarded on the
// bytes it read, so the version compare-and-set holds across processes.
func (s *Store) UpdatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	return update(ctx, s, postFamily, p)
}

// DeletePost removes a post and, in the same script run, unlinks it from
// every event that names it as venue, organizer or parent.
func (s *Store) DeletePost(ctx context.Context, id, version int64) error {
	refKeys := []string{s.k.evLink(calendar.KindVenue, id), s.k.evLink(calendar.KindOrganizer, id), s.k.evParent(id)}
	return remove(ctx, s, postFamily, id, version, refKeys, func(c *commit, _ *calendar.PostRecord, members [][]string) ([]string, error) {
		var refs []int64
		for i, m := range members {
			c.guardMembers(refKeys[i], m)
			refs = append(refs, parseIDs(m)...)
		}
		refs = slices.DeleteFunc(refs, func(rid int64) bool { return rid == id })
		slices.Sort(refs)
		refs = slices.Compact(refs)
		if err := s.rewriteEvents(ctx, c, refs, func(ev *calendar.PostRecord) bool { return unlinkPost(ev, id) }); err != nil {
			return nil, err
		}
		return refKeys, nil
	})
}

// rewriteEvents reads the events ids, applies change to each, and adds the
// changed ones (Version+1) to c, guarded on the bytes read. The caller drops
// the index keys that change implies.
func (s *Store) rewriteEvents(ctx context.Context, c *commit, ids []int64, change func(*calendar.PostRecord) bool) error {
	return rewrite(ctx, s, c, postFamily, "unlink", ids, change, nil)
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
