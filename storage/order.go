package storage

import (
	"sort"

	"github.com/eventcal/eventcal/calendar"
)

// ComparePosts orders two posts of the same kind the way every list returns
// them: events by start ascending then id ascending; venues and organizers by
// publication date descending then id descending. It returns -1, 0 or +1.
func ComparePosts(a, b *calendar.PostRecord) int {
	if a.Kind == calendar.KindEvent {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return cmpID(a.ID, b.ID)
	}
	if c := b.Date.Compare(a.Date); c != 0 {
		return c
	}
	return cmpID(b.ID, a.ID)
}

func cmpID(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// SortPosts sorts posts in list order (see ComparePosts).
func SortPosts(ps []*calendar.PostRecord) {
	sort.Slice(ps, func(i, j int) bool { return ComparePosts(ps[i], ps[j]) < 0 })
}

// Window returns the slice of matches that q's Offset and Limit select.
func Window[T any](all []T, q *calendar.PostQuery) []T {
	if q.CountOnly {
		return nil
	}
	off := q.Offset
	if off < 0 {
		off = 0
	}
	if off >= len(all) {
		return nil
	}
	end := len(all)
	if q.Limit > 0 && off+q.Limit < end {
		end = off + q.Limit
	}
	return all[off:end]
}
