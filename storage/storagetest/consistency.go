package storagetest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

var consistencyTests = []conformanceTest{
	{"Consistency/RandomWrites", testRandomWrites},
}

// model is what the repository must hold after a sequence of writes,
// computed independently of it: records, slug holders and cascades.
type model struct {
	posts     map[int64]*calendar.PostRecord
	terms     map[int64]*calendar.TermRecord
	postSlugs map[calendar.Kind]map[string]bool     // every slug ever used, per kind
	termSlugs map[calendar.Taxonomy]map[string]bool // every term slug ever used
	everPosts map[calendar.Kind][]int64             // every id ever created, deleted ones too
	everTerms map[calendar.Taxonomy][]int64
	base      time.Time // events start within 60 days of it
}

func newModel() *model {
	return &model{
		posts:     map[int64]*calendar.PostRecord{},
		terms:     map[int64]*calendar.TermRecord{},
		postSlugs: map[calendar.Kind]map[string]bool{calendar.KindEvent: {}, calendar.KindVenue: {}, calendar.KindOrganizer: {}},
		termSlugs: map[calendar.Taxonomy]map[string]bool{calendar.TaxonomyCategory: {}, calendar.TaxonomyTag: {}},
		everPosts: map[calendar.Kind][]int64{},
		everTerms: map[calendar.Taxonomy][]int64{},
		base:      time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}
}

// ofKind returns the live posts of kind in id order.
func (m *model) ofKind(kind calendar.Kind) []*calendar.PostRecord {
	var out []*calendar.PostRecord
	for _, id := range slices.Sorted(maps.Keys(m.posts)) {
		if p := m.posts[id]; p.Kind == kind {
			out = append(out, p)
		}
	}
	return out
}

func (m *model) ofTaxonomy(tax calendar.Taxonomy) []*calendar.TermRecord {
	var out []*calendar.TermRecord
	for _, id := range slices.Sorted(maps.Keys(m.terms)) {
		if tr := m.terms[id]; tr.Taxonomy == tax {
			out = append(out, tr)
		}
	}
	return out
}

// postSlug is the slug a post of kind wanting want must get: the first
// candidate no other post of that kind holds.
func (m *model) postSlug(kind calendar.Kind, want string, self int64) string {
	for n := 1; ; n++ {
		c := calendar.SlugCandidate(want, n)
		taken := false
		for _, p := range m.posts {
			if p.Kind == kind && p.Slug == c && p.ID != self {
				taken = true
				break
			}
		}
		if !taken {
			return c
		}
	}
}

func (m *model) termSlug(tax calendar.Taxonomy, want string, self int64) string {
	for n := 1; ; n++ {
		c := calendar.SlugCandidate(want, n)
		taken := false
		for _, tr := range m.terms {
			if tr.Taxonomy == tax && tr.Slug == c && tr.ID != self {
				taken = true
				break
			}
		}
		if !taken {
			return c
		}
	}
}

func (m *model) deletePost(id int64) {
	delete(m.posts, id)
	for eid, e := range m.posts {
		if e.Kind != calendar.KindEvent {
			continue
		}
		if !containsID(e.VenueIDs, id) && !containsID(e.OrganizerIDs, id) && e.PostParent != id {
			continue
		}
		c := e.Clone()
		c.VenueIDs = slices.DeleteFunc(c.VenueIDs, func(v int64) bool { return v == id })
		c.OrganizerIDs = slices.DeleteFunc(c.OrganizerIDs, func(v int64) bool { return v == id })
		if c.PostParent == id {
			c.PostParent = 0
		}
		c.Version++
		m.posts[eid] = c
	}
}

func (m *model) deleteTerm(id int64) {
	old := m.terms[id]
	delete(m.terms, id)
	kind := old.Taxonomy.Kind()
	for eid, e := range m.posts {
		if e.Kind == calendar.KindEvent && containsID(e.Links(kind), id) {
			c := e.Clone()
			c.SetLinks(kind, slices.DeleteFunc(c.Links(kind), func(v int64) bool { return v == id }))
			c.Version++
			m.posts[eid] = c
		}
	}
	for tid, tr := range m.terms {
		if tr.Parent == id && old.Taxonomy.Hierarchical() {
			c := tr.Clone()
			c.Parent, c.Version = old.Parent, c.Version+1
			m.terms[tid] = c
		}
	}
}

// randomWriter applies one random write to the repository and the model.
type randomWriter struct {
	t   *testing.T
	r   calendar.Repository
	m   *model
	rng *rand.Rand
}

var eventSlugs = []string{"a", "b", "c", "a-2", "d"}

func (w *randomWriter) randomLinks(e *calendar.PostRecord) {
	rng, m := w.rng, w.m
	e.VenueIDs = someIDs(rng, postIDs(m.ofKind(calendar.KindVenue)), 2)
	e.OrganizerIDs = someIDs(rng, postIDs(m.ofKind(calendar.KindOrganizer)), 2)
	e.CategoryIDs = someIDs(rng, termIDs(m.ofTaxonomy(calendar.TaxonomyCategory)), 2)
	e.TagIDs = someIDs(rng, termIDs(m.ofTaxonomy(calendar.TaxonomyTag)), 2)
	e.PostParent = 0
	if events := postIDs(m.ofKind(calendar.KindEvent)); len(events) > 0 && rng.IntN(4) == 0 {
		if p := pick(rng, events); p != e.ID {
			e.PostParent = p
		}
	}
}

func (w *randomWriter) randomTimes(e *calendar.PostRecord) {
	e.Start = randomInstant(w.rng, w.m.base, 60*24*time.Hour)
	e.End = e.Start.Add(time.Duration(w.rng.IntN(100)) * time.Hour)
}

func (w *randomWriter) created(p *calendar.PostRecord, want string, got *calendar.PostRecord) {
	w.t.Helper()
	exp := p.Clone()
	exp.ID, exp.Version = got.ID, 1
	exp.Slug = w.m.postSlug(p.Kind, want, got.ID)
	if d := diffPost(exp, got); d != "" {
		w.t.Fatalf("CreatePost (-want +got):\n%s", d)
	}
	w.m.posts[got.ID] = got
	w.m.postSlugs[got.Kind][got.Slug] = true
	w.m.everPosts[got.Kind] = append(w.m.everPosts[got.Kind], got.ID)
}

func (w *randomWriter) step() {
	t, r, m, rng := w.t, w.r, w.m, w.rng
	ctx := context.Background()
	events := m.ofKind(calendar.KindEvent)
	switch op := rng.IntN(100); {
	case op < 25 || len(events) == 0: // create an event
		p := newEvent(pick(rng, eventSlugs), t0)
		p.Status = pick(rng, allStatuses)
		w.randomTimes(p)
		w.randomLinks(p)
		w.created(p, p.Slug, mustCreatePost(t, r, p))
	case op < 32: // create a venue or an organizer
		p := newVenue(pick(rng, []string{"hall", "club"}))
		if rng.IntN(2) == 0 {
			p = newOrganizer(pick(rng, []string{"hall", "club"}))
		}
		p.Date = randomInstant(rng, m.base, 30*24*time.Hour)
		w.created(p, p.Slug, mustCreatePost(t, r, p))
	case op < 38: // create a term
		tr := newCategory(pick(rng, []string{"x", "y"}), 0)
		if rng.IntN(2) == 0 {
			tr = newTag(pick(rng, []string{"x", "y"}))
		} else if cats := m.ofTaxonomy(calendar.TaxonomyCategory); len(cats) > 0 && rng.IntN(2) == 0 {
			tr.Parent = pick(rng, cats).ID
		}
		got := mustCreateTerm(t, r, tr)
		exp := tr.Clone()
		exp.ID, exp.Version, exp.Slug = got.ID, 1, m.termSlug(tr.Taxonomy, tr.Slug, got.ID)
		if d := diffTerm(exp, got); d != "" {
			t.Fatalf("CreateTerm (-want +got):\n%s", d)
		}
		m.terms[got.ID] = got
		m.termSlugs[got.Taxonomy][got.Slug] = true
		m.everTerms[got.Taxonomy] = append(m.everTerms[got.Taxonomy], got.ID)
	case op < 68: // update an event: links, times, status, slug; sometimes stale
		up := pick(rng, events).Clone()
		switch rng.IntN(5) {
		case 0:
			w.randomLinks(up)
		case 1:
			w.randomTimes(up)
		case 2:
			up.Status = pick(rng, allStatuses)
		case 3:
			up.Slug = pick(rng, eventSlugs)
		case 4: // same start, an end that says nothing about it (or a sane one again)
			up.End = pick(rng, []time.Time{{}, up.Start.Add(-time.Hour), up.Start.Add(time.Hour)})
		}
		if rng.IntN(10) == 0 {
			up.Version--
			if _, err := r.UpdatePost(ctx, up); !errors.Is(err, calendar.ErrConflict) {
				t.Fatalf("stale UpdatePost: err = %v, want ErrConflict", err)
			}
			return
		}
		got := mustUpdatePost(t, r, up)
		exp := up.Clone()
		exp.Version++
		exp.Slug = m.postSlug(up.Kind, up.Slug, up.ID)
		if d := diffPost(exp, got); d != "" {
			t.Fatalf("UpdatePost (-want +got):\n%s", d)
		}
		m.posts[got.ID] = got
		m.postSlugs[got.Kind][got.Slug] = true
	case op < 73: // rename a term or move a category
		var all []*calendar.TermRecord
		for _, tr := range m.terms {
			all = append(all, tr)
		}
		if len(all) == 0 {
			return
		}
		slices.SortFunc(all, func(a, b *calendar.TermRecord) int { return int(a.ID - b.ID) })
		up := pick(rng, all).Clone()
		up.Slug = pick(rng, []string{"x", "y", "z"})
		got := mustUpdateTerm(t, r, up)
		if want := m.termSlug(up.Taxonomy, up.Slug, up.ID); got.Slug != want || got.Version != up.Version+1 {
			t.Fatalf("UpdateTerm stored slug %q version %d, want %q version %d", got.Slug, got.Version, want, up.Version+1)
		}
		m.terms[got.ID] = got
		m.termSlugs[got.Taxonomy][got.Slug] = true
	case op < 92: // delete a post of any kind
		all := slices.Concat(events, m.ofKind(calendar.KindVenue), m.ofKind(calendar.KindOrganizer))
		victim := pick(rng, all)
		if rng.IntN(8) == 0 {
			if err := r.DeletePost(ctx, victim.ID, victim.Version+1); !errors.Is(err, calendar.ErrConflict) {
				t.Fatalf("stale DeletePost: err = %v, want ErrConflict", err)
			}
			return
		}
		mustDeletePost(t, r, victim.ID, pick(rng, []int64{0, victim.Version}))
		m.deletePost(victim.ID)
	default: // delete a term
		var ids []int64
		for id := range m.terms {
			ids = append(ids, id)
		}
		if len(ids) == 0 {
			return
		}
		slices.Sort(ids)
		id := pick(rng, ids)
		if err := r.DeleteTerm(ctx, id, 0); err != nil {
			t.Fatalf("DeleteTerm(%d): %v", id, err)
		}
		m.deleteTerm(id)
	}
}

// ignoreModified: a driver may stamp the events a cascade rewrites.
var ignoreModified = cmpopts.IgnoreFields(calendar.PostRecord{}, "Modified")

// checkModel compares the repository with the model through every way in:
// ids, slugs, term lists and each index-backed list query.
func checkModel(t *testing.T, r calendar.Repository, m *model, rng *rand.Rand) {
	t.Helper()
	ctx := context.Background()
	for id, want := range m.posts {
		got, err := r.GetPost(ctx, id)
		if err != nil {
			t.Fatalf("GetPost(%d): %v", id, err)
		}
		if d := cmp.Diff(want, got, append(cmpOpts, ignoreModified)...); d != "" {
			t.Errorf("post %d (-model +repository):\n%s", id, d)
		}
	}
	for kind, slugs := range m.postSlugs {
		for slug := range slugs {
			var holder int64
			for _, p := range m.posts {
				if p.Kind == kind && p.Slug == slug {
					holder = p.ID
				}
			}
			got, err := r.PostBySlug(ctx, kind, slug)
			switch {
			case holder == 0 && !errors.Is(err, calendar.ErrNotFound):
				t.Errorf("PostBySlug(%s, %q) = %v, %v; want ErrNotFound (slug released)", kind, slug, got, err)
			case holder != 0 && (err != nil || got.ID != holder):
				t.Errorf("PostBySlug(%s, %q) = %v, %v; want post %d", kind, slug, got, err, holder)
			}
		}
	}
	for tax, slugs := range m.termSlugs {
		want := m.ofTaxonomy(tax)
		got, err := r.ListTerms(ctx, tax)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, cmpOpts...); d != "" {
			t.Errorf("ListTerms(%s) (-model +repository):\n%s", tax, d)
		}
		for slug := range slugs {
			var holder int64
			for _, tr := range want {
				if tr.Slug == slug {
					holder = tr.ID
				}
			}
			got, err := r.TermBySlug(ctx, tax, slug)
			switch {
			case holder == 0 && !errors.Is(err, calendar.ErrNotFound):
				t.Errorf("TermBySlug(%s, %q) = %v, %v; want ErrNotFound", tax, slug, got, err)
			case holder != 0 && (err != nil || got.ID != holder):
				t.Errorf("TermBySlug(%s, %q) = %v, %v; want term %d", tax, slug, got, err, holder)
			}
		}
	}

	events := m.ofKind(calendar.KindEvent)
	var queries []*calendar.PostQuery
	add := func(q calendar.PostQuery) { q.Kind = calendar.KindEvent; queries = append(queries, &q) }
	for _, id := range m.everPosts[calendar.KindVenue] {
		add(calendar.PostQuery{VenueIDs: []int64{id}})
		add(calendar.PostQuery{NotVenueIDs: []int64{id}})
	}
	for _, id := range m.everPosts[calendar.KindOrganizer] {
		add(calendar.PostQuery{OrganizerIDs: []int64{id}})
	}
	for _, id := range m.everTerms[calendar.TaxonomyCategory] {
		add(calendar.PostQuery{CategoryIDs: []int64{id}})
	}
	for _, id := range m.everTerms[calendar.TaxonomyTag] {
		add(calendar.PostQuery{TagIDs: []int64{id}})
	}
	for _, id := range m.everPosts[calendar.KindEvent] {
		add(calendar.PostQuery{PostParent: id})
	}
	for i := 0; i < 20; i++ {
		from := randomInstant(rng, m.base, 60*24*time.Hour)
		add(calendar.PostQuery{Start: calendar.TimeRange{From: from, To: from.Add(time.Duration(rng.IntN(240)) * time.Hour)}})
		add(calendar.PostQuery{End: calendar.TimeRange{From: from}, Start: calendar.TimeRange{To: from.Add(240 * time.Hour)}})
		add(calendar.PostQuery{End: calendar.TimeRange{To: from, ToExclusive: rng.IntN(2) == 0}})
		add(calendar.PostQuery{
			Start:       calendar.TimeRange{From: from},
			VenueIDs:    someIDs(rng, m.everPosts[calendar.KindVenue], 2),
			CategoryIDs: someIDs(rng, m.everTerms[calendar.TaxonomyCategory], 2),
			Visible:     calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}},
			Limit:       5,
		})
	}
	add(calendar.PostQuery{})
	for _, q := range queries {
		checkIDs(t, r, events, q)
	}
	for _, kind := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
		checkIDs(t, r, m.ofKind(kind), &calendar.PostQuery{Kind: kind})
	}
}

// checkIDs compares the ids and total of a list with the reference; the
// records themselves are compared by checkModel.
func checkIDs(t *testing.T, r calendar.Repository, all []*calendar.PostRecord, q *calendar.PostQuery) {
	t.Helper()
	page := mustList(t, r, q)
	ref := reference(all, q)
	want := postIDs(storage.Window(ref, q))
	if page.Total != len(ref) || !slices.Equal(postIDs(page.Records), want) {
		t.Errorf("query %s: total %d ids %v; want total %d ids %v", describe(q), page.Total, postIDs(page.Records), len(ref), want)
	}
}

// testRandomWrites: after a random mix of creates, updates (links, start
// instants, statuses, slugs) and deletes with their cascades, every lookup
// and every index-backed list agrees with an independent model.
func testRandomWrites(t *testing.T, r calendar.Repository) {
	rng := rand.New(rand.NewPCG(7, 8))
	m := newModel()
	w := &randomWriter{t: t, r: r, m: m, rng: rng}
	for i := 1; i <= 400; i++ {
		w.step()
		if i%100 == 0 {
			t.Run(fmt.Sprintf("after%d", i), func(t *testing.T) { checkModel(t, r, m, rng) })
		}
	}
	if len(m.ofKind(calendar.KindEvent)) < 10 {
		t.Errorf("the random mix left only %d events; it tests too little", len(m.ofKind(calendar.KindEvent)))
	}
}
