package redisstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// The window path's work in Lua is bounded by the page, not by the matches:
// a category list, a list of several tags, a term count and an author's list
// of their own drafts are answered by counts on the link and author status
// sets, with a budget far below the number of matching events. Before those
// sets, each of these decided every match on its meta and gave up here.
func TestWindowWorkBoundedByPage(t *testing.T) {
	c := singleClient(t)
	ctx := context.Background()
	s := newTestStore(t, c)
	s.windowBudget = 40
	cat := mustTerm(t, s, calendar.TaxonomyCategory, "music", 0)
	child := mustTerm(t, s, calendar.TaxonomyCategory, "jazz", cat.ID)
	tags := []int64{mustTerm(t, s, calendar.TaxonomyTag, "a", 0).ID, mustTerm(t, s, calendar.TaxonomyTag, "b", 0).ID}
	var all []*calendar.PostRecord
	for i := range 240 {
		p := event(fmt.Sprint("e", i), t0.Add(time.Duration(i)*7*time.Hour))
		p.CategoryIDs = []int64{[]int64{cat.ID, child.ID}[i%2]}
		p.TagIDs = []int64{tags[i%2]}
		if i%40 == 0 {
			p.TagIDs = tags // a few events in both tags
		}
		p.Author = int64(1 + i%3)
		switch {
		case i%5 == 1:
			p.Status = calendar.StatusDraft
		case i%20 == 3: // few: stored future events are decided one by one
			p.Status = calendar.StatusFuture
			p.Date = t0.AddDate(1, 0, 0)
		}
		all = append(all, mustCreate(t, s, p))
	}
	now := t0.AddDate(0, 1, 0)
	visitor := calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}
	author := calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}, Owner: 2,
		OwnStatuses: []calendar.Status{calendar.StatusFuture, calendar.StatusDraft, calendar.StatusPending, calendar.StatusPrivate}}
	queries := map[string]calendar.PostQuery{
		"category and child": {Visible: visitor, CategoryIDs: []int64{cat.ID, child.ID}, End: calendar.TimeRange{From: now}, Limit: 9,
			ExcludeHidden: true, Series: calendar.SeriesHideTemplates},
		"two tags, page 2": {Visible: visitor, TagIDs: tags, Offset: 9, Limit: 9},
		"term count":       {Visible: visitor, CategoryIDs: []int64{child.ID}, CountOnly: true},
		"own drafts":       {Visible: author, End: calendar.TimeRange{From: now}, Limit: 9, ExcludeHidden: true},
		"own, by category": {Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish, calendar.StatusFuture}}, CategoryIDs: []int64{cat.ID}, Limit: 20},
	}
	for name, q := range queries {
		q.Kind, q.Now = calendar.KindEvent, now
		page, _, err := s.firstTrip(ctx, &q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if page == nil {
			t.Fatalf("%s: the window path gave up within a budget of %d", name, s.windowBudget)
		}
		var want []*calendar.PostRecord
		for _, p := range all {
			if storage.MatchPost(&q, p) {
				want = append(want, p)
			}
		}
		storage.SortPosts(want)
		if len(want) <= s.windowBudget {
			t.Fatalf("%s: %d matches, not more than the budget: the test proves nothing", name, len(want))
		}
		if got, wantIDs := postIDs(page.Records), postIDs(storage.Window(want, &q)); page.Total != len(want) || fmt.Sprint(got) != fmt.Sprint(wantIDs) {
			t.Fatalf("%s: total %d ids %v, want %d %v", name, page.Total, got, len(want), wantIDs)
		}
	}
}

// An offset or limit beyond what Lua numbers hold takes the candidate path:
// the Repository contract lets any caller ask it, and the packed arguments
// of the window path cannot carry it.
func TestWindowHugeOffsetFallsBack(t *testing.T) {
	c := singleClient(t)
	ctx := context.Background()
	s := newTestStore(t, c)
	for i := range 3 {
		mustCreate(t, s, event(fmt.Sprint("e", i), t0.Add(time.Duration(i)*time.Hour)))
	}
	for _, q := range []calendar.PostQuery{
		{Kind: calendar.KindEvent, Offset: 1 << 60, Limit: 9},
		{Kind: calendar.KindEvent, Limit: 1 << 60},
	} {
		if _, _, ok := s.windowArgs(&q, 1); ok {
			t.Errorf("offset %d, limit %d: window path taken", q.Offset, q.Limit)
		}
		page, err := s.ListPosts(ctx, &q)
		if err != nil {
			t.Fatalf("offset %d, limit %d: %v", q.Offset, q.Limit, err)
		}
		want := 3
		if q.Offset > 0 {
			want = 0
		}
		if page.Total != 3 || len(page.Records) != want {
			t.Errorf("offset %d, limit %d: total %d, %d records; want 3 and %d", q.Offset, q.Limit, page.Total, len(page.Records), want)
		}
	}
}
