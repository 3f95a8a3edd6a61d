package storagetest

import (
	"context"
	"errors"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

var contextTests = []conformanceTest{
	{"Context/Cancelled", testCancelled},
}

// testCancelled: every method called with a cancelled context returns an
// error wrapping context.Canceled, and writes so refused change nothing.
func testCancelled(t *testing.T, r calendar.Repository) {
	e := mustCreatePost(t, r, newEvent("e", t0))
	c := mustCreateTerm(t, r, newCategory("c", 0))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := map[string]func() error{
		"CreatePost": func() error { _, err := r.CreatePost(ctx, newEvent("new", t0)); return err },
		"UpdatePost": func() error {
			up := e.Clone()
			up.Slug = "moved"
			_, err := r.UpdatePost(ctx, up)
			return err
		},
		"DeletePost": func() error { return r.DeletePost(ctx, e.ID, 0) },
		"GetPost":    func() error { _, err := r.GetPost(ctx, e.ID); return err },
		"GetPosts":   func() error { _, err := r.GetPosts(ctx, []int64{e.ID}); return err },
		"PostBySlug": func() error { _, err := r.PostBySlug(ctx, calendar.KindEvent, e.Slug); return err },
		"ListPosts": func() error {
			_, err := r.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
			return err
		},
		"CreateTerm": func() error { _, err := r.CreateTerm(ctx, newTag("new")); return err },
		"UpdateTerm": func() error {
			up := c.Clone()
			up.Slug = "moved"
			_, err := r.UpdateTerm(ctx, up)
			return err
		},
		"DeleteTerm": func() error { return r.DeleteTerm(ctx, c.ID, 0) },
		"GetTerm":    func() error { _, err := r.GetTerm(ctx, c.ID); return err },
		"GetTerms":   func() error { _, err := r.GetTerms(ctx, []int64{c.ID}); return err },
		"TermBySlug": func() error { _, err := r.TermBySlug(ctx, calendar.TaxonomyCategory, c.Slug); return err },
		"ListTerms":  func() error { _, err := r.ListTerms(ctx, calendar.TaxonomyTag); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: err = %v, want one wrapping context.Canceled", name, err)
		}
	}
	if d := diffPost(e, mustGetPost(t, r, e.ID)); d != "" {
		t.Errorf("cancelled writes changed the event (-want +got):\n%s", d)
	}
	if d := diffTerm(c, mustGetTerm(t, r, c.ID)); d != "" {
		t.Errorf("cancelled writes changed the category (-want +got):\n%s", d)
	}
	if page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindEvent}); page.Total != 1 {
		t.Errorf("a cancelled CreatePost stored an event: %d events", page.Total)
	}
	if ts, err := r.ListTerms(context.Background(), calendar.TaxonomyTag); err != nil || len(ts) != 0 {
		t.Errorf("a cancelled CreateTerm stored a tag: %v, %v", termIDs(ts), err)
	}
}
