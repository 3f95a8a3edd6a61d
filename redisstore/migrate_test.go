package redisstore

import (
	"context"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// layout3 turns the calendar of s into what the layout-3 driver wrote: no
// link or author status sets, no multi-link sets, format "<encoding>.3".
func layout3(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	for _, pattern := range []string{"evs:*", "ev:au:*", "ev:multi:*"} {
		for _, k := range scanKeys(t, s.c, s.k.tag+pattern) {
			s.c.Del(ctx, k)
		}
	}
	s.c.Set(ctx, s.k.format(), formatOf(storage.FormatVersion, 3), 0)
}

// A calendar written by the layout-3 driver lists correctly: the first list
// that needs the new sets migrates it (to exactly the keys this driver
// writes), and a write migrates it too.
func TestMigrationFromLayout3(t *testing.T) {
	c := singleClient(t)
	ctx := context.Background()
	s := newTestStore(t, c)
	music := mustTerm(t, s, calendar.TaxonomyCategory, "music", 0)
	jazz := mustTerm(t, s, calendar.TaxonomyCategory, "jazz", music.ID)
	var all []*calendar.PostRecord
	for i := range 30 {
		p := event("e", t0.Add(time.Duration(i)*time.Hour))
		p.CategoryIDs = [][]int64{{music.ID}, {jazz.ID}, {music.ID, jazz.ID}}[i%3]
		if i%4 == 0 {
			p.Status, p.Author = calendar.StatusDraft, 2
		}
		all = append(all, mustCreate(t, s, p))
	}
	want := snapshotKeys(t, c, s)
	query := &calendar.PostQuery{Kind: calendar.KindEvent, Now: t0, CategoryIDs: []int64{music.ID, jazz.ID}, Limit: 5,
		Visible: calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}, Owner: 2, OwnStatuses: []calendar.Status{calendar.StatusDraft}}}
	total := 0
	for _, p := range all {
		if storage.MatchPost(query, p) {
			total++
		}
	}

	layout3(t, s)
	page := mustList(t, s, query)
	if page.Total != total || len(page.Records) != 5 {
		t.Fatalf("list of a layout-3 calendar: total %d, %d records; want %d, 5", page.Total, len(page.Records), total)
	}
	if d := snapshotKeysDiff(want, snapshotKeys(t, c, s)); d != "" {
		t.Fatalf("after the migration by a list: %s", d)
	}

	layout3(t, s)
	if _, err := s.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "t", Lang: "en", Name: calendar.Text{"en": "T"}}); err != nil {
		t.Fatalf("write on a layout-3 calendar: %v", err)
	}
	if got, _ := c.Get(ctx, s.k.format()).Result(); got != storeFormat {
		t.Fatalf("format after the migration by a write: %q", got)
	}
	if n := countMembers(t, c, s.k.tag+"evs:*"); n != 40 { // an entry per category link
		t.Fatalf("link status sets hold %d entries after the migration by a write", n)
	}
	checkConsistency(t, c, s)
}
