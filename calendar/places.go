package calendar

import (
	"context"
	"fmt"
	"time"
)

// Venues and organizers ("places" here, for want of a better word) share
// their list arguments and their create, read and update flow.

// placeQuery is the shared shape of venue and organizer lists.
type placeQuery struct {
	Page             int
	PerPage          int
	Search           string
	Event            int64
	HasEvents        *bool
	OnlyWithUpcoming bool
	Status           []string
	Lang             Lang
}

type placeResult struct {
	recs                 []*PostRecord
	total, page, perPage int
	r                    *render
}

// listPlaces answers a venue or organizer list.
func (s *Service) listPlaces(ctx context.Context, kind Kind, q placeQuery) (*placeResult, error) {
	c := callerFrom(ctx)
	var v Validation
	lang, err := s.lang(q.Lang)
	if err != nil {
		return nil, err
	}
	page, perPage, offset := s.paging(&v, q.Page, q.PerPage)
	if s.listTooLong(&v, map[string]int{"status": len(splitList(q.Status))}) {
		return nil, v.Err()
	}
	now := s.now()
	pq := &PostQuery{Kind: kind, Now: now, Lang: lang, Search: searchWords(q.Search),
		Visible: postVisibility(c, &v, q.Status), Offset: offset, Limit: perPage}
	empty := false
	if q.Event < 0 {
		v.Add("event", "event must be a positive event id")
	} else if q.Event > 0 {
		evs, err := s.postsOfKind(ctx, &v, "event", KindEvent, []int64{q.Event})
		if err != nil {
			return nil, err
		}
		if len(evs) == 1 {
			if ev := evs[0]; !c.canRead(ev, ev.EffectiveStatus(now)) {
				v.Add("event", fmt.Sprintf("%d is not a valid event id", q.Event))
			} else if pq.IDs = uniqueIDs(ev.Links(kind)); len(pq.IDs) == 0 {
				empty = true
			}
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	r := s.newRender(ctx, c, lang, now)
	res := &placeResult{page: page, perPage: perPage, r: r}
	if empty {
		return res, s.emptyPage(kind, page, 0)
	}
	if q.HasEvents == nil && !q.OnlyWithUpcoming {
		got, err := s.repo.ListPosts(ctx, pq)
		if err != nil {
			return nil, s.storageErr(ctx, "list posts", err)
		}
		res.recs, res.total = got.Records, got.Total
		return res, s.emptyPage(kind, page, len(res.recs))
	}
	// Event-based filters: grouped counts over every candidate at once.
	all := *pq
	all.Offset, all.Limit = 0, 0
	got, err := s.repo.ListPosts(ctx, &all)
	if err != nil {
		return nil, s.storageErr(ctx, "list posts", err)
	}
	kept, err := s.placesWithEvents(ctx, c, kind, got.Records, q.HasEvents, q.OnlyWithUpcoming, now)
	if err != nil {
		return nil, err
	}
	res.total = len(kept)
	res.recs = window(kept, offset, perPage)
	return res, s.emptyPage(kind, page, len(res.recs))
}

// placesWithEvents keeps the venues or organizers of ps that pass has_events
// (true: linked to an event that is not a draft, pending or trashed; false:
// linked to no event at all) and only_with_upcoming (linked to an event c
// may see that has not ended), in order. Each filter is one grouped count
// over the places still kept.
func (s *Service) placesWithEvents(ctx context.Context, c caller, kind Kind, ps []*PostRecord, has *bool, upcoming bool, now time.Time) ([]*PostRecord, error) {
	keep := func(q *LinkCountQuery, pass func(n int) bool) error {
		if len(ps) == 0 {
			return nil
		}
		q.Link, q.Now = kind, now
		q.IDs = make([]int64, len(ps))
		for i, p := range ps {
			q.IDs[i] = p.ID
		}
		n, err := CountLinks(ctx, s.repo, q)
		if err != nil {
			return s.storageErr(ctx, "count linked events", err)
		}
		kept := ps[:0:0]
		for _, p := range ps {
			if pass(n[p.ID]) {
				kept = append(kept, p)
			}
		}
		ps = kept
		return nil
	}
	if has != nil {
		q := &LinkCountQuery{}
		if *has {
			q.Visible = Visibility{Statuses: []Status{StatusPublish, StatusFuture, StatusPrivate}}
		}
		if err := keep(q, func(n int) bool { return (n > 0) == *has }); err != nil {
			return nil, err
		}
	}
	if upcoming {
		q := &LinkCountQuery{Visible: postVisibility(c, nil, nil), Upcoming: true}
		if err := keep(q, func(n int) bool { return n > 0 }); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

// emptyPage is the error for an empty page past the first.
func (s *Service) emptyPage(kind Kind, page, n int) error {
	if n == 0 && page > 1 {
		return newError(CodeNotFound, codesOf(kind).archiveNotFound, "The requested page was not found.")
	}
	return nil
}

// window returns the page [offset, offset+limit) of all.
func window[T any](all []T, offset, limit int) []T {
	if offset >= len(all) {
		return nil
	}
	end := len(all)
	if limit > 0 && offset+limit < end {
		end = offset + limit
	}
	return all[offset:end]
}

// placeView is the renderer for a single venue or organizer read (the
// language was validated by the operation).
func (s *Service) placeView(ctx context.Context, lang Lang) *render {
	l, err := s.lang(lang)
	if err != nil {
		l = s.defaultLang
	}
	return s.newRender(ctx, callerFrom(ctx), l, s.now())
}

// createPlace creates a venue or organizer, reusing one of the same name.
func (s *Service) createPlace(ctx context.Context, kind Kind, common commonInput, apply func(*PostRecord, *Validation), opt WriteOptions) (*PostRecord, error) {
	c := callerFrom(ctx)
	if !c.canCreatePosts() {
		return nil, c.deny(fmt.Sprintf("Sorry, you are not allowed to create a %s.", kind))
	}
	lang, err := s.lang(opt.Lang)
	if err != nil {
		return nil, err
	}
	now := s.now()
	rec := &PostRecord{Kind: kind, Lang: lang, Author: s.authorOf(c)}
	var v Validation
	if err := s.applyCommon(ctx, c, &v, rec, common, lang, s.siteZone, now, true); err != nil {
		return nil, err
	}
	apply(rec, &v)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if opt.ValidateOnly {
		return nil, errValidated
	}
	// One atomic look-up-or-create in the store: an existing readable,
	// non-trashed record of that name is returned (compatibility).
	res, err := s.repo.Apply(ctx, &Write{Steps: []Step{s.ensureStep(c, rec, now)}})
	if err != nil {
		return nil, s.storageErr(ctx, "create post", err)
	}
	return res.Steps[0].Post, nil
}

// ensureStep is the write step that links the venue or organizer of rec's
// name that c may read and that is not trashed, or creates rec.
func (s *Service) ensureStep(c caller, rec *PostRecord, now time.Time) Step {
	vis := postVisibility(c, nil, nil)
	return Step{Op: OpEnsurePost, Post: rec, Visible: vis, Now: now}
}

// getPlace reads one venue or organizer the caller may see.
func (s *Service) getPlace(ctx context.Context, kind Kind, ref Ref, opt ReadOptions) (*PostRecord, error) {
	if _, err := s.lang(opt.Lang); err != nil {
		return nil, err
	}
	rec, err := s.findPost(ctx, kind, ref)
	if err != nil {
		return nil, err
	}
	if err := s.checkRead(callerFrom(ctx), rec, s.now(), opt.Password); err != nil {
		return nil, err
	}
	return rec, nil
}

// updatePlace applies a venue or organizer patch.
func (s *Service) updatePlace(ctx context.Context, kind Kind, ref Ref, common commonInput, apply func(*PostRecord, *Validation), opt WriteOptions) (*PostRecord, error) {
	lang, err := s.lang(opt.Lang)
	if err != nil {
		return nil, err
	}
	return s.updatePost(ctx, kind, ref, opt.IfVersion, func(c caller, rec *PostRecord) ([]Step, error) {
		var v Validation
		if err := s.applyCommon(ctx, c, &v, rec, common, lang, s.siteZone, s.now(), false); err != nil {
			return nil, err
		}
		apply(rec, &v)
		if err := v.Err(); err != nil || !opt.ValidateOnly {
			return nil, err
		}
		return nil, errValidated
	})
}
