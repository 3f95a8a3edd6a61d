package redisstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// GetLinked returns what GetPosts and GetTerms return for the same ids —
// missing ids skipped, the order and repeats of the ids kept — including
// across the fetch batch, and on an empty side.
func TestGetLinkedEqualsGetPostsAndGetTerms(t *testing.T) {
	ctx := context.Background()
	c := singleClient(t)
	prefix := testPrefix(t, c)
	s, err := New(c, WithPrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	small, err := New(c, WithPrefix(prefix), WithFetchBatch(3))
	if err != nil {
		t.Fatal(err)
	}
	var postIDs, termIDs []int64
	for i := range 5 {
		v := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0,
			Slug: fmt.Sprint("v", i), Lang: "en", Title: calendar.Text{"en": fmt.Sprint("Hall ", i)}})
		postIDs = append(postIDs, v.ID)
		termIDs = append(termIDs, mustTerm(t, s, calendar.TaxonomyTag, fmt.Sprint("t", i), 0).ID)
	}
	postIDs = append([]int64{postIDs[3], 999999, termIDs[0]}, postIDs...) // a term id names no post
	termIDs = append(termIDs, termIDs[1], 888888, postIDs[4])
	for _, st := range []*Store{s, small} {
		for _, ids := range [][2][]int64{{postIDs, termIDs}, {postIDs, nil}, {nil, termIDs}, {nil, nil}} {
			ps, ts, err := st.GetLinked(ctx, ids[0], ids[1])
			if err != nil {
				t.Fatal(err)
			}
			wantP, err := st.GetPosts(ctx, ids[0])
			if err != nil {
				t.Fatal(err)
			}
			wantT, err := st.GetTerms(ctx, ids[1])
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ps, wantP) || !reflect.DeepEqual(ts, wantT) {
				t.Errorf("GetLinked(%v, %v) = %d posts, %d terms; GetPosts, GetTerms: %d, %d",
					ids[0], ids[1], len(ps), len(ts), len(wantP), len(wantT))
			}
		}
	}
}

// The records GetPostLinked finds on a post's meta in Lua (linkedOf) are
// those the post's own link ids name, read with GetLinked, and the post is
// the one GetPost returns. On single node and Cluster.
func TestLinkedInScriptsMatchGetLinked(t *testing.T) {
	t.Run("single", func(t *testing.T) { testLinkedInScripts(t, singleClient(t)) })
	t.Run("cluster", func(t *testing.T) { testLinkedInScripts(t, clusterClient(t)) })
}

func testLinkedInScripts(t *testing.T, c redis.UniversalClient) {
	ctx := context.Background()
	s := newTestStore(t, c)
	rng := rand.New(rand.NewPCG(3, 4))
	var venues, orgs, cats, tags []int64
	for i := range 4 {
		v := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "v"})
		o := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindOrganizer, Status: calendar.StatusPublish, Date: t0, Slug: "o"})
		venues, orgs = append(venues, v.ID), append(orgs, o.ID)
		cats = append(cats, mustTerm(t, s, calendar.TaxonomyCategory, fmt.Sprint("c", i), 0).ID)
		tags = append(tags, mustTerm(t, s, calendar.TaxonomyTag, fmt.Sprint("t", i), 0).ID)
	}
	var events []*calendar.PostRecord
	for i := range 40 {
		p := event(fmt.Sprint("e", i), t0.Add(time.Duration(rng.IntN(20))*time.Hour))
		p.VenueIDs, p.OrganizerIDs = someOf(rng, venues), someOf(rng, orgs)
		p.CategoryIDs, p.TagIDs = someOf(rng, cats), someOf(rng, tags)
		events = append(events, mustCreate(t, s, p))
	}
	byID := func(l *linkedRecords) ([]int64, []int64) {
		return slices.Sorted(slices.Values(postIDs(l.posts))), slices.Sorted(slices.Values(termIDsOf(l.terms)))
	}
	check := func(name string, gotP []*calendar.PostRecord, gotT []*calendar.TermRecord, of []*calendar.PostRecord) {
		t.Helper()
		want, err := s.linkedOf(ctx, of)
		if err != nil {
			t.Fatal(err)
		}
		wp, wt := byID(want)
		gp, gt := byID(&linkedRecords{gotP, gotT})
		if !slices.Equal(gp, wp) || !slices.Equal(gt, wt) || len(gotP) != len(wp) || len(gotT) != len(wt) {
			t.Errorf("%s: linked posts %v terms %v, want %v %v", name, postIDs(gotP), termIDsOf(gotT), wp, wt)
		}
	}
	for _, id := range append(postIDs(events), venues[1]) {
		p, ps, ts, err := s.GetPostLinked(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.GetPost(ctx, id)
		if err != nil || !reflect.DeepEqual(p, want) {
			t.Errorf("GetPostLinked(%d) = %+v, GetPost %+v (%v)", id, p, want, err)
		}
		check(fmt.Sprint("post ", id), ps, ts, []*calendar.PostRecord{p})
	}
	if _, _, _, err := s.GetPostLinked(ctx, 987654); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("GetPostLinked of a missing post: %v", err)
	}
}
