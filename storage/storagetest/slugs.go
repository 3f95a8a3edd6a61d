package storagetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/eventcal/eventcal/calendar"
)

var slugTests = []conformanceTest{
	{"Slugs/ClashSuffixed", testSlugClash},
	{"Slugs/TrashedKeepSlug", testSlugTrashedKept},
	{"Slugs/UpdateToTakenSlug", testSlugUpdateTaken},
	{"Slugs/UpdateReleasesOldSlug", testSlugUpdateReleases},
	{"Slugs/LongBase", testSlugLongBase},
	{"Slugs/Terms", testTermSlugs},
	{"Slugs/ConcurrentPosts", testSlugConcurrentPosts},
	{"Slugs/ConcurrentTerms", testSlugConcurrentTerms},
}

// testSlugClash: a taken slug gets the first free SlugCandidate, -2, -3, …
func testSlugClash(t *testing.T, r calendar.Repository) {
	for n := 1; n <= 4; n++ {
		got := mustCreatePost(t, r, newEvent("party", t0))
		if want := calendar.SlugCandidate("party", n); got.Slug != want {
			t.Errorf("create #%d of slug party stored %q, want %q", n, got.Slug, want)
		}
	}
	// "party-5" taken on purpose: the next clash skips it.
	mustCreatePost(t, r, newEvent("party-5", t0))
	if got := mustCreatePost(t, r, newEvent("party", t0)); got.Slug != "party-6" {
		t.Errorf("clash with party..party-5 taken stored %q, want party-6", got.Slug)
	}
}

// testSlugTrashedKept: a trashed post keeps holding its slug.
func testSlugTrashedKept(t *testing.T, r calendar.Repository) {
	e := mustCreatePost(t, r, newEvent("gala", t0))
	tr := e.Clone()
	tr.Status = calendar.StatusTrash
	tr = mustUpdatePost(t, r, tr)
	if tr.Slug != "gala" {
		t.Fatalf("trashing changed the slug to %q", tr.Slug)
	}
	if got := mustCreatePost(t, r, newEvent("gala", t0)); got.Slug != "gala-2" {
		t.Errorf("slug of a trashed event reused: new event got %q, want gala-2", got.Slug)
	}
	got, err := r.PostBySlug(context.Background(), calendar.KindEvent, "gala")
	if err != nil || got.ID != e.ID {
		t.Errorf("PostBySlug(gala) = %v, %v; want the trashed event %d", got, err, e.ID)
	}
}

// testSlugUpdateTaken: an update to a slug another post holds is suffixed;
// keeping one's own slug, or asking for one's own suffixed slug, is not.
func testSlugUpdateTaken(t *testing.T, r calendar.Repository) {
	a := mustCreatePost(t, r, newEvent("alpha", t0))
	b := mustCreatePost(t, r, newEvent("beta", t0))
	up := b.Clone()
	up.Slug = "alpha"
	up = mustUpdatePost(t, r, up)
	if up.Slug != "alpha-2" {
		t.Fatalf("update to taken slug alpha stored %q, want alpha-2", up.Slug)
	}
	if got := mustGetPost(t, r, b.ID); got.Slug != "alpha-2" {
		t.Errorf("GetPost slug %q, want alpha-2", got.Slug)
	}
	// Updating again with the same wanted slug keeps alpha-2: the post holds it.
	again := up.Clone()
	again.Slug = "alpha"
	if got := mustUpdatePost(t, r, again); got.Slug != "alpha-2" {
		t.Errorf("re-asking for alpha while holding alpha-2 stored %q, want alpha-2", got.Slug)
	}
	// Keeping its own slug never suffixes.
	same := mustGetPost(t, r, a.ID)
	same.Title = calendar.Text{"en": "changed"}
	if got := mustUpdatePost(t, r, same); got.Slug != "alpha" {
		t.Errorf("update keeping slug alpha stored %q", got.Slug)
	}
	got, err := r.PostBySlug(context.Background(), calendar.KindEvent, "alpha")
	if err != nil || got.ID != a.ID {
		t.Errorf("PostBySlug(alpha) = %v, %v; want %d", got, err, a.ID)
	}
}

// testSlugUpdateReleases: the old slug of a post whose slug changed is free.
func testSlugUpdateReleases(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	v := mustCreatePost(t, r, newVenue("old-name"))
	up := v.Clone()
	up.Slug = "new-name"
	if got := mustUpdatePost(t, r, up); got.Slug != "new-name" {
		t.Fatalf("slug change stored %q, want new-name", got.Slug)
	}
	if _, err := r.PostBySlug(ctx, calendar.KindVenue, "old-name"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("PostBySlug(old-name) after the change: err = %v, want ErrNotFound", err)
	}
	got, err := r.PostBySlug(ctx, calendar.KindVenue, "new-name")
	if err != nil || got.ID != v.ID {
		t.Errorf("PostBySlug(new-name) = %v, %v; want %d", got, err, v.ID)
	}
	if n := mustCreatePost(t, r, newVenue("old-name")); n.Slug != "old-name" {
		t.Errorf("released slug old-name not reusable: new venue got %q", n.Slug)
	}
	// Deleting releases too.
	mustDeletePost(t, r, v.ID, 0)
	if n := mustCreatePost(t, r, newVenue("new-name")); n.Slug != "new-name" {
		t.Errorf("slug of a deleted venue not reusable: got %q", n.Slug)
	}
}

// testSlugLongBase: a MaxSlugLen-byte base of multi-byte runes still yields
// slugs within MaxSlugLen bytes, valid UTF-8, as SlugCandidate cuts them.
func testSlugLongBase(t *testing.T, r calendar.Repository) {
	base := strings.Repeat("é", calendar.MaxSlugLen/2) // exactly 200 bytes
	seen := map[string]bool{}
	for n := 1; n <= 11; n++ {
		got := mustCreatePost(t, r, newEvent(base, t0))
		if want := calendar.SlugCandidate(base, n); got.Slug != want {
			t.Errorf("create #%d stored %q, want %q", n, got.Slug, want)
		}
		if len(got.Slug) > calendar.MaxSlugLen || !utf8.ValidString(got.Slug) || seen[got.Slug] {
			t.Errorf("create #%d stored slug of %d bytes (valid UTF-8: %v, repeated: %v)", n, len(got.Slug), utf8.ValidString(got.Slug), seen[got.Slug])
		}
		seen[got.Slug] = true
		byS, err := r.PostBySlug(context.Background(), calendar.KindEvent, got.Slug)
		if err != nil || byS.ID != got.ID {
			t.Errorf("PostBySlug of long slug #%d = %v, %v", n, byS, err)
		}
	}
}

// testTermSlugs: term slugs clash, suffix and release per taxonomy like post slugs.
func testTermSlugs(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	a := mustCreateTerm(t, r, newCategory("rock", 0))
	b := mustCreateTerm(t, r, newCategory("rock", 0))
	if a.Slug != "rock" || b.Slug != "rock-2" {
		t.Fatalf("category slugs %q, %q; want rock, rock-2", a.Slug, b.Slug)
	}
	if tg := mustCreateTerm(t, r, newTag("rock")); tg.Slug != "rock" {
		t.Errorf("tag slug %q, want rock (categories do not reserve tag slugs)", tg.Slug)
	}
	c := mustCreateTerm(t, r, newCategory("pop", 0))
	up := c.Clone()
	up.Slug = "rock"
	if got := mustUpdateTerm(t, r, up); got.Slug != "rock-3" {
		t.Errorf("term update to taken slug stored %q, want rock-3", got.Slug)
	}
	if _, err := r.TermBySlug(ctx, calendar.TaxonomyCategory, "pop"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("old term slug still found: %v", err)
	}
	if got := mustCreateTerm(t, r, newCategory("pop", 0)); got.Slug != "pop" {
		t.Errorf("released term slug not reusable: got %q", got.Slug)
	}
}

// concurrentSlugs runs workers×each creates of one slug at once and checks
// that the slugs are exactly the first workers×each candidates, the ids
// distinct, and every one retrievable by slug.
func concurrentSlugs(t *testing.T, workers, each int, create func() (id int64, slug string, err error), bySlug func(string) (int64, error)) {
	type made struct {
		id   int64
		slug string
	}
	var (
		mu   sync.Mutex
		all  []made
		wg   sync.WaitGroup
		errs = make(chan error, workers*each)
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				id, slug, err := create()
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				all = append(all, made{id, slug})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent create: %v", err)
	}
	ids, slugs := map[int64]bool{}, map[string]int64{}
	for _, m := range all {
		if ids[m.id] {
			t.Errorf("id %d handed out twice", m.id)
		}
		if other, dup := slugs[m.slug]; dup {
			t.Errorf("slug %q given to %d and %d", m.slug, other, m.id)
		}
		ids[m.id], slugs[m.slug] = true, m.id
	}
	for n := 1; n <= workers*each; n++ {
		s := calendar.SlugCandidate("same", n)
		id, ok := slugs[s]
		if !ok {
			t.Errorf("candidate %q never handed out: the %d slugs should be exactly the first %d candidates", s, len(all), workers*each)
			continue
		}
		got, err := bySlug(s)
		if err != nil || got != id {
			t.Errorf("lookup of %q = %d, %v; want %d", s, got, err, id)
		}
	}
}

func testSlugConcurrentPosts(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	concurrentSlugs(t, 16, 5, func() (int64, string, error) {
		p, err := r.CreatePost(ctx, newEvent("same", t0))
		if err != nil {
			return 0, "", fmt.Errorf("CreatePost: %w", err)
		}
		return p.ID, p.Slug, nil
	}, func(s string) (int64, error) {
		p, err := r.PostBySlug(ctx, calendar.KindEvent, s)
		if err != nil {
			return 0, err
		}
		return p.ID, nil
	})
}

func testSlugConcurrentTerms(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	concurrentSlugs(t, 8, 5, func() (int64, string, error) {
		tr, err := r.CreateTerm(ctx, newTag("same"))
		if err != nil {
			return 0, "", fmt.Errorf("CreateTerm: %w", err)
		}
		return tr.ID, tr.Slug, nil
	}, func(s string) (int64, error) {
		tr, err := r.TermBySlug(ctx, calendar.TaxonomyTag, s)
		if err != nil {
			return 0, err
		}
		return tr.ID, nil
	})
}
