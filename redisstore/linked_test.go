package redisstore

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/eventcal/eventcal/calendar"
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
