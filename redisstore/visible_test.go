package redisstore

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// The Lua copy of the rule deciding which posts an OpEnsurePost may reuse
// (visibleLua, on metas) agrees with the Go rule — not trashed, and allowed
// by calendar.Visibility.Allows at PostRecord.EffectiveStatus — on random
// posts, visibilities and instants, ties on the second and the nanosecond
// included.
func TestVisibleLuaMatchesGo(t *testing.T) {
	c := singleClient(t)
	rng := rand.New(rand.NewPCG(5, 6))
	statuses := append([]calendar.Status{"odd"}, calendar.Statuses...)
	pick := func() []calendar.Status {
		var out []calendar.Status
		for _, s := range statuses {
			if rng.IntN(3) == 0 {
				out = append(out, s)
			}
		}
		return out
	}
	authors := []int64{0, 1, 2, 300, -5, 1 << 40, 1<<62 + 1}
	instant := func() time.Time {
		base := []time.Time{t0, time.Unix(0, 0), time.Date(1950, 6, 1, 0, 0, 0, 0, time.UTC), {}}[rng.IntN(4)]
		return base.Add(time.Duration(rng.IntN(3)-1) * time.Second).Add(time.Duration(rng.IntN(3)-1) * time.Nanosecond)
	}
	const n = 4000
	args := []any{n}
	want := make([]bool, n)
	ties := 0
	for i := range n {
		p := &calendar.PostRecord{Kind: calendar.KindVenue, Status: statuses[rng.IntN(len(statuses))],
			Author: authors[rng.IntN(len(authors))], Date: instant()}
		v := calendar.Visibility{Statuses: pick()}
		if rng.IntN(2) == 0 {
			v.Owner, v.OwnStatuses = authors[rng.IntN(len(authors))], pick()
		}
		now := instant()
		if rng.IntN(2) == 0 { // around the publication date: ties and near misses
			now = p.Date.Add([]time.Duration{-time.Second, -1, 0, 0, 1, time.Second}[rng.IntN(6)])
		}
		es := p.EffectiveStatus(now)
		want[i] = es != calendar.StatusTrash && v.Allows(p.Author, es)
		if p.Status == calendar.StatusFuture && p.Date.Equal(now) && v.Allows(p.Author, calendar.StatusPublish) != v.Allows(p.Author, calendar.StatusFuture) {
			ties++
		}
		args = append(args, encodeMeta(p))
		args = appendVisibility(args, v, now)
	}
	got, err := visibleTestScript.Run(context.Background(), c, []string{"{visible-test}"}, args...).Int64Slice()
	if err != nil {
		t.Fatal(err)
	}
	if ties < 20 {
		t.Errorf("only %d cases where a future post published at now matters", ties)
	}
	allowed := 0
	for i := range n {
		if (got[i] == 1) != want[i] {
			t.Fatalf("case %d: Lua says %v, Go says %v", i, got[i] == 1, want[i])
		}
		if want[i] {
			allowed++
		}
	}
	if allowed < n/10 || allowed > n*9/10 {
		t.Errorf("%d of %d cases allowed: the cases do not exercise both outcomes", allowed, n)
	}
}
