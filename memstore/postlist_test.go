package memstore

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// TestPostListAgainstSortedSlice drives a postList across many block splits
// and merges with random inserts, replacements and removals, and checks its
// order and every Start window against a plain sorted slice.
func TestPostListAgainstSortedSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	hour := func() time.Time { return base.Add(time.Duration(rng.IntN(2000)) * time.Hour) } // many equal starts
	var (
		l   postList
		ref []*calendar.PostRecord
	)
	check := func(step int) {
		t.Helper()
		got := l.records()
		if l.n != len(ref) || !slices.Equal(got, ref) {
			t.Fatalf("step %d: list holds %d entries (n=%d), want %d in order", step, len(got), l.n, len(ref))
		}
		for _, blk := range l.blocks {
			if len(blk) == 0 || len(blk) > blockMax {
				t.Fatalf("step %d: block of %d entries", step, len(blk))
			}
		}
		for i := 0; i < 20; i++ {
			r := calendar.TimeRange{From: hour(), To: hour(), FromExclusive: rng.IntN(2) == 0, ToExclusive: rng.IntN(2) == 0}
			switch rng.IntN(4) {
			case 0:
				r.From = time.Time{}
			case 1:
				r.To = time.Time{}
			}
			var want []*calendar.PostRecord
			for _, p := range ref {
				if r.Contains(p.Start) {
					want = append(want, p)
				}
			}
			sp := l.startRange(r)
			n := sp.size()
			var have []*calendar.PostRecord
			sp.parts(func(part []*calendar.PostRecord) bool {
				have = append(have, part...)
				return true
			})
			if n != len(want) || !slices.Equal(have, want) {
				t.Fatalf("step %d: startRange %v returned %d (n=%d), want %d", step, r, len(have), n, len(want))
			}
		}
	}
	same := func(id int64, start time.Time) *calendar.PostRecord {
		return &calendar.PostRecord{ID: id, Kind: calendar.KindEvent, Start: start, Title: calendar.Text{"en": "new"}}
	}
	// Blocks must all go once drained: checked at size 0 only.
	walkPostList(rng, &l, &ref, 20000, 2000, math.MaxInt, hour, same, check)
	if len(l.blocks) != 0 {
		t.Errorf("%d blocks left in an empty list", len(l.blocks))
	}
}

// walkPostList drives l through steps random operations — inserts of
// record(new id, at()) (6 in 10, and whenever l is empty), replacements of
// an entry by record(its id, its Start) (2 in 10) and removals — then
// removes every entry, keeping ref, the model, in list order. check runs
// after every checkEvery-th step with the step, and while draining with
// minus the model's size whenever that is a multiple of drainEvery.
func walkPostList(rng *rand.Rand, l *postList, ref *[]*calendar.PostRecord, steps, checkEvery, drainEvery int,
	at func() time.Time, record func(id int64, start time.Time) *calendar.PostRecord, check func(step int)) {
	var next int64
	for step := range steps {
		switch op := rng.IntN(10); {
		case op < 6 || len(*ref) == 0:
			next++
			p := record(next, at())
			l.insert(p)
			i, _ := slices.BinarySearchFunc(*ref, p, storage.ComparePosts)
			*ref = slices.Insert(*ref, i, p)
		case op < 8:
			old := (*ref)[rng.IntN(len(*ref))]
			p := record(old.ID, old.Start)
			l.insert(p)
			i, _ := slices.BinarySearchFunc(*ref, p, storage.ComparePosts)
			(*ref)[i] = p
		default:
			i := rng.IntN(len(*ref))
			l.remove((*ref)[i])
			*ref = slices.Delete(*ref, i, i+1)
		}
		if step%checkEvery == checkEvery-1 {
			check(step)
		}
	}
	for len(*ref) > 0 {
		i := rng.IntN(len(*ref))
		l.remove((*ref)[i])
		*ref = slices.Delete(*ref, i, i+1)
		if len(*ref)%drainEvery == 0 {
			check(-len(*ref))
		}
	}
}
