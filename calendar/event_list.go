package calendar

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// defaultWindowMonths is how far ahead the default event list looks.
const defaultWindowMonths = 24

// ListEvents returns one page of events. Without any date argument the list
// holds the events not yet ended that start within 24 months; include ignores
// every date filter.
func (s *Service) ListEvents(ctx context.Context, q EventQuery) (*EventPage, error) {
	c := callerFrom(ctx)
	lang, err := s.lang(q.Lang)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var v Validation
	page, perPage, offset := s.paging(&v, q.Page, q.PerPage)
	if s.listTooLong(&v, map[string]int{"categories": len(splitList(q.Categories)), "tags": len(splitList(q.Tags)),
		"venue": len(q.Venue), "organizer": len(q.Organizer), "include": len(q.Include), "status": len(splitList(q.Status))}) {
		return nil, v.Err()
	}
	pq := &PostQuery{Kind: KindEvent, Now: now, Lang: lang, Search: searchWords(q.Search),
		Visible: postVisibility(c, &v, q.Status), ExcludeHidden: true, Featured: q.Featured,
		Offset: offset, Limit: perPage, Series: SeriesHideTemplates}
	switch q.Series {
	case SeriesOccurrences, "":
	case SeriesRecords:
		pq.Series = SeriesHideInstances
	default:
		v.Add("series", `series must be "occurrences" or "series"`)
	}
	empty := false
	none := func(ids []int64) { empty = empty || len(ids) == 0 }

	if len(q.Include) > 0 {
		for _, id := range q.Include {
			if id <= 0 {
				v.Add("include", "include must hold positive event ids")
				break
			}
		}
		pq.IDs = uniqueIDs(q.Include)
	} else {
		s.dateFilters(&v, q, pq, now)
	}
	if q.Ticketed != nil && *q.Ticketed {
		v.AddDetail("ticketed", "event-tickets-not-active", "Ticketing is not available on this calendar.")
	}
	var err2 error
	if pq.CategoryIDs, err2 = s.categoryFilter(ctx, &v, q.Categories); err2 != nil {
		return nil, err2
	}
	if pq.TagIDs, err2 = s.termFilter(ctx, &v, "tags", TaxonomyTag, q.Tags); err2 != nil {
		return nil, err2
	}
	if len(q.Venue) > 0 {
		if _, err := s.postsOfKind(ctx, &v, "venue", KindVenue, q.Venue); err != nil {
			return nil, err
		}
		pq.VenueIDs = uniqueIDs(q.Venue)
	}
	if len(q.Organizer) > 0 {
		if _, err := s.postsOfKind(ctx, &v, "organizer", KindOrganizer, q.Organizer); err != nil {
			return nil, err
		}
		pq.OrganizerIDs = uniqueIDs(q.Organizer)
	}
	if q.PostParent < 0 {
		v.Add("post_parent", "post_parent must be a positive event id")
	} else if q.PostParent > 0 {
		if _, err := s.postsOfKind(ctx, &v, "post_parent", KindEvent, []int64{q.PostParent}); err != nil {
			return nil, err
		}
		pq.PostParent = q.PostParent
	}
	if err := s.geoFilter(ctx, &v, q, pq, &empty); err != nil {
		return nil, err
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if len(q.Categories) > 0 {
		none(pq.CategoryIDs)
	}
	if len(q.Tags) > 0 {
		none(pq.TagIDs)
	}
	out := &EventPage{Events: []Event{}, Page: page, PerPage: perPage}
	if empty || pq.Start.Empty() || pq.End.Empty() {
		return out, s.emptyPage(KindEvent, page, 0)
	}
	got, err := s.reads().ListPosts(ctx, pq) // records only rendered
	if err != nil {
		return nil, s.storageErr(ctx, "list events", err)
	}
	out.Total, out.TotalPages = got.Total, totalPages(got.Total, perPage)
	r := s.newRender(ctx, c, lang, now)
	if err := r.preload(got.Records); err != nil {
		return nil, err
	}
	out.Events = make([]Event, 0, len(got.Records))
	for _, rec := range got.Records {
		ev, err := r.event(rec, isProtected(c, rec, now))
		if err != nil {
			return nil, err
		}
		out.Events = append(out.Events, *ev)
	}
	return out, s.emptyPage(KindEvent, page, len(out.Events))
}

// dateFilters turns the date arguments into start/end ranges (wire §4).
func (s *Service) dateFilters(v *Validation, q EventQuery, pq *PostQuery, now time.Time) {
	loc := s.siteZone
	parse := func(arg, val string) (time.Time, bool) {
		if strings.TrimSpace(val) == "" {
			return time.Time{}, false
		}
		t, err := ParseDate(val, loc, now)
		if err != nil {
			v.Add(arg, err.Error())
			return time.Time{}, false
		}
		return t, true
	}
	round := func(t time.Time, toEnd bool) time.Time {
		switch {
		case q.StrictDates:
			return t
		case toEnd:
			return EndOfDay(t, loc)
		}
		return StartOfDay(t, loc)
	}
	given := false
	if t, ok := parse("start_date", q.StartDate); ok {
		given = true
		raiseFrom(&pq.Start, round(t, false), false)
	}
	if t, ok := parse("end_date", q.EndDate); ok {
		given = true
		lowerTo(&pq.End, round(t, true), false)
	}
	if t, ok := parse("starts_before", q.StartsBefore); ok {
		given = true
		lowerTo(&pq.Start, round(t, true), true)
	}
	if t, ok := parse("starts_after", q.StartsAfter); ok {
		given = true
		raiseFrom(&pq.Start, round(t, true), true)
	}
	if t, ok := parse("ends_before", q.EndsBefore); ok {
		given = true
		lowerTo(&pq.End, round(t, true), true)
	}
	if t, ok := parse("ends_after", q.EndsAfter); ok {
		given = true
		raiseFrom(&pq.End, round(t, true), true)
	}
	for _, a := range []string{"start_date", "end_date", "starts_before", "starts_after", "ends_before", "ends_after"} {
		if v.Has(a) {
			given = true
		}
	}
	if !given {
		pq.End = TimeRange{From: StartOfDay(now, loc)}
		pq.Start = TimeRange{To: now.In(loc).AddDate(0, defaultWindowMonths, 0)}
	}
}

// raiseFrom tightens the lower bound of r to t.
func raiseFrom(r *TimeRange, t time.Time, exclusive bool) {
	if r.From.IsZero() || t.After(r.From) || t.Equal(r.From) && exclusive {
		r.From, r.FromExclusive = t, exclusive
	}
}

// lowerTo tightens the upper bound of r to t.
func lowerTo(r *TimeRange, t time.Time, exclusive bool) {
	if r.To.IsZero() || t.Before(r.To) || t.Equal(r.To) && exclusive {
		r.To, r.ToExclusive = t, exclusive
	}
}

// categoryFilter resolves category filter values (ids or slugs) with every
// descendant category: in one call when the driver is a TermTreeReader,
// else with termFilter and withDescendants.
func (s *Service) categoryFilter(ctx context.Context, v *Validation, vals []string) ([]int64, error) {
	items := splitList(vals)
	tr, ok := s.repo.(TermTreeReader)
	if !ok || len(items) == 0 {
		ids, err := s.termFilter(ctx, v, "categories", TaxonomyCategory, vals)
		if err != nil || len(ids) == 0 {
			return ids, err
		}
		return s.withDescendants(ctx, ids)
	}
	ids, slugs := make([]int64, len(items)), make([]string, len(items))
	for i, item := range items {
		if id, err := strconv.ParseInt(item, 10, 64); err == nil {
			ids[i] = max(id, 0) // no term has an id ≤ 0 (termOf)
		} else {
			slugs[i] = NormalizeSlug(item)
		}
	}
	terms, tree, err := tr.TermsWithDescendants(ctx, TaxonomyCategory, ids, slugs)
	if err != nil {
		return nil, s.storageErr(ctx, "get categories", err)
	}
	for i, t := range terms {
		if t == nil {
			badTermRef(v, "categories", TaxonomyCategory, items[i])
		}
	}
	return tree, nil
}

// termFilter resolves category or tag filter values (ids or slugs).
func (s *Service) termFilter(ctx context.Context, v *Validation, arg string, tax Taxonomy, vals []string) ([]int64, error) {
	var ids []int64
	for _, item := range splitList(vals) {
		t, err := s.termByIDOrSlug(ctx, tax, item)
		if err != nil {
			return nil, err
		}
		if t == nil {
			badTermRef(v, arg, tax, item)
			continue
		}
		ids = append(ids, t.ID)
	}
	return uniqueIDs(ids), nil
}

// badTermRef refuses a filter value naming no term of tax.
func badTermRef(v *Validation, arg string, tax Taxonomy, item string) {
	v.Add(arg, fmt.Sprintf("%q is not a valid %s id or slug", item, tax.Kind()))
}

// withDescendants adds every descendant category of ids: a category filter
// matches the events of its sub-categories too, as WordPress's does.
// Category trees are small; the whole taxonomy is read once.
func (s *Service) withDescendants(ctx context.Context, ids []int64) ([]int64, error) {
	all, err := s.repo.ListTerms(ctx, TaxonomyCategory)
	if err != nil {
		return nil, s.storageErr(ctx, "list categories", err)
	}
	children := make(map[int64][]int64, len(all))
	for _, t := range all {
		if t.Parent != 0 {
			children[t.Parent] = append(children[t.Parent], t.ID)
		}
	}
	out := slices.Clone(ids)
	seen := make(map[int64]bool, len(all))
	for _, id := range ids {
		seen[id] = true
	}
	for i := 0; i < len(out); i++ { // out grows while walked: breadth first
		for _, c := range children[out[i]] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// termByIDOrSlug finds a term of the taxonomy by decimal id or slug; nil when none.
func (s *Service) termByIDOrSlug(ctx context.Context, tax Taxonomy, item string) (*TermRecord, error) {
	if id, err := strconv.ParseInt(item, 10, 64); err == nil {
		return s.termOf(ctx, tax, id)
	}
	return s.termWithSlug(ctx, tax, NormalizeSlug(item))
}

// geoFilter turns geoloc and geoloc_lat/lng/radius into venue id sets.
func (s *Service) geoFilter(ctx context.Context, v *Validation, q EventQuery, pq *PostQuery, empty *bool) error {
	if v.Has("geoloc_lat") || v.Has("geoloc_lng") {
		return nil // an undecodable coordinate already explains the refusal
	}
	near := q.GeolocLat != nil || q.GeolocLng != nil
	if q.Geoloc == nil && !near {
		if q.GeolocRadius != nil {
			v.Add("geoloc_radius", "geoloc_radius needs geoloc_lat and geoloc_lng")
		}
		return nil
	}
	var lat, lng, radius float64 = 0, 0, 25
	if near {
		if q.GeolocLat == nil {
			v.Add("geoloc_lat", "geoloc_lat is required with geoloc_lng")
		} else if lat = *q.GeolocLat; math.IsNaN(lat) || lat < -90 || lat > 90 {
			v.Add("geoloc_lat", "geoloc_lat must be between -90 and 90")
		}
		if q.GeolocLng == nil {
			v.Add("geoloc_lng", "geoloc_lng is required with geoloc_lat")
		} else if lng = *q.GeolocLng; math.IsNaN(lng) || lng < -180 || lng > 180 {
			v.Add("geoloc_lng", "geoloc_lng must be between -180 and 180")
		}
		if q.GeolocRadius != nil {
			if radius = *q.GeolocRadius; math.IsNaN(radius) || radius <= 0 || radius > 20100 {
				v.Add("geoloc_radius", "geoloc_radius must be a distance in km above 0")
			}
		}
	}
	if v.Has("geoloc_lat") || v.Has("geoloc_lng") || v.Has("geoloc_radius") {
		return nil
	}
	venues, err := s.repo.ListPosts(ctx, &PostQuery{Kind: KindVenue, Now: s.now()})
	if err != nil {
		return s.storageErr(ctx, "list venues", err)
	}
	var located, inRange []int64
	for _, p := range venues.Records {
		if !p.HasCoordinates() {
			continue
		}
		located = append(located, p.ID)
		if near && haversineKM(lat, lng, *p.GeoLat, *p.GeoLng) <= radius {
			inRange = append(inRange, p.ID)
		}
	}
	restrict := func(ids []int64) {
		if len(pq.VenueIDs) > 0 {
			ids = intersectIDs(pq.VenueIDs, ids)
		}
		pq.VenueIDs = ids
		if len(ids) == 0 {
			*empty = true
		}
	}
	if near {
		restrict(inRange)
	}
	if q.Geoloc != nil {
		if *q.Geoloc {
			restrict(located)
		} else if len(located) > 0 {
			pq.NotVenueIDs = located
		}
	}
	return nil
}

// listTooLong refuses every list argument holding more than maxItems items
// (n maps argument names to their counts) and reports whether one did: the
// list is then answered without any storage work.
func (s *Service) listTooLong(v *Validation, n map[string]int) bool {
	over := false
	for _, arg := range slices.Sorted(maps.Keys(n)) {
		over = s.tooMany(v, arg, n[arg]) || over
	}
	return over
}

// splitList flattens list arguments whose items may themselves be
// comma-separated, trimming items and dropping empty ones.
func splitList(vals []string) []string {
	var out []string
	for _, raw := range vals {
		for _, item := range strings.Split(raw, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

func intersectIDs(a, b []int64) []int64 {
	in := make(map[int64]bool, len(b))
	for _, id := range b {
		in[id] = true
	}
	var out []int64
	for _, id := range a {
		if in[id] {
			out = append(out, id)
		}
	}
	return out
}
