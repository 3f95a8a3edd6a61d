package memstore

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// TestSumTreeAgainstBruteForce drives postLists with blocks of a few
// entries through random inserts, replacements (status, author, hidden,
// series, End and publication date changing) and removals, and checks
// every tree node against the blocks below it and the totals of random
// queries (Start and End windows, Now before, among and after scheduled
// posts, every kind of caller) against a scan of the entries.
func TestSumTreeAgainstBruteForce(t *testing.T) {
	for _, bm := range []int{2, 5, 16} {
		restore := SetBlockMax(bm)
		sumTreeRandom(t, rand.New(rand.NewPCG(uint64(bm), 21)))
		restore()
	}
}

func sumTreeRandom(t *testing.T, rng *rand.Rand) {
	t.Helper()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func() time.Time { return base.Add(time.Duration(rng.IntN(300)) * time.Hour) }
	statuses := append(keyStatuses[:], "odd")
	record := func(id int64, start time.Time) *calendar.PostRecord {
		p := &calendar.PostRecord{ID: id, Kind: calendar.KindEvent, Start: start, Author: int64(1 + rng.IntN(3)),
			Status: statuses[rng.IntN(len(statuses)-1)], Date: at(), HideFromListings: rng.IntN(5) == 0}
		if rng.IntN(50) == 0 {
			p.Status = statuses[len(statuses)-1] // a status without a slot
		}
		p.End = start.Add(time.Duration(rng.IntN(20)) * time.Hour)
		if rng.IntN(20) == 0 {
			p.End = start.Add(-time.Hour) // an odd end
		}
		if rng.IntN(6) == 0 {
			p.Recurrence = []string{"FREQ=DAILY"}
		}
		return p
	}
	callers := []calendar.Visibility{
		{},
		{Statuses: []calendar.Status{calendar.StatusPublish}},
		{Statuses: []calendar.Status{calendar.StatusPublish}, Owner: 2,
			OwnStatuses: []calendar.Status{calendar.StatusDraft, calendar.StatusPending, calendar.StatusFuture, calendar.StatusPrivate}},
		{Statuses: []calendar.Status{calendar.StatusPublish, calendar.StatusPrivate, calendar.StatusFuture}},
	}
	var (
		l   postList
		ref []*calendar.PostRecord
	)
	check := func(step int) {
		t.Helper()
		checkTree(t, step, &l)
		for range 30 {
			q := &calendar.PostQuery{Kind: calendar.KindEvent, Visible: callers[rng.IntN(len(callers))], Now: at(),
				ExcludeHidden: rng.IntN(2) == 0}
			if rng.IntN(2) == 0 {
				q.Series = calendar.SeriesHideTemplates
			}
			r := calendar.TimeRange{From: at(), To: at(), FromExclusive: rng.IntN(2) == 0, ToExclusive: rng.IntN(2) == 0}
			switch rng.IntN(3) {
			case 0:
				r.From = time.Time{}
			case 1:
				r.To = time.Time{}
			}
			q.Start = r
			q.End = calendar.TimeRange{From: at(), To: at()}
			switch rng.IntN(4) {
			case 0:
				q.End = calendar.TimeRange{}
			case 1:
				q.End.To = time.Time{}
			case 2:
				q.End.From = time.Time{}
			}
			want := 0
			for _, p := range ref {
				if storage.MatchPost(q, p) {
					want++
				}
			}
			if got := l.count(r, q); got != want {
				t.Fatalf("step %d: count(%+v, %+v) = %d, want %d", step, r, q, got, want)
			}
		}
	}
	walkPostList(rng, &l, &ref, 3000, 100, 50, at, record, check)
}

// checkTree checks that every node of l's tree counts exactly the entries
// of the blocks below it and that its spans cover theirs, and that
// entriesBefore is the rank of each block's first entry.
func checkTree(t *testing.T, step int, l *postList) {
	t.Helper()
	tr := &l.tree
	if len(l.blocks) > tr.leaves {
		t.Fatalf("step %d: %d blocks under %d leaves", step, len(l.blocks), tr.leaves)
	}
	rank := 0
	for b := range l.blocks {
		if got := tr.entriesBefore(b); got != rank {
			t.Fatalf("step %d: entriesBefore(%d) = %d, want %d", step, b, got, rank)
		}
		rank += len(l.blocks[b])
	}
	for k := 1; k < 2*tr.leaves && len(l.blocks) > 0; k++ {
		lo, hi := k, k+1 // the leaves under k
		for lo < tr.leaves {
			lo, hi = 2*lo, 2*hi
		}
		var want blockSum
		for b := lo - tr.leaves; b < hi-tr.leaves && b < len(l.blocks); b++ {
			for _, p := range l.blocks[b] {
				want.addCounts(p)
			}
		}
		n := &tr.nodes[k]
		if n.entries != want.entries || n.futures != want.futures || n.odd != want.odd || n.byStatus != want.byStatus {
			t.Fatalf("step %d: node %d counts %d entries %v, want %d %v", step, k, n.entries, n.byStatus, want.entries, want.byStatus)
		}
		if want.entries > 0 && (n.minEnd.After(want.minEnd) || n.maxEnd.Before(want.maxEnd)) {
			t.Fatalf("step %d: node %d End span does not cover its entries'", step, k)
		}
		if want.futures > 0 && (n.minFut.After(want.minFut) || n.maxFut.Before(want.maxFut)) {
			t.Fatalf("step %d: node %d publication span does not cover its scheduled entries'", step, k)
		}
	}
}
