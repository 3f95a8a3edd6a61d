package calendar_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// calls counts the reads of a Repository without LinkedReader.
type calls struct {
	calendar.Repository
	posts, terms int
}

func (c *calls) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	c.posts++
	return c.Repository.GetPosts(ctx, ids)
}

func (c *calls) GetTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
	c.terms++
	return c.Repository.GetTerms(ctx, ids)
}

// Without LinkedReader, GetLinked is GetPosts and GetTerms, each made only
// when it has ids.
func TestGetLinkedFallback(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	v, err := st.CreatePost(ctx, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Slug: "hall",
		Lang: "en", Title: calendar.Text{"en": "Hall"}})
	if err != nil {
		t.Fatal(err)
	}
	tag, err := st.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "live", Lang: "en", Name: calendar.Text{"en": "Live"}})
	if err != nil {
		t.Fatal(err)
	}
	repo := &calls{Repository: st}
	ps, ts, err := calendar.GetLinked(ctx, repo, []int64{v.ID, 999, v.ID}, []int64{tag.ID, 998})
	if err != nil {
		t.Fatal(err)
	}
	wantP, _ := st.GetPosts(ctx, []int64{v.ID, 999, v.ID})
	wantT, _ := st.GetTerms(ctx, []int64{tag.ID, 998})
	if !reflect.DeepEqual(ps, wantP) || !reflect.DeepEqual(ts, wantT) || repo.posts != 1 || repo.terms != 1 {
		t.Fatalf("GetLinked = %v, %v after %d, %d calls; want %v, %v", ps, ts, repo.posts, repo.terms, wantP, wantT)
	}
	ps, ts, err = calendar.GetLinked(ctx, repo, nil, nil)
	if err != nil || len(ps) != 0 || len(ts) != 0 || repo.posts != 1 || repo.terms != 1 {
		t.Fatalf("GetLinked of nothing = %v, %v, %v after %d, %d calls", ps, ts, err, repo.posts, repo.terms)
	}
}
