package webhooks

import (
	"context"
	"errors"
	"slices"

	"github.com/eventcal/eventcal/calendar"
)

// RecordMatcher decides subscription filters from the records stored in a
// calendar's repository, read as they are when the change is delivered:
//
//   - an event passes when it is in one of the filter's categories (or a
//     category below one of them), at one of its venues or with one of its
//     organizers — each list that is not empty must be met, as list
//     arguments combine;
//   - a venue, organizer or category passes when the filter does not name
//     records of its kind or names it (categories: or one below it);
//   - a tag always passes;
//   - a record that no longer exists passes, so mirrors learn of deletions.
//
// An occurrence of a recurring event is decided on its own record, which
// carries the series' links.
func RecordMatcher(repo calendar.Repository) Matcher {
	return MatcherFunc(func(ctx context.Context, f Filter, c Change) (bool, error) {
		switch c.Kind {
		case KindTag:
			return true, nil
		case KindCategory:
			if len(f.Categories) == 0 {
				return true, nil
			}
			return inCategories(ctx, repo, []int64{c.ID}, f.Categories)
		case KindVenue:
			return len(f.Venues) == 0 || slices.Contains(f.Venues, c.ID), nil
		case KindOrganizer:
			return len(f.Organizers) == 0 || slices.Contains(f.Organizers, c.ID), nil
		}
		p, err := repo.GetPost(ctx, c.ID)
		if errors.Is(err, calendar.ErrNotFound) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if len(f.Venues) > 0 && !slices.ContainsFunc(p.VenueIDs, func(id int64) bool { return slices.Contains(f.Venues, id) }) {
			return false, nil
		}
		if len(f.Organizers) > 0 && !slices.ContainsFunc(p.OrganizerIDs, func(id int64) bool { return slices.Contains(f.Organizers, id) }) {
			return false, nil
		}
		if len(f.Categories) > 0 {
			return inCategories(ctx, repo, p.CategoryIDs, f.Categories)
		}
		return true, nil
	})
}

// inCategories reports whether one of ids is one of want or lies below one
// of them, walking each category's parents (bounded, against a cycle a
// broken store might hold).
func inCategories(ctx context.Context, repo calendar.Repository, ids, want []int64) (bool, error) {
	for _, id := range ids {
		for depth := 0; id != 0 && depth < 64; depth++ {
			if slices.Contains(want, id) {
				return true, nil
			}
			t, err := repo.GetTerm(ctx, id)
			if errors.Is(err, calendar.ErrNotFound) {
				break
			}
			if err != nil {
				return false, err
			}
			id = t.Parent
		}
	}
	return false, nil
}
