package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Names enforced by the store (storage guarantee 3, domain §9).
var nameTests = []conformanceTest{
	{"Names/TermNamePerLevel", testTermNamePerLevel},
	{"Names/TermsByName", testTermsByName},
	{"Names/EnsureTerm", testEnsureTerm},
	{"Names/EnsurePostReuse", testEnsurePostReuse},
	{"Names/NameQuery", testNameQuery},
	{"Names/ConcurrentEnsure", testConcurrentEnsure},
	{"Names/ConcurrentTermCreates", testConcurrentTermCreates},
}

// A term name is unique per taxonomy and parent, in every language, and
// compared by NameKey.
func testTermNamePerLevel(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	music := mustCreateTerm(t, r, namedTerm(newCategory("music", 0), "Music"))
	jazz := mustCreateTerm(t, r, namedTerm(newCategory("jazz", music.ID), "Jazz"))
	var taken *calendar.NameTakenError
	_, err := r.CreateTerm(ctx, namedTerm(newCategory("music-2", 0), "  MUSIC "))
	if !errors.As(err, &taken) || taken.ID != music.ID || !errors.Is(err, calendar.ErrNameTaken) {
		t.Fatalf("same name at the top level: err = %v, want NameTakenError naming %d", err, music.ID)
	}
	// Other level, other taxonomy: allowed.
	mustCreateTerm(t, r, namedTerm(newCategory("jazz-top", 0), "Jazz"))
	mustCreateTerm(t, r, namedTerm(newTag("music"), "Music"))
	// A name in another language clashes too.
	multi := newCategory("multi", 0)
	multi.Name = calendar.Text{"en": "Dance", "fr": "Musique"}
	mustCreateTerm(t, r, multi)
	fr := newCategory("musique", 0)
	fr.Lang = "fr"
	fr.Name = calendar.Text{"fr": "musique"}
	if _, err := r.CreateTerm(ctx, fr); !errors.As(err, &taken) {
		t.Errorf("name taken in another language: err = %v", err)
	}
	// Updates: keeping its own name is fine; taking another's is not;
	// moving under a parent where the name exists is not.
	jazz2 := mustUpdateTerm(t, r, jazz)
	up := jazz2.Clone()
	up.Parent = 0 // "Jazz" exists at the top level already
	if _, err := r.UpdateTerm(ctx, up); !errors.As(err, &taken) {
		t.Errorf("re-parenting onto a taken name: err = %v", err)
	}
	up = music.Clone()
	up.Name = calendar.Text{"en": "Dance"}
	if _, err := r.UpdateTerm(ctx, up); !errors.As(err, &taken) {
		t.Errorf("renaming to a taken name: err = %v", err)
	}
	if got := mustGetTerm(t, r, music.ID); got.Version != music.Version || got.Name["en"] != "Music" {
		t.Errorf("refused rename changed the term: %+v", got)
	}
	// A deleted term frees its name.
	if err := r.DeleteTerm(ctx, music.ID, 0); err != nil {
		t.Fatal(err)
	}
	mustCreateTerm(t, r, namedTerm(newCategory("music-again", 0), "Music"))
}

func testTermsByName(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	a := mustCreateTerm(t, r, namedTerm(newCategory("a", 0), "Blues"))
	b := mustCreateTerm(t, r, namedTerm(newCategory("b", a.ID), "blues"))
	mustCreateTerm(t, r, namedTerm(newTag("blues"), "Blues"))
	mustCreateTerm(t, r, namedTerm(newCategory("c", 0), "Blues Rock"))
	got, err := r.TermsByName(ctx, calendar.TaxonomyCategory, " BLUES  ")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != a.ID || got[1].ID != b.ID {
		t.Errorf("TermsByName: %v, want ids [%d %d]", termIDs(got), a.ID, b.ID)
	}
	if got, _ := r.TermsByName(ctx, calendar.TaxonomyCategory, "nothing"); len(got) != 0 {
		t.Errorf("TermsByName of an unknown name: %v", termIDs(got))
	}
}

// OpEnsureTerm reuses a term of that name at any level (the lowest id), and
// creates one only when there is none.
func testEnsureTerm(t *testing.T, r calendar.Repository) {
	root := mustCreateTerm(t, r, namedTerm(newCategory("root", 0), "Root"))
	deep := mustCreateTerm(t, r, namedTerm(newCategory("deep", root.ID), "Deep"))
	res := mustApply(t, r, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpEnsureTerm, Term: namedTerm(newCategory("x", 0), "deep")},
		{Op: calendar.OpEnsureTerm, Term: namedTerm(newCategory("new", 0), "New one")},
		{Op: calendar.OpEnsureTerm, Term: namedTerm(newCategory("new-again", 0), "NEW ONE")},
	}})
	if !res.Steps[0].Found || res.Steps[0].Term.ID != deep.ID {
		t.Errorf("ensure of an existing name: %+v, want term %d found", res.Steps[0], deep.ID)
	}
	if res.Steps[1].Found || res.Steps[1].Term == nil {
		t.Fatalf("ensure of a new name: %+v", res.Steps[1])
	}
	if !res.Steps[2].Found || res.Steps[2].Term.ID != res.Steps[1].Term.ID {
		t.Errorf("second ensure of the name the write just created: %+v", res.Steps[2])
	}
	if got, _ := r.TermsByName(context.Background(), calendar.TaxonomyCategory, "new one"); len(got) != 1 {
		t.Errorf("%d terms named 'new one', want 1", len(got))
	}
}

// OpEnsurePost reuses the lowest-id venue of that name the caller may read
// that is not trashed; otherwise it creates one.
func testEnsurePostReuse(t *testing.T, r calendar.Repository) {
	trashed := named(newVenue("trashed"), "Town Hall")
	trashed.Status = calendar.StatusTrash
	mustCreatePost(t, r, trashed)
	draft := named(newVenue("draft"), "Town Hall")
	draft.Status, draft.Author = calendar.StatusDraft, 9
	d := mustCreatePost(t, r, draft)
	pub := mustCreatePost(t, r, named(newVenue("pub"), "town   hall"))
	pub2 := mustCreatePost(t, r, named(newVenue("pub2"), "Town Hall"))
	future := named(newVenue("future"), "Later Hall")
	future.Status, future.Date = calendar.StatusFuture, t0.Add(-time.Hour) // effectively published at t0
	f := mustCreatePost(t, r, future)

	publicOnly := calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}
	ownDrafts := calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}, Owner: 9, OwnStatuses: []calendar.Status{calendar.StatusDraft}}
	for _, tc := range []struct {
		name    string
		title   string
		visible calendar.Visibility
		want    int64 // 0: a new record
	}{
		{"public caller gets the lowest published", " TOWN HALL", publicOnly, pub.ID},
		{"owner of a draft gets the draft (lower id)", "Town Hall", ownDrafts, d.ID},
		{"unrestricted gets the lowest non-trashed", "town hall", calendar.Visibility{}, d.ID},
		{"future past its date counts as published", "later hall", publicOnly, f.ID},
		{"unknown name creates", "Nowhere Hall", publicOnly, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := mustApply(t, r, &calendar.Write{Steps: []calendar.Step{
				{Op: calendar.OpEnsurePost, Post: named(newVenue("ensure"), tc.title), Visible: tc.visible, Now: t0},
			}})
			got := res.Steps[0]
			if tc.want == 0 {
				if got.Found || got.Post == nil || got.Post.Title["fr"] != tc.title {
					t.Errorf("want a new venue, got %+v", got)
				}
				return
			}
			if !got.Found || got.Post.ID != tc.want {
				t.Errorf("got id %d found %v, want existing %d", got.Post.ID, got.Found, tc.want)
			}
		})
	}
	_ = pub2
	// Organizers have their own names: a venue of that name is not reused.
	res := mustApply(t, r, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpEnsurePost, Post: named(newOrganizer("org"), "Town Hall"), Now: t0},
	}})
	if res.Steps[0].Found || res.Steps[0].Post.Kind != calendar.KindOrganizer {
		t.Errorf("an organizer ensure reused a %s", res.Steps[0].Post.Kind)
	}
}

// PostQuery.Name matches by NameKey in any language.
func testNameQuery(t *testing.T, r calendar.Repository) {
	v := newVenue("bilingual")
	v.Title = calendar.Text{"fr": "Le  Grand Café", "en": "The Big Cafe"}
	gv := mustCreatePost(t, r, v)
	mustCreatePost(t, r, named(newVenue("other"), "Le Grand Café Annex"))
	for _, name := range []string{"le grand café", " LE GRAND  CAFÉ ", "the big cafe"} {
		page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindVenue, Name: name})
		if page.Total != 1 || page.Records[0].ID != gv.ID {
			t.Errorf("Name %q: ids %v", name, postIDs(page.Records))
		}
	}
	if page := mustList(t, r, &calendar.PostQuery{Kind: calendar.KindOrganizer, Name: "le grand café"}); page.Total != 0 {
		t.Errorf("organizer list by a venue name: %d", page.Total)
	}
}

// Concurrent writes ensuring one new name make one record of each kind, and
// every write links that one.
func testConcurrentEnsure(t *testing.T, r calendar.Repository) {
	const writers = 16
	var wg sync.WaitGroup
	events := make([]*calendar.PostRecord, writers)
	errs := make([]error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := newEvent(fmt.Sprintf("e%d", i), t0)
			ev.VenueIDs, ev.OrganizerIDs = []int64{calendar.StepRef(0)}, []int64{calendar.StepRef(1)}
			ev.CategoryIDs, ev.TagIDs = []int64{calendar.StepRef(2)}, []int64{calendar.StepRef(3)}
			res, err := r.Apply(context.Background(), &calendar.Write{Steps: []calendar.Step{
				{Op: calendar.OpEnsurePost, Post: named(newVenue("race-hall"), "Race Hall"), Now: t0},
				{Op: calendar.OpEnsurePost, Post: named(newOrganizer("race-org"), "Race Org"), Now: t0},
				{Op: calendar.OpEnsureTerm, Term: namedTerm(newCategory("race-cat", 0), "Race Cat")},
				{Op: calendar.OpEnsureTerm, Term: namedTerm(newTag("race-tag"), "Race Tag")},
				{Op: calendar.OpCreatePost, Post: ev},
			}})
			if err != nil {
				errs[i] = err
				return
			}
			events[i] = res.Steps[4].Post
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	for _, k := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
		if page := mustList(t, r, &calendar.PostQuery{Kind: k}); page.Total != 1 {
			t.Errorf("%d %ss after concurrent ensures, want 1", page.Total, k)
		}
	}
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		if terms, _ := r.ListTerms(context.Background(), tax); len(terms) != 1 {
			t.Errorf("%d %s terms after concurrent ensures, want 1", len(terms), tax)
		}
	}
	for _, e := range events[1:] {
		if e.VenueIDs[0] != events[0].VenueIDs[0] || e.OrganizerIDs[0] != events[0].OrganizerIDs[0] ||
			e.CategoryIDs[0] != events[0].CategoryIDs[0] || e.TagIDs[0] != events[0].TagIDs[0] {
			t.Errorf("events link different records: %+v vs %+v", e, events[0])
		}
	}
}

// Concurrent creates of one term name: exactly one succeeds.
func testConcurrentTermCreates(t *testing.T, r calendar.Repository) {
	const writers = 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, taken := 0, 0
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.CreateTerm(context.Background(), namedTerm(newCategory(fmt.Sprintf("dup-%d", i), 0), "Dup2"))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, calendar.ErrNameTaken):
				taken++
			default:
				t.Errorf("writer %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 || taken != writers-1 {
		t.Errorf("%d created, %d refused as taken; want 1 and %d", ok, taken, writers-1)
	}
}
