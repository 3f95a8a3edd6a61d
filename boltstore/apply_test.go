package boltstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// Two goroutines racing to ensure one new venue, organizer, category and
// tag name, many rounds over: each round makes one record of each, both
// writers get it, and the file stays consistent.
func TestConcurrentEnsureOneRecord(t *testing.T) {
	s := openTemp(t, WithNoSync())
	ctx := context.Background()
	const rounds = 40
	for round := range rounds {
		name := fmt.Sprintf("Race %d", round)
		var wg sync.WaitGroup
		results := make([]*calendar.WriteResult, 2)
		errs := make([]error, 2)
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[w], errs[w] = s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
					{Op: calendar.OpEnsurePost, Post: named(calendar.KindVenue, "  "+strings.ToUpper(name)), Now: base},
					{Op: calendar.OpEnsurePost, Post: named(calendar.KindOrganizer, name), Now: base},
					{Op: calendar.OpEnsureTerm, Term: namedTerm(calendar.TaxonomyCategory, name, 0)},
					{Op: calendar.OpEnsureTerm, Term: namedTerm(calendar.TaxonomyTag, strings.ToLower(name), 0)},
				}})
			}()
		}
		wg.Wait()
		for w, err := range errs {
			if err != nil {
				t.Fatalf("round %d writer %d: %v", round, w, err)
			}
		}
		created := 0
		for i := range 4 {
			a, b := results[0].Steps[i], results[1].Steps[i]
			if recID(a) != recID(b) {
				t.Errorf("round %d step %d: the writers got records %d and %d", round, i, recID(a), recID(b))
			}
			if a.Found != !b.Found {
				t.Errorf("round %d step %d: found %v and %v; want one create and one reuse", round, i, a.Found, b.Found)
			}
			if !a.Found {
				created++
			}
		}
		if created != 4 && created != 0 { // one writer created all four (the other found them all)
			t.Errorf("round %d: the first writer created %d of 4 records", round, created)
		}
		for _, k := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
			page, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: k, Name: name})
			if err != nil || page.Total != 1 {
				t.Fatalf("round %d: %d %ss named %q (%v)", round, page.Total, k, name, err)
			}
		}
		for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
			if terms, err := s.TermsByName(ctx, tax, name); err != nil || len(terms) != 1 {
				t.Fatalf("round %d: %d %s terms named %q (%v)", round, len(terms), tax, name, err)
			}
		}
	}
	mustCheck(t, s)
}

func recID(r calendar.StepResult) int64 {
	if r.Post != nil {
		return r.Post.ID
	}
	if r.Term != nil {
		return r.Term.ID
	}
	return 0
}

func named(k calendar.Kind, name string) *calendar.PostRecord {
	p := post(k, "", base)
	p.Slug = calendar.NameKey(name)
	p.Title = calendar.Text{"en": name}
	return p
}

func namedTerm(tax calendar.Taxonomy, name string, parent int64) *calendar.TermRecord {
	return &calendar.TermRecord{Taxonomy: tax, Slug: strings.ReplaceAll(calendar.NameKey(name), " ", "-"), Lang: "en",
		Name: calendar.Text{"en": name}, Parent: parent}
}

// Names and UIDs longer than an index key keeps verbatim are found, kept
// unique and checked like short ones.
func TestLongNamesAndUIDs(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	long := strings.Repeat("Très longue salle ", 40) // ~700 bytes
	longer := long + "bis"                           // same first 256 bytes
	v1, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{{Op: calendar.OpEnsurePost, Post: named(calendar.KindVenue, long), Now: base}}})
	if err != nil {
		t.Fatal(err)
	}
	v2, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{{Op: calendar.OpEnsurePost, Post: named(calendar.KindVenue, longer), Now: base}}})
	if err != nil {
		t.Fatal(err)
	}
	if v2.Steps[0].Found || v2.Steps[0].Post.ID == v1.Steps[0].Post.ID {
		t.Fatalf("a name sharing the first 256 bytes of another was taken for it")
	}
	again, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{{Op: calendar.OpEnsurePost, Post: named(calendar.KindVenue, strings.ToUpper(long)), Now: base}}})
	if err != nil || !again.Steps[0].Found || again.Steps[0].Post.ID != v1.Steps[0].Post.ID {
		t.Fatalf("ensure of a long name again: %+v, %v", again, err)
	}
	mustCreateTerm(t, s, namedTerm(calendar.TaxonomyTag, long, 0))
	if _, err := s.CreateTerm(ctx, namedTerm(calendar.TaxonomyTag, " "+long, 0)); !errors.Is(err, calendar.ErrNameTaken) {
		t.Errorf("second tag with one long name: %v", err)
	}
	mustCreateTerm(t, s, namedTerm(calendar.TaxonomyTag, longer, 0))

	uid := strings.Repeat("x", 300) + "@example.com"
	e := event("uid", base)
	e.UID = uid
	got := mustCreate(t, s, e)
	e2 := event("uid2", base)
	e2.UID = strings.Repeat("x", 300) + "@example.org"
	mustCreate(t, s, e2)
	e3 := event("uid3", base)
	e3.UID = uid
	if _, err := s.CreatePost(ctx, e3); !errors.Is(err, calendar.ErrConflict) {
		t.Errorf("second event with one long UID: %v", err)
	}
	if p, err := s.PostByUID(ctx, calendar.KindEvent, uid); err != nil || p.ID != got.ID {
		t.Errorf("PostByUID of a long UID: %v, %v", p, err)
	}
	mustCheck(t, s)
}

// Check notices a name or UID index that disagrees with the records.
func TestCheckFindsNameAndUIDDamage(t *testing.T) {
	s := openTemp(t)
	v := mustCreate(t, s, named(calendar.KindVenue, "Hall"))
	cat := mustCreateTerm(t, s, namedTerm(calendar.TaxonomyCategory, "Music", 0))
	e := event("e", base)
	e.UID = "e@example.com"
	ev := mustCreate(t, s, e)
	mustCheck(t, s)
	for _, tc := range []struct {
		name   string
		damage func(tx *bolt.Tx) error
	}{
		{"venue name entry missing", func(tx *bolt.Tx) error {
			return tx.Bucket(bPostNames).Delete(nameEntryKey(byte(calendar.KindVenue), "hall", v.ID))
		}},
		{"orphan venue name entry", func(tx *bolt.Tx) error {
			return tx.Bucket(bPostNames).Put(nameEntryKey(byte(calendar.KindVenue), "ghost", v.ID), encodeSummary(v))
		}},
		{"stale summary in a name entry", func(tx *bolt.Tx) error {
			old := v.Clone()
			old.Status = calendar.StatusTrash
			return tx.Bucket(bPostNames).Put(nameEntryKey(byte(calendar.KindVenue), "hall", v.ID), encodeSummary(old))
		}},
		{"term name under another parent", func(tx *bolt.Tx) error {
			return tx.Bucket(bTermNames).Put(nameEntryKey(byte(calendar.KindCategory), "music", cat.ID), storage.IDKey(99))
		}},
		{"term name entry missing", func(tx *bolt.Tx) error {
			return tx.Bucket(bTermNames).Delete(nameEntryKey(byte(calendar.KindCategory), "music", cat.ID))
		}},
		{"UID missing", func(tx *bolt.Tx) error {
			return tx.Bucket(bPostUIDs).Delete(uidKey(calendar.KindEvent, "e@example.com"))
		}},
		{"UID held by another id", func(tx *bolt.Tx) error {
			return tx.Bucket(bPostUIDs).Put(uidKey(calendar.KindEvent, "e@example.com"), storage.IDKey(ev.ID+1))
		}},
		{"orphan UID", func(tx *bolt.Tx) error {
			return tx.Bucket(bPostUIDs).Put(uidKey(calendar.KindEvent, "nobody"), storage.IDKey(ev.ID))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Damage in a transaction that is then rolled back, so each
			// case starts from the healthy file.
			err := s.db.Update(func(tx *bolt.Tx) error {
				if err := tc.damage(tx); err != nil {
					return err
				}
				if err := check(context.Background(), tx); !errors.Is(err, ErrInconsistent) {
					return fmt.Errorf("check after damage: %v, want ErrInconsistent", err)
				}
				return errRollback
			})
			if !errors.Is(err, errRollback) {
				t.Fatal(err)
			}
		})
	}
	mustCheck(t, s)
}

var errRollback = errors.New("roll back")

// A venue list by name reads the holders of the name, not the venues.
func TestNameQueryUsesIndex(t *testing.T) {
	s := openTemp(t, WithNoSync())
	ctx := context.Background()
	const n = 3000
	steps := make([]calendar.Step, 0, n)
	for i := range n {
		steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: named(calendar.KindVenue, fmt.Sprint("Venue ", i))})
	}
	if _, err := s.Apply(ctx, &calendar.Write{Steps: steps}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		mustCreate(t, s, named(calendar.KindVenue, "Town Hall"))
	}
	q := &calendar.PostQuery{Kind: calendar.KindVenue, Name: "town hall", Limit: 2}
	var page *calendar.PostPage
	var nsteps int
	if err := s.db.View(func(tx *bolt.Tx) error {
		l := newLister(ctx, tx, q)
		var err error
		page, err = l.run()
		nsteps = l.steps
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if page.Total != 3 || len(page.Records) != 2 || page.Records[0].ID != n+3 {
		t.Fatalf("page: total %d, ids %v", page.Total, ids(page.Records))
	}
	if nsteps > 10 {
		t.Errorf("%d steps to list 3 venues of one name among %d", nsteps, n)
	}
}

// An Apply on a closed store reports the store unavailable; one cancelled
// before it starts writes nothing.
func TestApplyClosedAndCancelled(t *testing.T) {
	s := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := &calendar.Write{Steps: []calendar.Step{{Op: calendar.OpCreatePost, Post: event("x", base)}}}
	if _, err := s.Apply(ctx, w); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Apply: %v", err)
	}
	if page, _ := s.ListPosts(context.Background(), &calendar.PostQuery{Kind: calendar.KindEvent}); page.Total != 0 {
		t.Errorf("a cancelled Apply stored %d events", page.Total)
	}
	s.Close()
	if _, err := s.Apply(context.Background(), w); !errors.Is(err, calendar.ErrUnavailable) {
		t.Errorf("Apply after Close: %v", err)
	}
}

// A category delete moves its children up without a name check: the delete
// goes through even when the level they join holds one of their names, both
// terms stay editable, and neither can take a new clashing name.
func TestDeleteMovesChildrenOntoAHeldName(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	top := mustCreateTerm(t, s, namedTerm(calendar.TaxonomyCategory, "Jazz", 0))
	music := mustCreateTerm(t, s, namedTerm(calendar.TaxonomyCategory, "Music", 0))
	sub := mustCreateTerm(t, s, namedTerm(calendar.TaxonomyCategory, "Jazz", music.ID))
	if err := s.DeleteTerm(ctx, music.ID, 0); err != nil {
		t.Fatalf("delete of a parent whose child's name is held one level up: %v", err)
	}
	moved, err := s.GetTerm(ctx, sub.ID)
	if err != nil || moved.Parent != 0 {
		t.Fatalf("child after the delete: %+v, %v", moved, err)
	}
	mustCheck(t, s)
	moved.Description = calendar.Text{"en": "still editable"}
	if _, err := s.UpdateTerm(ctx, moved); err != nil {
		t.Errorf("update of the moved child: %v", err)
	}
	other := mustCreateTerm(t, s, namedTerm(calendar.TaxonomyCategory, "Blues", 0))
	other.Name = calendar.Text{"en": "JAZZ"}
	var taken *calendar.NameTakenError
	if _, err := s.UpdateTerm(ctx, other); !errors.As(err, &taken) || taken.ID != top.ID {
		t.Errorf("renaming a third term to the doubled name: %v", err)
	}
	if got, _ := s.TermsByName(ctx, calendar.TaxonomyCategory, "jazz"); len(got) != 2 {
		t.Errorf("%d terms named jazz, want the two", len(got))
	}
}
