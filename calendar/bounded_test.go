package calendar_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// countingRepo counts the calls a Service makes to its store, per method.
type countingRepo struct {
	calendar.Repository
	mu    sync.Mutex
	calls map[string]int
}

func newCounting(r calendar.Repository) *countingRepo {
	return &countingRepo{Repository: r, calls: map[string]int{}}
}

func (c *countingRepo) count(m string) {
	c.mu.Lock()
	c.calls[m]++
	c.mu.Unlock()
}

// reset forgets the calls so far.
func (c *countingRepo) reset() {
	c.mu.Lock()
	c.calls = map[string]int{}
	c.mu.Unlock()
}

// total is the number of calls since the last reset; scans the ListTerms calls.
func (c *countingRepo) total() (all, scans int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.calls {
		all += n
	}
	return all, c.calls["ListTerms"]
}

func (c *countingRepo) Apply(ctx context.Context, w *calendar.Write) (*calendar.WriteResult, error) {
	c.count("Apply")
	return c.Repository.Apply(ctx, w)
}
func (c *countingRepo) PostByUID(ctx context.Context, k calendar.Kind, uid string) (*calendar.PostRecord, error) {
	c.count("PostByUID")
	return c.Repository.PostByUID(ctx, k, uid)
}
func (c *countingRepo) TermsByName(ctx context.Context, tax calendar.Taxonomy, name string) ([]*calendar.TermRecord, error) {
	c.count("TermsByName")
	return c.Repository.TermsByName(ctx, tax, name)
}
func (c *countingRepo) CreatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	c.count("CreatePost")
	return c.Repository.CreatePost(ctx, p)
}
func (c *countingRepo) UpdatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	c.count("UpdatePost")
	return c.Repository.UpdatePost(ctx, p)
}
func (c *countingRepo) DeletePost(ctx context.Context, id, version int64) error {
	c.count("DeletePost")
	return c.Repository.DeletePost(ctx, id, version)
}
func (c *countingRepo) GetPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	c.count("GetPost")
	return c.Repository.GetPost(ctx, id)
}
func (c *countingRepo) GetPosts(ctx context.Context, ids []int64) ([]*calendar.PostRecord, error) {
	c.count("GetPosts")
	return c.Repository.GetPosts(ctx, ids)
}
func (c *countingRepo) PostBySlug(ctx context.Context, k calendar.Kind, slug string) (*calendar.PostRecord, error) {
	c.count("PostBySlug")
	return c.Repository.PostBySlug(ctx, k, slug)
}
func (c *countingRepo) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	c.count("ListPosts")
	return c.Repository.ListPosts(ctx, q)
}
func (c *countingRepo) CreateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	c.count("CreateTerm")
	return c.Repository.CreateTerm(ctx, t)
}
func (c *countingRepo) UpdateTerm(ctx context.Context, t *calendar.TermRecord) (*calendar.TermRecord, error) {
	c.count("UpdateTerm")
	return c.Repository.UpdateTerm(ctx, t)
}
func (c *countingRepo) DeleteTerm(ctx context.Context, id, version int64) error {
	c.count("DeleteTerm")
	return c.Repository.DeleteTerm(ctx, id, version)
}
func (c *countingRepo) GetTerm(ctx context.Context, id int64) (*calendar.TermRecord, error) {
	c.count("GetTerm")
	return c.Repository.GetTerm(ctx, id)
}
func (c *countingRepo) GetTerms(ctx context.Context, ids []int64) ([]*calendar.TermRecord, error) {
	c.count("GetTerms")
	return c.Repository.GetTerms(ctx, ids)
}
func (c *countingRepo) TermBySlug(ctx context.Context, tax calendar.Taxonomy, slug string) (*calendar.TermRecord, error) {
	c.count("TermBySlug")
	return c.Repository.TermBySlug(ctx, tax, slug)
}
func (c *countingRepo) ListTerms(ctx context.Context, tax calendar.Taxonomy) ([]*calendar.TermRecord, error) {
	c.count("ListTerms")
	return c.Repository.ListTerms(ctx, tax)
}

// addTags stores n tags named prefix-0 … prefix-(n-1) directly in the store.
func addTags(t testing.TB, r calendar.Repository, prefix string, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		name := fmt.Sprintf("%s-%d", prefix, i)
		if _, err := r.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Lang: "en",
			Name: calendar.Text{"en": name}, Slug: name}); err != nil {
			t.Fatal(err)
		}
	}
}

func tagRefs(prefix string, n int) []calendar.TermRef {
	refs := make([]calendar.TermRef, n)
	for i := range refs {
		refs[i] = calendar.TermRef{Name: fmt.Sprintf("%s %d", prefix, i)}
	}
	return refs
}

// Naming new terms costs a number of store calls that grows with the number
// of names and not with the number of terms stored: look-ups are indexed,
// never a read of the whole taxonomy.
func TestNameCreationCostsPerItemNotPerStoreSize(t *testing.T) {
	const items = 20
	calls := map[int]int{}
	for _, stored := range []int{10, 2000} {
		f := newFixture(t)
		addTags(t, f.repo, "old", stored)
		cr := newCounting(f.repo)
		cal := calendar.New(cr, calendar.WithClock(f.clock.Now))
		in := eventIn("Many tags", "2026-04-01 20:00", "2026-04-01 22:00")
		in.Tags = calendar.Some(tagRefs("New Tag", items))
		in.Categories = calendar.Some([]calendar.TermRef{{Name: "New Cat"}})
		ev, err := cal.CreateEvent(system, in, calendar.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ev.Tags) != items {
			t.Fatalf("%d tags linked, want %d", len(ev.Tags), items)
		}
		all, scans := cr.total()
		if scans != 0 {
			t.Errorf("store of %d tags: the create read a whole taxonomy %d times", stored, scans)
		}
		// Per name: a look-up by slug and one by name; then the write and
		// one read of the linked terms. New terms need no count query.
		if limit := 2*(items+1) + 2; all > limit {
			t.Errorf("store of %d tags: %d store calls for %d names, want at most %d: %v", stored, all, items+1, limit, cr.calls)
		}
		for _, tag := range ev.Tags {
			fresh, err := f.cal.GetTerm(system, calendar.TaxonomyTag, tag.ID, calendar.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if tag.Count != fresh.Count || tag.Count != 1 {
				t.Errorf("new tag %q shown with count %d; counted afresh %d, want 1", tag.Name, tag.Count, fresh.Count)
			}
		}
		if n := cr.calls["Apply"]; n != 1 {
			t.Errorf("%d writes, want one atomic write", n)
		}
		calls[stored] = all
	}
	if calls[10] != calls[2000] {
		t.Errorf("store calls depend on the store size: %v", calls)
	}
}

// Term create and update read what they need by id and slug; the name rule
// (unique per level) is the store's, so neither reads the whole taxonomy,
// and a name taken at the level is term_exists naming the holder.
func TestTermWritesReadNoTaxonomy(t *testing.T) {
	f := newFixture(t)
	addTags(t, f.repo, "old", 50)
	cr := newCounting(f.repo)
	cal := calendar.New(cr, calendar.WithClock(f.clock.Now))
	create := func(tax calendar.Taxonomy, in calendar.TermInput) (*calendar.Term, error) {
		return cal.CreateTerm(system, tax, in, calendar.WriteOptions{})
	}
	rock, err := create(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Rock")})
	if err != nil {
		t.Fatal(err)
	}
	pop, err := create(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Pop")})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := create(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Indie"), Parent: calendar.Some(rock.ID)})
	if err != nil {
		t.Fatal(err)
	}
	deep, err := create(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Lo-fi"), Parent: calendar.Some(sub.ID)})
	if err != nil {
		t.Fatal(err)
	}
	// One level may hold a name once: on create, on rename, on a move.
	_, err = create(calendar.TaxonomyCategory, calendar.TermInput{Name: s("  ROCK ")})
	if ce := wantErr(t, err, calendar.CodeInvalid, "term_exists"); ce.TermID != rock.ID {
		t.Errorf("term_exists names %d, want %d", ce.TermID, rock.ID)
	}
	_, err = cal.UpdateTerm(system, calendar.TaxonomyCategory, pop.ID, calendar.TermInput{Name: s("rock")}, calendar.WriteOptions{})
	if ce := wantErr(t, err, calendar.CodeInvalid, "term_exists"); ce.TermID != rock.ID {
		t.Errorf("rename: term_exists names %d, want %d", ce.TermID, rock.ID)
	}
	if _, err := create(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Pop"), Parent: calendar.Some(rock.ID)}); err != nil {
		t.Fatalf("a name of another level: %v", err)
	}
	_, err = cal.UpdateTerm(system, calendar.TaxonomyCategory, pop.ID, calendar.TermInput{Parent: calendar.Some(rock.ID)}, calendar.WriteOptions{})
	wantErr(t, err, calendar.CodeInvalid, "term_exists")
	// Parents: the category itself and its descendants are refused, at any depth.
	_, err = cal.UpdateTerm(system, calendar.TaxonomyCategory, rock.ID, calendar.TermInput{Parent: calendar.Some(deep.ID)}, calendar.WriteOptions{})
	wantParams(t, err, "parent")
	_, err = cal.UpdateTerm(system, calendar.TaxonomyCategory, rock.ID, calendar.TermInput{Parent: calendar.Some(rock.ID)}, calendar.WriteOptions{})
	wantParams(t, err, "parent")
	_, err = create(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Orphan"), Parent: calendar.Some(int64(1 << 40))})
	wantParams(t, err, "parent")
	old, err := f.repo.TermBySlug(context.Background(), calendar.TaxonomyTag, "old-1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = create(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Tag parent"), Parent: calendar.Some(old.ID)})
	wantParams(t, err, "parent")
	moved, err := cal.UpdateTerm(system, calendar.TaxonomyCategory, deep.ID, calendar.TermInput{Parent: calendar.Some(pop.ID)}, calendar.WriteOptions{})
	if err != nil || moved.Parent != pop.ID {
		t.Fatalf("move: %+v %v", moved, err)
	}
	// Slugs: taken by another term is refused on update.
	_, err = cal.UpdateTerm(system, calendar.TaxonomyCategory, pop.ID, calendar.TermInput{Slug: s("Rock")}, calendar.WriteOptions{})
	wantErr(t, err, calendar.CodeInvalid, "duplicate_term_slug")
	if _, err := cal.UpdateTerm(system, calendar.TaxonomyCategory, pop.ID, calendar.TermInput{Slug: s("pop")}, calendar.WriteOptions{}); err != nil {
		t.Errorf("keeping its own slug: %v", err)
	}
	if _, scans := cr.total(); scans != 0 {
		t.Errorf("term writes read a whole taxonomy %d times", scans)
	}
}

// Every array argument is bounded: one over the limit is a 400 naming it
// (every such argument at once), and nothing is read or written.
func TestEveryArrayArgumentIsBounded(t *testing.T) {
	const limit = 3
	f := newFixture(t, calendar.WithMaxItems(limit))
	cr := newCounting(f.repo)
	cal := calendar.New(cr, calendar.WithClock(f.clock.Now), calendar.WithMaxItems(limit))
	ids := []int64{1, 2, 3, 4}
	strs := []string{"a", "b", "c", "d"}
	check := func(name string, err error, args ...string) {
		t.Helper()
		ce := wantErr(t, err, calendar.CodeInvalid, "")
		for _, a := range args {
			if !strings.Contains(ce.Params[a], fmt.Sprintf("at most %d", limit)) {
				t.Errorf("%s: %s not named as too long: %v", name, a, ce.Params)
			}
		}
		if all, _ := cr.total(); all != 0 {
			t.Errorf("%s: %d store calls for a refused request: %v", name, all, cr.calls)
		}
		cr.reset()
	}
	in := eventIn("Many", "2026-04-01 20:00", "2026-04-01 22:00")
	in.Tags = calendar.Some(tagRefs("t", limit+1))
	in.Categories = calendar.Some(tagRefs("c", limit+1))
	in.Venues = calendar.Some([]calendar.VenueRef{{ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}})
	in.Organizers = calendar.Some([]calendar.OrganizerRef{{ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}})
	in.Cost = calendar.Some([]string{"1", "2", "3", "4"})
	_, err := cal.CreateEvent(system, in, calendar.WriteOptions{})
	check("create event", err, "tags", "categories", "venue", "organizer", "cost")

	_, err = cal.ListEvents(system, calendar.EventQuery{Categories: []string{"a,b", "c,d"}, Tags: strs, Venue: ids,
		Organizer: ids, Include: ids, Status: []string{"publish,draft,pending,future"}})
	check("list events", err, "categories", "tags", "venue", "organizer", "include", "status")
	_, err = cal.ListTerms(system, calendar.TaxonomyTag, calendar.TermQuery{Include: strs, Exclude: []string{"1,2,3,4"}})
	check("list terms", err, "include", "exclude")
	_, err = cal.ListVenues(system, calendar.VenueQuery{Status: strs})
	check("list venues", err, "status")
	_, err = cal.ListOrganizers(system, calendar.OrganizerQuery{Status: strs})
	check("list organizers", err, "status")

	// At the limit everything works.
	in = eventIn("Enough", "2026-04-01 20:00", "2026-04-01 22:00")
	in.Tags = calendar.Some(tagRefs("t", limit))
	in.Cost = calendar.Some([]string{"1", "2", "3"})
	if _, err := cal.CreateEvent(system, in, calendar.WriteOptions{}); err != nil {
		t.Fatalf("a write at the limit: %v", err)
	}
	if _, err := cal.ListEvents(system, calendar.EventQuery{Tags: []string{"t-0,t-1,t-2"}, StartDate: "2026-01-01"}); err != nil {
		t.Fatalf("a list at the limit: %v", err)
	}
}

// The default limit is 100 items.
func TestDefaultMaxItems(t *testing.T) {
	f := newFixture(t)
	in := eventIn("Hundred", "2026-04-01 20:00", "2026-04-01 22:00")
	in.Tags = calendar.Some(tagRefs("t", calendar.DefaultMaxItems))
	if _, err := f.cal.CreateEvent(system, in, calendar.WriteOptions{}); err != nil {
		t.Fatalf("%d tags: %v", calendar.DefaultMaxItems, err)
	}
	in.Tags = calendar.Some(tagRefs("u", calendar.DefaultMaxItems+1))
	_, err := f.cal.CreateEvent(system, in, calendar.WriteOptions{})
	wantParams(t, err, "tags")
	if got := storeCounts(t, f.repo)[string(calendar.TaxonomyTag)]; got != calendar.DefaultMaxItems {
		t.Errorf("%d tags stored, want %d", got, calendar.DefaultMaxItems)
	}
}

// Terms a write creates are shown with the count a fresh read gives (1 for
// a published event, 0 for a draft), without a count query.
func TestNewTermsShowTheirCount(t *testing.T) {
	f := newFixture(t)
	draft := eventIn("Draft", "2026-04-01 20:00", "2026-04-01 22:00")
	draft.Status = calendar.Some(calendar.StatusDraft)
	draft.Tags = calendar.Some([]calendar.TermRef{{Name: "only-draft"}})
	ev := f.mustEvent(system, draft)
	pub := eventIn("Published", "2026-04-01 20:00", "2026-04-01 22:00")
	pub.Tags = calendar.Some([]calendar.TermRef{{Name: "only-draft"}, {Name: "on-published"}})
	pubEv := f.mustEvent(system, pub)
	upd, err := f.cal.UpdateEvent(system, calendar.ByID(ev.ID),
		calendar.EventInput{Tags: calendar.Some([]calendar.TermRef{{Name: "added-to-draft"}})}, calendar.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tag  calendar.Term
		want int
	}{{ev.Tags[0], 0}, {pubEv.Tags[0], 1}, {pubEv.Tags[1], 1}, {upd.Tags[0], 0}} {
		if c.tag.Count != c.want {
			t.Errorf("tag %q shown with count %d, want %d", c.tag.Name, c.tag.Count, c.want)
		}
	}
}
