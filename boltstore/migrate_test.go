package boltstore

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"
)

// layout1File copies testdata/layout1.db.gz, a file written by the layout 1
// code (see testdata/README.md), to a fresh path.
func layout1File(t *testing.T) string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "layout1.db.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// stampOf reads the format and layout stamp and the format of post 1 with
// bbolt directly.
func stampOf(t *testing.T, path string) (format, layout uint64, recordFormat int) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bMeta)
		format, _ = readU64(meta.Get(kFormat))
		layout, _ = readU64(meta.Get(kLayout))
		recordFormat = storage.RecordFormat(tx.Bucket(bPosts).Get(storage.IDKey(1)))
		return nil
	})
	return format, layout, recordFormat
}

// TestMigrateLayout1 opens a file written by the layout 1 code: Open
// migrates it in place, every record reads back as written, the name and
// UID indexes answer, Check is clean, and the sequences go on.
func TestMigrateLayout1(t *testing.T) {
	path := layout1File(t)
	if f, l, rf := stampOf(t, path); f != 1 || l != 1 || rf != 1 {
		t.Fatalf("golden file stamp: format %d layout %d record format %d; want 1 1 1", f, l, rf)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open of a layout 1 file: %v", err)
	}
	ctx := context.Background()
	mustCheck(t, s)

	// The records as the generator wrote them.
	t0 := time.Date(2026, 5, 4, 19, 30, 0, 0, time.UTC)
	venue := func(id int64, slug, name string, st calendar.Status, author int64) *calendar.PostRecord {
		return &calendar.PostRecord{ID: id, Kind: calendar.KindVenue, Status: st, Author: author, Version: 1,
			Date: t0.Add(-time.Hour), Modified: t0.Add(-time.Hour), Slug: slug, Lang: "en", Title: calendar.Text{"en": name}, City: "Lyon"}
	}
	wantPosts := []*calendar.PostRecord{
		venue(1, "town-hall", "Town Hall", calendar.StatusPublish, 1),
		venue(2, "town-hall-draft", "town  hall", calendar.StatusDraft, 9),
		venue(3, "old-hall", "Old Hall", calendar.StatusTrash, 1),
		{ID: 4, Kind: calendar.KindOrganizer, Status: calendar.StatusPublish, Author: 1, Version: 1, Date: t0, Modified: t0,
			Slug: "big-org", Lang: "fr", Title: calendar.Text{"fr": "Grande Org", "en": "Big Org"}, Email: "o@example.com"},
		{ID: 5, Kind: calendar.KindEvent, Status: calendar.StatusPublish, Author: 1, Version: 1, Date: t0, Modified: t0,
			Slug: "concert", Lang: "en", Title: calendar.Text{"en": "Concert"}, Start: t0, End: t0.Add(2 * time.Hour), TimeZone: "UTC",
			Cost: []string{"5"}, VenueIDs: []int64{1}, OrganizerIDs: []int64{4}, CategoryIDs: []int64{2}, TagIDs: []int64{5}},
		{ID: 7, Kind: calendar.KindEvent, Status: calendar.StatusPublish, Author: 1, Version: 1, Date: t0, Modified: t0,
			Slug: "encore", Lang: "en", Title: calendar.Text{"en": "Encore"}, Start: t0.Add(2 * time.Hour), End: t0.Add(3 * time.Hour),
			TimeZone: "UTC", PostParent: 5, VenueIDs: []int64{2}, Featured: true},
	}
	for _, want := range wantPosts {
		got, err := s.GetPost(ctx, want.ID)
		if err != nil {
			t.Fatalf("post %d: %v", want.ID, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("post %d after migration (-want +got):\n%s", want.ID, d)
		}
	}
	if _, err := s.GetPost(ctx, 6); !errors.Is(err, calendar.ErrNotFound) {
		t.Errorf("post 6 was deleted before the migration: %v", err)
	}
	term := func(id int64, tax calendar.Taxonomy, slug, name string, parent int64) *calendar.TermRecord {
		return &calendar.TermRecord{ID: id, Taxonomy: tax, Version: 1, Slug: slug, Lang: "en", Parent: parent, Name: calendar.Text{"en": name}}
	}
	wantTerms := []*calendar.TermRecord{
		term(1, calendar.TaxonomyCategory, "music", "Music", 0),
		term(2, calendar.TaxonomyCategory, "jazz", "Jazz", 1),
		term(3, calendar.TaxonomyCategory, "jazz-top", "Jazz", 0),
		term(4, calendar.TaxonomyCategory, "music-2", "MUSIC", 0),
		term(5, calendar.TaxonomyTag, "late", "Late", 0),
		term(6, calendar.TaxonomyTag, "unnamed", "", 0),
	}
	for _, want := range wantTerms {
		got, err := s.GetTerm(ctx, want.ID)
		if err != nil {
			t.Fatalf("term %d: %v", want.ID, err)
		}
		if d := cmp.Diff(want, got, cmpEmpty); d != "" {
			t.Errorf("term %d after migration (-want +got):\n%s", want.ID, d)
		}
	}

	// The indexes layout 1 did not have were built.
	for _, tc := range []struct {
		tax  calendar.Taxonomy
		name string
		want []int64
	}{
		{calendar.TaxonomyCategory, "music", []int64{1, 4}}, // a duplicate layout 1 allowed
		{calendar.TaxonomyCategory, " JAZZ", []int64{2, 3}},
		{calendar.TaxonomyTag, "late", []int64{5}},
		{calendar.TaxonomyTag, "music", nil},
	} {
		got, err := s.TermsByName(ctx, tc.tax, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if ids := termIDsOf(got); !cmp.Equal(ids, tc.want, cmpEmpty) {
			t.Errorf("TermsByName(%s, %q) = %v, want %v", tc.tax, tc.name, ids, tc.want)
		}
	}
	page, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindVenue, Name: "TOWN HALL"})
	if err != nil || !cmp.Equal(ids(page.Records), []int64{2, 1}) {
		t.Errorf("venues named town hall: %v, %v; want [2 1]", ids(page.Records), err)
	}
	public := calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}
	res, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Lang: "en", Title: calendar.Text{"en": "town hall"}}, Visible: public, Now: t0},
		{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindOrganizer, Lang: "fr", Title: calendar.Text{"fr": "grande org"}}, Visible: public, Now: t0},
		{Op: calendar.OpEnsureTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Lang: "en", Name: calendar.Text{"en": "LATE"}}},
		{Op: calendar.OpCreatePost, Post: &calendar.PostRecord{Kind: calendar.KindEvent, Lang: "en", Slug: "after", Start: t0, End: t0,
			VenueIDs: []int64{calendar.StepRef(0)}, OrganizerIDs: []int64{calendar.StepRef(1)}, TagIDs: []int64{calendar.StepRef(2)}, UID: "after@example"}},
		{Op: calendar.OpCreateTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Lang: "en", Slug: "new", Name: calendar.Text{"en": "New"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Steps; r[0].Post.ID != 1 || !r[0].Found || r[1].Post.ID != 4 || !r[1].Found || r[2].Term.ID != 5 || !r[2].Found {
		t.Errorf("ensures on migrated names: %+v", r[:3])
	}
	if id := res.Steps[3].Post.ID; id != 8 {
		t.Errorf("first post id after migration = %d, want 8 (the sequence goes on)", id)
	}
	if id := res.Steps[4].Term.ID; id != 7 {
		t.Errorf("first term id after migration = %d, want 7", id)
	}
	// A name a level held twice before layout 2 stays: both terms can be
	// edited, but no term takes a name that is held at its level.
	dup, _ := s.GetTerm(ctx, 4)
	dup.Description = calendar.Text{"en": "edited"}
	if _, err := s.UpdateTerm(ctx, dup); err != nil {
		t.Errorf("update of a term whose name its level held twice before layout 2: %v", err)
	}
	jazz, _ := s.GetTerm(ctx, 3)
	jazz.Name = calendar.Text{"en": "Music"}
	var taken *calendar.NameTakenError
	if _, err := s.UpdateTerm(ctx, jazz); !errors.As(err, &taken) || taken.ID != 1 {
		t.Errorf("renaming a term to a name its level holds: %v", err)
	}
	sub, _ := s.GetTerm(ctx, 2) // "Jazz" under 1; "Jazz" (3) is at the top level
	sub.Parent = 0
	if _, err := s.UpdateTerm(ctx, sub); !errors.As(err, &taken) || taken.ID != 3 {
		t.Errorf("moving a term to a level holding its name: %v", err)
	}
	mustCheck(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if f, l, rf := stampOf(t, path); f != storage.FormatVersion || l != LayoutVersion || rf != storage.FormatVersion {
		t.Errorf("stamp after migration: format %d layout %d record format %d", f, l, rf)
	}
	// Reopening does not migrate again and finds everything.
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustCheck(t, s)
	if p, err := s.PostByUID(ctx, calendar.KindEvent, "after@example"); err != nil || p.ID != 8 {
		t.Errorf("after reopen: PostByUID = %v, %v", p, err)
	}
}

// A migration that fails (here: an undecodable record) leaves the file as it
// was and says why.
func TestMigrateLayout1FailureChangesNothing(t *testing.T) {
	path := layout1File(t)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bPosts).Put(storage.IDKey(3), []byte("\x01{not json"))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open migrated a file holding an undecodable record")
	}
	if !strings.Contains(err.Error(), "layout 1") || !strings.Contains(err.Error(), "post 3") {
		t.Errorf("error %q does not say what failed", err)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("a failed migration changed the file")
	}
	if f, l, _ := stampOf(t, path); f != 1 || l != 1 {
		t.Errorf("a failed migration changed the stamp to %d/%d", f, l)
	}
}

// The layout keys records by the numeric Kind (slug, order and name keys
// begin with it): renumbering the kinds would misread every file.
func TestLayoutKindNumbers(t *testing.T) {
	for k, want := range map[calendar.Kind]byte{
		calendar.KindEvent: 1, calendar.KindVenue: 2, calendar.KindOrganizer: 3, calendar.KindCategory: 4, calendar.KindTag: 5,
	} {
		if byte(k) != want {
			t.Errorf("%s is %d; the bolt layout stores %d", k, byte(k), want)
		}
	}
}

var cmpEmpty = cmp.FilterValues(func(a, b any) bool { return isEmpty(a) && isEmpty(b) }, cmp.Comparer(func(any, any) bool { return true }))

func isEmpty(v any) bool {
	switch v := v.(type) {
	case []int64:
		return len(v) == 0
	case calendar.Text:
		return len(v) == 0
	}
	return false
}

func termIDsOf(ts []*calendar.TermRecord) []int64 {
	var out []int64
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}
