package calendar_test

import (
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

func importedEvent(id int64, uid, title string) *calendar.PostRecord {
	return &calendar.PostRecord{ID: id, Kind: calendar.KindEvent, UID: uid, Status: calendar.StatusPublish, Author: 3,
		Slug: "ev-" + title, Lang: "en", Title: calendar.Text{"en": title},
		Date: testNow.Add(-48 * time.Hour), Modified: testNow.Add(-24 * time.Hour),
		Start: testNow.Add(24 * time.Hour), End: testNow.Add(26 * time.Hour), TimeZone: "Europe/Paris"}
}

func importPosts(t *testing.T, f *fixture, keep bool, recs ...*calendar.PostRecord) []calendar.ImportResult {
	t.Helper()
	res, err := f.cal.ImportPosts(system, recs, calendar.ImportOptions{KeepIDs: keep})
	if err != nil {
		t.Fatalf("ImportPosts: %v", err)
	}
	return res
}

func TestImportNeedsSystem(t *testing.T) {
	f := newFixture(t)
	for _, p := range []calendar.Principal{admin, anonymous} {
		if _, err := f.cal.ImportPosts(as(p), []*calendar.PostRecord{importedEvent(5, "x", "a")}, calendar.ImportOptions{}); err == nil {
			t.Errorf("%s imported posts", p.Role)
		}
		if _, err := f.cal.ImportTerms(as(p), []*calendar.TermRecord{{Taxonomy: calendar.TaxonomyTag, Name: calendar.Text{"en": "t"}}}, calendar.ImportOptions{}); err == nil {
			t.Errorf("%s imported terms", p.Role)
		}
		if _, err := f.cal.IsEmpty(as(p)); err == nil {
			t.Errorf("%s asked IsEmpty", p.Role)
		}
	}
}

// TestImportKeepsIDsAndUpdatesByUID: ids are kept on request, a second
// import of the same UID updates (keeping the calendar's id and what the
// import cannot carry) or changes nothing at all.
func TestImportKeepsIDsAndUpdatesByUID(t *testing.T) {
	f := newFixture(t)
	if empty, err := f.cal.IsEmpty(system); err != nil || !empty {
		t.Fatalf("IsEmpty on a new calendar: %v %v", empty, err)
	}
	venue := &calendar.PostRecord{ID: 40, Kind: calendar.KindVenue, UID: "site?id=40", Title: calendar.Text{"en": "Hall"}, Slug: "hall", City: "Lyon"}
	ev := importedEvent(41, "site?id=41", "concert")
	ev.VenueIDs = []int64{40}
	res := importPosts(t, f, true, venue, ev)
	for i, want := range []int64{40, 41} {
		if res[i].Action != calendar.ImportCreated || res[i].Post.ID != want || res[i].IDTaken {
			t.Fatalf("result %d: %+v", i, res[i])
		}
	}
	if empty, _ := f.cal.IsEmpty(system); empty {
		t.Error("IsEmpty after an import")
	}
	got, err := f.cal.GetEvent(system, calendar.ByID(41), calendar.ReadOptions{})
	if err != nil || got.Author != 3 || !got.Modified.Equal(ev.Modified) || got.Slug != "ev-concert" || len(got.Venues) != 1 {
		t.Fatalf("imported event: %+v, %v", got, err)
	}

	// Translations and the password added in eventcal survive a sync.
	if _, err := f.cal.UpdateEvent(system, calendar.ByID(41), calendar.EventInput{Title: s("concert FR"), Password: s("pw")},
		calendar.WriteOptions{Lang: "fr"}); err != nil {
		t.Fatal(err)
	}
	res = importPosts(t, f, false, importedEvent(41, "site?id=41", "concert"))
	if res[0].Action != calendar.ImportUpdated { // the venue link is gone at the "site"
		t.Fatalf("changed record: %+v", res[0])
	}
	again := importPosts(t, f, false, importedEvent(41, "site?id=41", "concert"))
	if again[0].Action != calendar.ImportUnchanged || again[0].Post.Version != res[0].Post.Version {
		t.Fatalf("same record again: %+v (version %d after %d)", again[0], again[0].Post.Version, res[0].Post.Version)
	}
	p := res[0].Post
	if p.Title["fr"] != "concert FR" || p.Title["en"] != "concert" || p.Password != "pw" || len(p.VenueIDs) != 0 {
		t.Errorf("merged record: %+v", p)
	}

	// A new UID whose id is taken gets the next id, and says so.
	res = importPosts(t, f, true, importedEvent(41, "site?id=other", "other"))
	if res[0].Action != calendar.ImportCreated || !res[0].IDTaken || res[0].Post.ID == 41 {
		t.Errorf("held id: %+v", res[0])
	}
	// One UID twice in a batch: the later record is stored, once.
	res = importPosts(t, f, false, importedEvent(0, "site?id=dup", "first"), importedEvent(0, "site?id=dup", "second"))
	if res[0].Post == nil || res[0].Post != res[1].Post || res[1].Post.Title["en"] != "second" || res[1].Action != calendar.ImportCreated {
		t.Errorf("a UID twice in a batch: %+v / %+v", res[0], res[1])
	}
	// Without KeepIDs, ids come from the sequence.
	res = importPosts(t, f, false, importedEvent(900, "site?id=900", "seq"))
	if res[0].Post.ID == 900 {
		t.Errorf("id kept without KeepIDs")
	}
}

// TestImportRefusesBadRecords: each bad record fails with the fields named,
// the good ones of the same batch are stored.
func TestImportRefusesBadRecords(t *testing.T) {
	f := newFixture(t)
	bad := func(change func(*calendar.PostRecord)) *calendar.PostRecord {
		r := importedEvent(0, "", "bad")
		change(r)
		return r
	}
	recs := []*calendar.PostRecord{
		bad(func(r *calendar.PostRecord) { r.End = r.Start.Add(-time.Hour) }),
		bad(func(r *calendar.PostRecord) { r.TimeZone = "Mars/Olympus" }),
		bad(func(r *calendar.PostRecord) { r.Title = calendar.Text{"en": "  "} }),
		bad(func(r *calendar.PostRecord) { r.Status = "published" }),
		bad(func(r *calendar.PostRecord) { r.Website = "javascript:alert(1)" }),
		bad(func(r *calendar.PostRecord) { r.VenueIDs = []int64{12345} }),
		bad(func(r *calendar.PostRecord) { r.Author = 99 }), // not in the user directory
		importedEvent(0, "good", "good"),
		{Kind: calendar.KindOrganizer, Title: calendar.Text{"en": "O"}, Email: "nobody"},
		{Kind: calendar.KindVenue, Title: calendar.Text{"en": "V"}, GeoLat: new(float64)},
	}
	res := importPosts(t, f, false, recs...)
	want := [][]string{{"end_date"}, {"timezone"}, {"title"}, {"status"}, {"website"}, {"venue"}, {"author"}, nil, {"email"}, {"geo_lat"}}
	for i, names := range want {
		if names == nil {
			if res[i].Action != calendar.ImportCreated {
				t.Errorf("good record: %+v", res[i])
			}
			continue
		}
		if res[i].Action != calendar.ImportFailed {
			t.Errorf("record %d stored: %+v", i, res[i])
			continue
		}
		wantParams(t, res[i].Err, names...)
	}
}

// TestImportTerms: terms are matched by slug, parents must exist, names
// stay unique per level and a parent cannot be a descendant.
func TestImportTerms(t *testing.T) {
	f := newFixture(t)
	cat := func(id int64, slug, name string, parent int64) *calendar.TermRecord {
		return &calendar.TermRecord{ID: id, Taxonomy: calendar.TaxonomyCategory, Slug: slug, Name: calendar.Text{"": name}, Parent: parent}
	}
	res, err := f.cal.ImportTerms(system, []*calendar.TermRecord{cat(7, "music", "Music", 0), cat(9, "jazz", "Jazz", 7),
		cat(11, "jazz2", "Jazz", 7), cat(12, "orphan", "Orphan", 500)}, calendar.ImportOptions{KeepIDs: true})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Term.ID != 7 || res[1].Term.ID != 9 || res[1].Term.Parent != 7 || res[0].Term.Name["en"] != "Music" {
		t.Fatalf("created: %+v %+v", res[0], res[1])
	}
	wantErr(t, res[2].Err, calendar.CodeInvalid, "term_exists")
	wantParams(t, res[3].Err, "parent")

	// Same slug again: updated in place, or unchanged.
	res, err = f.cal.ImportTerms(system, []*calendar.TermRecord{cat(70, "music", "Music!", 0), cat(9, "jazz", "Jazz", 7)}, calendar.ImportOptions{KeepIDs: true})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Action != calendar.ImportUpdated || res[0].Term.ID != 7 || res[1].Action != calendar.ImportUnchanged {
		t.Errorf("second import: %+v %+v", res[0], res[1])
	}
	// A cycle is refused.
	res, _ = f.cal.ImportTerms(system, []*calendar.TermRecord{cat(7, "music", "Music!", 9)}, calendar.ImportOptions{})
	wantParams(t, res[0].Err, "parent")
	// Tags have no parent.
	res, _ = f.cal.ImportTerms(system, []*calendar.TermRecord{{Taxonomy: calendar.TaxonomyTag, Name: calendar.Text{"en": "t"}, Parent: 7}}, calendar.ImportOptions{})
	wantParams(t, res[0].Err, "parent")
}
