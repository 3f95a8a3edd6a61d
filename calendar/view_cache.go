package calendar

import (
	"context"
	"encoding/binary"
	"maps"
	"slices"
)

// ViewCache is kept by a caller that turns event views into something it
// keeps, such as an HTTP adapter's encoded JSON. Given one in the context
// (WithViewCache), the event reads (GetEvent, ListEvents) first work out
// the key of each view from the stored records — their versions and what
// the request and the clock decide about them — and ask the cache for it:
// on a hit the view is not built at all, which is most of what serving a
// listed event costs when its bytes are kept.
type ViewCache interface {
	// CachedView returns what the cache holds for the view with key, or
	// nil. key is only valid during the call.
	CachedView(key []byte) any
}

type viewCacheKey struct{}

// WithViewCache returns ctx carrying c for the event reads made with it.
// Views read under it carry their key (Event.ViewKey) or, on a hit, only
// what c returned (Event.Cached); use it only where every event read is
// turned into what c keeps.
func WithViewCache(ctx context.Context, c ViewCache) context.Context {
	return context.WithValue(ctx, viewCacheKey{}, c)
}

// ViewCacheFrom returns the ViewCache of ctx, or nil. A Calendar other than
// Service (a wrapper, a test double) may use it to answer from the cache
// as Service does; one that ignores it only leaves the caller's cache unused.
func ViewCacheFrom(ctx context.Context) ViewCache {
	c, _ := ctx.Value(viewCacheKey{}).(ViewCache)
	return c
}

// cachedEvent answers from the context's ViewCache: a stub holding what
// the cache keeps for the view of e (nil, false on a miss, with the key
// left in r.key for the view about to be built). The stub is valid until
// the next call: callers copy it, as they copy every view into a page.
func (r *render) cachedEvent(e *PostRecord, protected bool) (*Event, bool, error) {
	if err := r.preloadOne(e); err != nil {
		return nil, false, err
	}
	k, err := r.appendEventKey(r.key[:0], e, protected)
	if err != nil {
		return nil, false, err
	}
	r.key = k
	if c := r.views.CachedView(k); c != nil {
		// The render's one stub: ListEvents copies each view into its page
		// before asking for the next, and a single read is the render's last.
		r.stub = Event{ID: e.ID, Version: e.Version, Cached: c}
		return &r.stub, true, nil
	}
	return nil, false, nil
}

// appendEventKey appends the key of the view r.event builds of e: the
// event's record version and every part of the view no record version
// fixes — the requested language, the effective statuses (they change with
// the clock), protection and whether the caller sees the password, resolved
// images (resolved at read time), term counts, and which venues,
// organizers and terms are shown, each with its own version. Everything else
// in the view is a function of those: a stored record changes only with its
// version, and the zones are the Service's. It walks the links the way
// r.event does (linkedTerm, visiblePost), so the two cannot disagree on
// what is shown.
func (r *render) appendEventKey(k []byte, e *PostRecord, protected bool) ([]byte, error) {
	st := e.EffectiveStatus(r.now)
	k = binary.AppendVarint(k, e.ID)
	k = binary.AppendVarint(k, e.Version)
	k = appendKeyStr(k, string(r.lang))
	k = appendKeyStr(k, string(st))
	k = append(k, keyBool(protected), keyBool(e.Password != "" && r.c.canEdit(e, st)))
	if protected {
		return k, nil // the view holds no content and no links
	}
	k = r.appendImageKey(k, e.Image)
	for _, ids := range [2][]int64{e.CategoryIDs, e.TagIDs} {
		k = binary.AppendUvarint(k, uint64(len(ids)))
		for _, id := range ids {
			t := r.terms[id]
			if t == nil {
				k = append(k, 0)
				continue
			}
			n, err := r.termCount(t)
			if err != nil {
				return nil, err
			}
			k = append(k, 1)
			k = binary.AppendVarint(k, t.ID)
			k = binary.AppendVarint(k, t.Version)
			k = appendKeyStr(k, string(t.Taxonomy))
			k = binary.AppendVarint(k, int64(n))
		}
	}
	for _, link := range [2]struct {
		ids  []int64
		kind Kind
	}{{e.VenueIDs, KindVenue}, {e.OrganizerIDs, KindOrganizer}} {
		k = binary.AppendUvarint(k, uint64(len(link.ids)))
		for _, id := range link.ids {
			p := r.visiblePost(id, link.kind)
			if p == nil {
				k = append(k, 0)
				continue
			}
			k = append(k, 1)
			k = binary.AppendVarint(k, p.ID)
			k = binary.AppendVarint(k, p.Version)
			k = appendKeyStr(k, string(p.EffectiveStatus(r.now)))
			k = r.appendImageKey(k, p.Image)
		}
	}
	return k, nil
}

// appendImageKey appends the image ref resolves to now.
func (r *render) appendImageKey(k []byte, ref string) []byte {
	img := r.s.image(r.ctx, ref)
	if img == nil {
		return append(k, 0)
	}
	k = append(k, 1)
	k = appendKeyStr(k, img.URL)
	k = binary.AppendVarint(k, img.ID)
	k = appendKeyStr(k, img.Extension)
	k = binary.AppendVarint(k, int64(img.Width))
	k = binary.AppendVarint(k, int64(img.Height))
	k = binary.AppendUvarint(k, uint64(len(img.Sizes)))
	for _, name := range slices.Sorted(maps.Keys(img.Sizes)) {
		s := img.Sizes[name]
		k = appendKeyStr(k, name)
		k = appendKeyStr(k, s.URL)
		k = binary.AppendVarint(k, int64(s.Width))
		k = binary.AppendVarint(k, int64(s.Height))
		k = appendKeyStr(k, s.MimeType)
	}
	return k
}

func keyBool(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// appendKeyStr appends s with its length, so no two sequences of strings
// give the same key.
func appendKeyStr(k []byte, s string) []byte {
	k = binary.AppendUvarint(k, uint64(len(s)))
	return append(k, s...)
}
