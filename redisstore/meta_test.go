package redisstore

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// Lists confirm candidates on metas: for every query without Search or Name,
// MatchPost must answer the same on a post's meta as on the post, and
// ComparePosts must order metas as it orders posts.
func TestMetaMatchesLikeRecord(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	ids := func() []int64 {
		out := make([]int64, rng.IntN(3))
		for i := range out {
			out[i] = int64(1 + rng.IntN(4))
		}
		return out
	}
	instant := func() time.Time {
		if rng.IntN(20) == 0 {
			return time.Time{}
		}
		return t0.Add(time.Duration(rng.Int64N(int64(400*time.Hour))) - 200*time.Hour)
	}
	var posts, metas []*calendar.PostRecord
	for i := range 300 {
		p := &calendar.PostRecord{ID: int64(i + 1), Kind: calendar.Kind(1 + rng.IntN(3)), Status: calendar.Statuses[rng.IntN(len(calendar.Statuses))],
			Author: int64(rng.IntN(3)), Date: instant(), Start: instant(), End: instant(), Featured: rng.IntN(2) == 0,
			HideFromListings: rng.IntN(3) == 0, PostParent: int64(rng.IntN(3)), VenueIDs: ids(), OrganizerIDs: ids(),
			CategoryIDs: ids(), TagIDs: ids(), Title: calendar.Text{"en": "x"}, Slug: "s"}
		switch rng.IntN(4) {
		case 0:
			p.Recurrence = []string{"RRULE:FREQ=WEEKLY", "EXDATE:20260105T190000Z"}
		case 1, 2:
			p.RecurrenceID, p.Detached = instant(), rng.IntN(2) == 0
		}
		m, err := decodeMeta(p.ID, string(encodeMeta(p)))
		if err != nil {
			t.Fatal(err)
		}
		posts, metas = append(posts, p), append(metas, m)
	}
	for i := range 2000 {
		q := &calendar.PostQuery{Kind: calendar.Kind(1 + rng.IntN(3)), Now: instant(), VenueIDs: ids(), NotVenueIDs: ids(),
			OrganizerIDs: ids(), CategoryIDs: ids(), TagIDs: ids(), PostParent: int64(rng.IntN(3)), ExcludeHidden: rng.IntN(2) == 0,
			IDs: ids(), ExcludeIDs: ids(), Series: calendar.StoredSeries(rng.IntN(3))}
		if rng.IntN(2) == 0 {
			q.Start = calendar.TimeRange{From: instant(), To: instant(), FromExclusive: rng.IntN(2) == 0}
		}
		if rng.IntN(2) == 0 {
			q.End = calendar.TimeRange{From: instant(), ToExclusive: rng.IntN(2) == 0}
		}
		if rng.IntN(2) == 0 {
			f := rng.IntN(2) == 0
			q.Featured = &f
		}
		if rng.IntN(2) == 0 {
			q.Visible = calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}, Owner: 1,
				OwnStatuses: []calendar.Status{calendar.Statuses[rng.IntN(len(calendar.Statuses))]}}
		}
		for j, p := range posts {
			if storage.MatchPost(q, p) != storage.MatchPost(q, metas[j]) {
				t.Fatalf("query %d, post %d: MatchPost differs on the meta", i, p.ID)
			}
		}
	}
	// sortHits orders like storage.SortPosts, ties on the instant included.
	for kind := calendar.KindEvent; kind <= calendar.KindOrganizer; kind++ {
		var want []*calendar.PostRecord
		var hits []hit
		for _, p := range posts {
			if p.Kind == kind {
				p := p.Clone()
				p.Start, p.Date = p.Start.Truncate(50*time.Hour), p.Date.Truncate(50*time.Hour) // many ties
				want = append(want, p)
				hits = append(hits, hitOf(p))
			}
		}
		storage.SortPosts(want)
		sortHits(kind, hits)
		for i := range want {
			if hits[i].id != want[i].ID {
				t.Fatalf("kind %v: position %d holds %d, ComparePosts puts %d there", kind, i, hits[i].id, want[i].ID)
			}
		}
	}
	good := string(encodeMeta(posts[0]))
	for _, bad := range []string{"", "\x02", string(metaTag), good[:10], good + "\x00", good[:len(good)-1] + "\xff"} {
		if _, err := decodeMeta(1, bad); err == nil {
			t.Errorf("decodeMeta(%v) accepted corrupt input", bad)
		}
	}
}
