package redisstore

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// A category filter answered through TermsWithDescendants (one round trip)
// equals the one answered with TermBySlug, GetTerm and the ListTerms walk
// (the calendar's fallback, on the same store with its extensions hidden):
// same pages, same refusals, on a tree several levels deep with a
// re-parented branch, a deleted category, tags and bad values among the
// items. On single node and Cluster.
func TestTermTreeMatchesListTermsWalk(t *testing.T) {
	t.Run("single", func(t *testing.T) { testTermTree(t, singleClient(t)) })
	t.Run("cluster", func(t *testing.T) { testTermTree(t, clusterClient(t)) })
}

func testTermTree(t *testing.T, c redis.UniversalClient) {
	s := newTestStore(t, c)
	fast, slow := calendar.New(s), calendar.New(struct{ calendar.Repository }{s})
	rng := rand.New(rand.NewPCG(5, 6))
	var cats []*calendar.Term
	for i := range 14 {
		in := calendar.TermInput{Name: calendar.Some(fmt.Sprint("Cat ", i))}
		if i > 0 && rng.IntN(4) > 0 {
			in.Parent = calendar.Some(cats[rng.IntN(len(cats))].ID)
		}
		ct, err := fast.CreateTerm(system, calendar.TaxonomyCategory, in, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cats = append(cats, ct)
	}
	// A branch moves under another, and a category with children goes.
	if _, err := fast.UpdateTerm(system, calendar.TaxonomyCategory, cats[5].ID,
		calendar.TermInput{Parent: calendar.Some(cats[12].ID)}, calendar.WriteOptions{}); err != nil {
		t.Log("re-parent:", err) // may be refused as a cycle: still a tree
	}
	if _, err := fast.DeleteTerm(system, calendar.TaxonomyCategory, cats[3].ID, calendar.DeleteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	tag, err := fast.CreateTerm(system, calendar.TaxonomyTag, calendar.TermInput{Name: calendar.Some("A tag")}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := t0
	for i := range 30 {
		_, err := fast.CreateEvent(system, calendar.EventInput{
			Title:      calendar.Some(fmt.Sprint("Event ", i)),
			StartDate:  calendar.Some(start.Add(time.Duration(i) * time.Hour).Format(time.DateTime)),
			EndDate:    calendar.Some(start.Add(time.Duration(i+1) * time.Hour).Format(time.DateTime)),
			Categories: calendar.Some([]calendar.TermRef{{ID: cats[rng.IntN(len(cats)-4)+4].ID}}),
		}, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
	}
	items := []string{"0", "-3", "999999", "no-such-slug", strconv.FormatInt(tag.ID, 10), tag.Slug, "Cat 1"}
	for _, ct := range cats {
		items = append(items, strconv.FormatInt(ct.ID, 10), ct.Slug)
	}
	answer := func(cal *calendar.Service, q calendar.EventQuery) string {
		p, err := cal.ListEvents(system, q)
		if err != nil {
			return "error: " + err.Error()
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	fixed := [][]string{{items[4]}, {items[5]}, {items[0]}, {items[1]}, {cats[0].Slug}, {cats[3].Slug}}
	for i := range 60 + len(fixed) {
		var vals []string
		for range 1 + rng.IntN(3) {
			vals = append(vals, items[rng.IntN(len(items))])
		}
		if rng.IntN(3) == 0 {
			vals = []string{vals[0] + "," + items[rng.IntN(len(items))]}
		}
		if i < len(fixed) {
			vals = fixed[i]
		}
		q := calendar.EventQuery{Categories: vals, StartDate: start.Format(time.DateOnly), PerPage: 50}
		if got, want := answer(fast, q), answer(slow, q); got != want {
			t.Errorf("categories %q:\n got %.300s\nwant %.300s", vals, got, want)
		}
	}
}
