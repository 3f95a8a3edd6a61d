package calendar

import (
	"context"
	"time"
)

// render turns stored records into read views for one caller and language.
// It batches the loading of linked records and term counts for a whole page.
type render struct {
	s     *Service
	ctx   context.Context
	c     caller
	lang  Lang
	now   time.Time
	posts map[int64]*PostRecord
	terms map[int64]*TermRecord
	count map[int64]int
}

// sharedReader is implemented by a driver that can also hand out its stored
// records without copying them (memstore.Store.SharedReads). Copying is most
// of what reading a record from memory costs, and the read paths only look at
// records: GetEvent, ListEvents and the venues, organizers and terms every
// rendered event embeds read through it. A record from that view must never
// be modified — the view's records are the store's own — so it is used
// nowhere a record may be changed (writes clone what they change, from a
// record of s.repo).
type sharedReader interface {
	SharedReads() Repository
}

// reads is the repository the read-only paths use: the driver's shared view
// when it has one, else the repository itself.
func (s *Service) reads() Repository {
	if sr, ok := s.repo.(sharedReader); ok {
		return sr.SharedReads()
	}
	return s.repo
}

func (s *Service) newRender(ctx context.Context, c caller, lang Lang, now time.Time) *render {
	return &render{s: s, ctx: ctx, c: c, lang: lang, now: now,
		posts: map[int64]*PostRecord{}, terms: map[int64]*TermRecord{}, count: map[int64]int{}}
}

// preload fetches every venue, organizer and term the events link to, in one
// GetLinked call (one round trip on a driver with LinkedReader), and the
// terms' counts in one grouped count.
func (r *render) preload(events []*PostRecord) error {
	var postIDs, termIDs []int64
	for _, e := range events {
		for _, ids := range [...][]int64{e.VenueIDs, e.OrganizerIDs} {
			for _, id := range ids {
				if _, ok := r.posts[id]; !ok {
					postIDs = append(postIDs, id)
					r.posts[id] = nil
				}
			}
		}
		for _, ids := range [...][]int64{e.CategoryIDs, e.TagIDs} {
			for _, id := range ids {
				if _, ok := r.terms[id]; !ok {
					termIDs = append(termIDs, id)
					r.terms[id] = nil
				}
			}
		}
	}
	if len(postIDs) == 0 && len(termIDs) == 0 {
		return nil
	}
	ps, ts, err := GetLinked(r.ctx, r.s.reads(), postIDs, termIDs)
	if err != nil {
		return r.s.storageErr(r.ctx, "get linked records", err)
	}
	for _, p := range ps {
		r.posts[p.ID] = p
	}
	for _, t := range ts {
		r.terms[t.ID] = t
	}
	if len(ts) > 0 {
		return r.countTerms(ts)
	}
	return nil
}

// termCount is the number of published events using term t (see termCounts).
func (r *render) termCount(t *TermRecord) (int, error) {
	if err := r.countTerms([]*TermRecord{t}); err != nil {
		return 0, err
	}
	return r.count[t.ID], nil
}

// knowNewTerms notes the use count of the terms a write just created for
// event ev: at the write only ev links them, so rendering them needs no
// count query (one round trip per new term on Redis).
func (r *render) knowNewTerms(res *WriteResult, ev *PostRecord) *render {
	n := 0
	if ev.EffectiveStatus(r.now) == StatusPublish {
		n = 1
	}
	for _, st := range res.Steps {
		if st.Term != nil && !st.Found {
			r.count[st.Term.ID] = n
		}
	}
	return r
}

func (r *render) term(t *TermRecord) (Term, error) {
	n, err := r.termCount(t)
	if err != nil {
		return Term{}, err
	}
	return Term{
		ID: t.ID, Taxonomy: t.Taxonomy, Version: t.Version, Slug: t.Slug, Lang: t.Name.LangOf(r.lang, t.Lang),
		Name: t.Name.Get(r.lang, t.Lang), Description: t.Description.Get(r.lang, t.Lang),
		Parent: t.Parent, Count: n,
	}, nil
}

// event builds the view of e; protected blanks the content (domain §4).
func (r *render) event(e *PostRecord, protected bool) (*Event, error) {
	s := r.s
	loc := s.eventZone(e.TimeZone)
	ev := &Event{
		ID: e.ID, Status: e.EffectiveStatus(r.now), Author: e.Author,
		Date: e.Date.In(s.siteZone), Modified: e.Modified.In(s.siteZone),
		Version: e.Version, Slug: e.Slug, Lang: e.Title.LangOf(r.lang, e.Lang), UID: e.UID,
		Title: e.Title.Get(r.lang, e.Lang),
		Start: e.Start.In(loc), End: e.End.In(loc), TimeZone: e.TimeZone,
		PostParent: e.PostParent, Protected: protected, Recurrence: seriesLines(e), Series: seriesLink(e, loc),
		HasPassword: e.Password != "" && r.c.canEdit(e, e.EffectiveStatus(r.now)),
	}
	if ev.TimeZone == "" {
		ev.TimeZone = s.siteZone.String()
	}
	ev.Categories, ev.Tags, ev.Venues, ev.Organizers = []Term{}, []Term{}, []Venue{}, []Organizer{}
	if protected {
		return ev, nil
	}
	// Sized once: growing them a record at a time was a fifth of rendering
	// a list page (views are large and copied with write barriers).
	if n := len(e.CategoryIDs); n > 0 {
		ev.Categories = make([]Term, 0, n)
	}
	if n := len(e.TagIDs); n > 0 {
		ev.Tags = make([]Term, 0, n)
	}
	if n := len(e.VenueIDs); n > 0 {
		ev.Venues = make([]Venue, 0, n)
	}
	if n := len(e.OrganizerIDs); n > 0 {
		ev.Organizers = make([]Organizer, 0, n)
	}
	ev.Description = e.Description.Get(r.lang, e.Lang)
	ev.Excerpt = e.Excerpt.Get(r.lang, e.Lang)
	ev.Image = s.image(r.ctx, e.Image)
	ev.AllDay = e.AllDay
	ev.Cost = append([]string{}, e.Cost...)
	ev.Website = e.Website
	ev.ShowMap, ev.ShowMapLink = orTrue(e.ShowMap), orTrue(e.ShowMapLink)
	ev.HideFromListings, ev.Sticky, ev.Featured = boolPtr(e.HideFromListings), boolPtr(e.Sticky), boolPtr(e.Featured)
	if err := r.preload([]*PostRecord{e}); err != nil {
		return nil, err
	}
	for _, ids := range [][]int64{e.CategoryIDs, e.TagIDs} {
		for _, id := range ids {
			t := r.terms[id]
			if t == nil {
				continue
			}
			tv, err := r.term(t)
			if err != nil {
				return nil, err
			}
			if t.Taxonomy == TaxonomyCategory {
				ev.Categories = append(ev.Categories, tv)
			} else {
				ev.Tags = append(ev.Tags, tv)
			}
		}
	}
	for _, id := range e.VenueIDs {
		if p := r.posts[id]; p != nil && p.Kind == KindVenue && r.c.canRead(p, p.EffectiveStatus(r.now)) {
			ev.Venues = append(ev.Venues, Venue{})
			r.fillVenue(&ev.Venues[len(ev.Venues)-1], p)
		}
	}
	for _, id := range e.OrganizerIDs {
		if p := r.posts[id]; p != nil && p.Kind == KindOrganizer && r.c.canRead(p, p.EffectiveStatus(r.now)) {
			ev.Organizers = append(ev.Organizers, Organizer{})
			r.fillOrganizer(&ev.Organizers[len(ev.Organizers)-1], p)
		}
	}
	return ev, nil
}

func (r *render) venue(p *PostRecord) *Venue {
	v := &Venue{}
	r.fillVenue(v, p)
	return v
}

// fillVenue sets *v to the view of p, in place (no copy of the large view).
func (r *render) fillVenue(v *Venue, p *PostRecord) {
	s := r.s
	*v = Venue{
		ID: p.ID, Status: p.EffectiveStatus(r.now), Author: p.Author,
		Date: p.Date.In(s.siteZone), Modified: p.Modified.In(s.siteZone),
		Version: p.Version, Slug: p.Slug, Lang: p.Title.LangOf(r.lang, p.Lang),
		Name: p.Title.Get(r.lang, p.Lang), Description: p.Description.Get(r.lang, p.Lang),
		Excerpt: p.Excerpt.Get(r.lang, p.Lang), Image: s.image(r.ctx, p.Image),
		Address: p.Address, City: p.City, Country: p.Country, Province: p.Province, State: p.State,
		Zip: p.Zip, Phone: p.Phone, Website: p.Website, StateProvince: p.StateProvince,
		GeoLat: cloneFloat(p.GeoLat), GeoLng: cloneFloat(p.GeoLng),
		ShowMap: orTrue(p.ShowMap), ShowMapLink: orTrue(p.ShowMapLink),
	}
}

func (r *render) organizer(p *PostRecord) *Organizer {
	o := &Organizer{}
	r.fillOrganizer(o, p)
	return o
}

// fillOrganizer sets *o to the view of p, in place.
func (r *render) fillOrganizer(o *Organizer, p *PostRecord) {
	s := r.s
	*o = Organizer{
		ID: p.ID, Status: p.EffectiveStatus(r.now), Author: p.Author,
		Date: p.Date.In(s.siteZone), Modified: p.Modified.In(s.siteZone),
		Version: p.Version, Slug: p.Slug, Lang: p.Title.LangOf(r.lang, p.Lang),
		Name: p.Title.Get(r.lang, p.Lang), Description: p.Description.Get(r.lang, p.Lang),
		Excerpt: p.Excerpt.Get(r.lang, p.Lang), Image: s.image(r.ctx, p.Image),
		Phone: p.Phone, Website: p.Website, Email: p.Email,
	}
}

// eventZone is the location of an event's stored zone (the site zone when
// none or, defensively, when the stored name no longer loads).
func (s *Service) eventZone(name string) *time.Location {
	if name == "" {
		return s.siteZone
	}
	loc, err := ParseZone(name) // cached by ParseZone
	if err != nil {
		return s.siteZone
	}
	return loc
}
