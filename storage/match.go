package storage

import (
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// MatchPost reports whether post p satisfies every restriction of q. It is the
// single definition of a match: a driver may use indexes to find candidates,
// but each candidate is confirmed with MatchPost so that every driver answers
// every query identically.
func MatchPost(q *calendar.PostQuery, p *calendar.PostRecord) bool {
	if p.Kind != q.Kind {
		return false
	}
	if !q.Visible.Allows(p.Author, p.EffectiveStatus(q.Now)) {
		return false
	}
	if len(q.IDs) > 0 && !containsID(q.IDs, p.ID) {
		return false
	}
	if len(q.ExcludeIDs) > 0 && containsID(q.ExcludeIDs, p.ID) {
		return false
	}
	if p.Kind == calendar.KindEvent {
		if !q.Start.Contains(p.Start) || !q.End.Contains(p.End) {
			return false
		}
		if len(q.VenueIDs) > 0 && !intersects(q.VenueIDs, p.VenueIDs) {
			return false
		}
		if len(q.NotVenueIDs) > 0 && intersects(q.NotVenueIDs, p.VenueIDs) {
			return false
		}
		if len(q.OrganizerIDs) > 0 && !intersects(q.OrganizerIDs, p.OrganizerIDs) {
			return false
		}
		if len(q.CategoryIDs) > 0 && !intersects(q.CategoryIDs, p.CategoryIDs) {
			return false
		}
		if len(q.TagIDs) > 0 && !intersects(q.TagIDs, p.TagIDs) {
			return false
		}
		if q.Featured != nil && *q.Featured != p.Featured {
			return false
		}
		if q.PostParent != 0 && p.PostParent != q.PostParent {
			return false
		}
		if q.ExcludeHidden && p.HideFromListings {
			return false
		}
		if !seriesMatches(q.Series, p) {
			return false
		}
	}
	if q.Name != "" && !nameMatches(p.Title, q.Name) {
		return false
	}
	if len(q.Search) > 0 && !searchMatches(p.SearchText(q.Lang), q.Search) {
		return false
	}
	return true
}

// seriesMatches applies the restriction on recurring events: a series
// record is a post with a rule; an occurrence the rule made (and still owns)
// has a parent and a recurrence id and is not detached.
func seriesMatches(s calendar.StoredSeries, p *calendar.PostRecord) bool {
	switch s {
	case calendar.SeriesHideTemplates:
		return len(p.Recurrence) == 0
	case calendar.SeriesHideInstances:
		return p.PostParent == 0 || p.RecurrenceID.IsZero() || p.Detached
	}
	return true
}

func containsID(ids []int64, id int64) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

func intersects(want, have []int64) bool {
	for _, h := range have {
		if containsID(want, h) {
			return true
		}
	}
	return false
}

func nameMatches(t calendar.Text, name string) bool {
	key := calendar.NameKey(name)
	for _, s := range t {
		if calendar.NameKey(s) == key {
			return true
		}
	}
	return false
}

// searchMatches: every word (in calendar.FoldSearch form) appears in one of
// the fields, compared in that form; words may match different fields.
func searchMatches(fields []string, words []string) bool {
	lowered := make([]string, len(fields))
	for i, f := range fields {
		lowered[i] = calendar.FoldSearch(f)
	}
	for _, w := range words {
		found := false
		for _, f := range lowered {
			if strings.Contains(f, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
