package storagetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// TripCounter is implemented by a driver's benchmark wrapper that counts
// its round trips to a server; BenchSeries then reports trips/op.
type TripCounter interface {
	Trips() int64
}

// seriesSize is the daily series of the measurement: two years.
const seriesSize = 730

// dailySeries returns one Write creating a daily series of n occurrences.
func dailySeries(slug string, start time.Time, n int) *calendar.Write {
	s := newEvent(slug, start)
	s.Recurrence = []string{fmt.Sprintf("RRULE:FREQ=DAILY;COUNT=%d", n)}
	steps := []calendar.Step{{Op: calendar.OpCreatePost, Post: s}}
	for i := range n {
		steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: occurrence(s, calendar.StepRef(0), start.AddDate(0, 0, i))})
	}
	return &calendar.Write{Steps: steps}
}

// BenchSeries measures series writes and reads on a repository of a few
// thousand events: Create730 (a daily series of 730 occurrences in one
// Apply), Recompute730 (its start moved an hour: the series and every
// occurrence updated in one Apply) and ListWindowInSeries (a public page of
// 9 in a one-week window inside a 730-occurrence series, series records
// hidden).
func BenchSeries(b *testing.B, newRepo Factory) {
	ctx := context.Background()
	r := newRepo(b)
	seedBench(b, r, 2_000)
	trips := func(b *testing.B, before int64) {
		if tc, ok := r.(TripCounter); ok {
			b.ReportMetric(float64(tc.Trips()-before)/float64(b.N), "trips/op")
		}
	}
	count := func() int64 {
		if tc, ok := r.(TripCounter); ok {
			return tc.Trips()
		}
		return 0
	}
	made := 0
	b.Run("Create730", func(b *testing.B) {
		before := count()
		for b.Loop() {
			made++
			if _, err := r.Apply(ctx, dailySeries(fmt.Sprint("daily-", made), benchBase, seriesSize)); err != nil {
				b.Fatal(err)
			}
		}
		trips(b, before)
	})
	res, err := r.Apply(ctx, dailySeries("big", benchBase, seriesSize))
	if err != nil {
		b.Fatal(err)
	}
	series := res.Steps[0].Post
	b.Run("Recompute730", func(b *testing.B) {
		before := count()
		for b.Loop() {
			cur, err := r.GetPost(ctx, series.ID)
			if err != nil {
				b.Fatal(err)
			}
			kids, err := r.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, PostParent: series.ID})
			if err != nil {
				b.Fatal(err)
			}
			cur.Start, cur.End = cur.Start.Add(time.Hour), cur.End.Add(time.Hour)
			steps := []calendar.Step{{Op: calendar.OpUpdatePost, Post: cur}}
			for _, o := range kids.Records {
				o.Start, o.End = o.Start.Add(time.Hour), o.End.Add(time.Hour)
				steps = append(steps, calendar.Step{Op: calendar.OpUpdatePost, Post: o})
			}
			if _, err := r.Apply(ctx, &calendar.Write{Steps: steps}); err != nil {
				b.Fatal(err)
			}
		}
		trips(b, before)
	})
	from := benchBase.AddDate(0, 5, 3)
	q := publicPage()
	q.Series = calendar.SeriesHideTemplates
	q.PostParent = series.ID
	q.Start = calendar.TimeRange{From: from, To: from.AddDate(0, 0, 7), ToExclusive: true}
	b.Run("ListWindowInSeries", func(b *testing.B) {
		before := count()
		for b.Loop() {
			p, err := r.ListPosts(ctx, &q)
			if err != nil {
				b.Fatal(err)
			}
			if p.Total != 7 {
				b.Fatalf("total %d, want 7", p.Total)
			}
		}
		trips(b, before)
	})
}
