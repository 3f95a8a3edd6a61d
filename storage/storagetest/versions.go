package storagetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

var versionTests = []conformanceTest{
	{"Versions/StalePostUpdate", testStalePostUpdate},
	{"Versions/StaleTermUpdate", testStaleTermUpdate},
	{"Versions/ConcurrentPostIncrements", testConcurrentPostIncrements},
	{"Versions/ConcurrentTermIncrements", testConcurrentTermIncrements},
}

// testStalePostUpdate: an update carrying any version but the stored one
// changes nothing and wraps ErrConflict; a good one stores version sent+1.
func testStalePostUpdate(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	v1 := mustCreatePost(t, r, newEvent("cas", t0))
	up := v1.Clone()
	up.Title = calendar.Text{"en": "second"}
	v2 := mustUpdatePost(t, r, up)
	if v2.Version != 2 {
		t.Fatalf("version after one update = %d, want 2", v2.Version)
	}
	for _, version := range []int64{0, 1, 3, 100} {
		stale := v2.Clone()
		stale.Version = version
		stale.Title = calendar.Text{"en": "lost"}
		stale.Slug = "other-slug"
		if _, err := r.UpdatePost(ctx, stale); !errors.Is(err, calendar.ErrConflict) {
			t.Errorf("UpdatePost with version %d (stored 2): err = %v, want ErrConflict", version, err)
		}
	}
	if d := diffPost(v2, mustGetPost(t, r, v1.ID)); d != "" {
		t.Errorf("refused updates changed the post (-want +got):\n%s", d)
	}
	if _, err := r.PostBySlug(ctx, calendar.KindEvent, "other-slug"); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("a refused update reserved its slug: %v", err)
	}
	v3 := mustUpdatePost(t, r, v2)
	if v3.Version != 3 || mustGetPost(t, r, v1.ID).Version != 3 {
		t.Errorf("update with version 2 stored version %d, want 3", v3.Version)
	}
}

func testStaleTermUpdate(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	v1 := mustCreateTerm(t, r, newCategory("cas", 0))
	v2 := mustUpdateTerm(t, r, v1)
	if v2.Version != 2 {
		t.Fatalf("term version after one update = %d, want 2", v2.Version)
	}
	for _, version := range []int64{0, 1, 5} {
		stale := v2.Clone()
		stale.Version = version
		stale.Name = calendar.Text{"en": "lost"}
		if _, err := r.UpdateTerm(ctx, stale); !errors.Is(err, calendar.ErrConflict) {
			t.Errorf("UpdateTerm with version %d (stored 2): err = %v, want ErrConflict", version, err)
		}
	}
	if d := diffTerm(v2, mustGetTerm(t, r, v1.ID)); d != "" {
		t.Errorf("refused updates changed the term (-want +got):\n%s", d)
	}
	if v3 := mustUpdateTerm(t, r, v2); v3.Version != 3 {
		t.Errorf("term update with version 2 stored version %d, want 3", v3.Version)
	}
}

// increments runs workers×each read-modify-write loops that retry on
// ErrConflict; each appends its own token.
func increments(t *testing.T, workers, each int, step func(token string) error) []string {
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	var tokens []string
	for w := 0; w < workers; w++ {
		for i := 0; i < each; i++ {
			tokens = append(tokens, fmt.Sprintf("w%di%d", w, i))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				token := fmt.Sprintf("w%di%d", w, i)
				for attempt := 0; ; attempt++ {
					err := step(token)
					if err == nil {
						break
					}
					if !errors.Is(err, calendar.ErrConflict) || attempt > 10000 {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("read-modify-write: %v", err)
	}
	return tokens
}

// testConcurrentPostIncrements: compare-and-set makes concurrent
// read-modify-write loops lose no increment.
func testConcurrentPostIncrements(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	p := newEvent("counter", t0)
	p.Cost = nil
	created := mustCreatePost(t, r, p)
	const workers, each = 8, 10
	want := increments(t, workers, each, func(token string) error {
		cur, err := r.GetPost(ctx, created.ID)
		if err != nil {
			return err
		}
		cur.Cost = append(cur.Cost, token)
		_, err = r.UpdatePost(ctx, cur)
		return err
	})
	got := mustGetPost(t, r, created.ID)
	if got.Version != 1+workers*each {
		t.Errorf("version after %d updates = %d, want %d", workers*each, got.Version, 1+workers*each)
	}
	have := slices.Clone(got.Cost)
	slices.Sort(have)
	slices.Sort(want)
	if !slices.Equal(have, want) {
		t.Errorf("lost or repeated increments: have %d tokens %v, want %d", len(have), have, len(want))
	}
}

func testConcurrentTermIncrements(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	created := mustCreateTerm(t, r, newTag("counter"))
	const workers, each = 8, 10
	want := increments(t, workers, each, func(token string) error {
		cur, err := r.GetTerm(ctx, created.ID)
		if err != nil {
			return err
		}
		if cur.Description == nil {
			cur.Description = calendar.Text{}
		}
		cur.Description["en"] += token + " "
		_, err = r.UpdateTerm(ctx, cur)
		return err
	})
	got := mustGetTerm(t, r, created.ID)
	if got.Version != 1+workers*each {
		t.Errorf("term version after %d updates = %d, want %d", workers*each, got.Version, 1+workers*each)
	}
	have := strings.Fields(got.Description["en"])
	slices.Sort(have)
	slices.Sort(want)
	if !slices.Equal(have, want) {
		t.Errorf("lost or repeated term increments: have %d tokens, want %d", len(have), len(want))
	}
}
