package calendar_test

import (
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

func TestLanguages(t *testing.T) {
	f := newFixture(t)
	ev, err := f.cal.CreateEvent(system, calendar.EventInput{Title: s("Jazz Night"), Description: s("Live music"),
		StartDate: s("2026-04-01 20:00"), EndDate: s("2026-04-01 23:00")}, calendar.WriteOptions{Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	// Add the French text: same record, same slug, same links.
	fr, err := f.cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Title: s("Soirée jazz")}, calendar.WriteOptions{Lang: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if fr.Title != "Soirée jazz" || fr.Slug != "jazz-night" || fr.Lang != "fr" {
		t.Fatalf("french write: %+v", fr)
	}
	// French description missing: falls back to the original (English).
	if fr.Description != "Live music" {
		t.Fatalf("fallback description = %q", fr.Description)
	}
	en, _ := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{Lang: "en"})
	if en.Title != "Jazz Night" {
		t.Fatalf("english title = %q", en.Title)
	}
	de, _ := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{Lang: "de"})
	if de.Title != "Jazz Night" || de.Lang != "en" {
		t.Fatalf("german falls back to the original, and says so: %q in %q", de.Title, de.Lang)
	}
	def, _ := f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{})
	if def.Title != "Jazz Night" || def.Lang != "en" {
		t.Fatalf("default language read: %+v", def)
	}
	// Search reads the requested language.
	for _, tc := range []struct {
		lang   calendar.Lang
		search string
		want   int
	}{{"fr", "soirée", 1}, {"en", "soirée", 0}, {"en", "night", 1}, {"fr", "night", 0}, {"de", "night", 1}, {"fr", "live", 1}} {
		p, err := f.cal.ListEvents(system, calendar.EventQuery{Search: tc.search, Lang: tc.lang})
		if err != nil || p.Total != tc.want {
			t.Errorf("search %q in %s: total %v (%v), want %d", tc.search, tc.lang, p.Total, err, tc.want)
		}
	}
	// Terms, venues and organizers translate too.
	tm := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: s("Concert")})
	if _, err := f.cal.UpdateTerm(system, calendar.TaxonomyCategory, tm.ID, calendar.TermInput{Name: s("Konzert")}, calendar.WriteOptions{Lang: "de"}); err != nil {
		t.Fatal(err)
	}
	gotDE, _ := f.cal.GetTerm(system, calendar.TaxonomyCategory, tm.ID, calendar.ReadOptions{Lang: "de"})
	gotEN, _ := f.cal.GetTerm(system, calendar.TaxonomyCategory, tm.ID, calendar.ReadOptions{Lang: "en"})
	gotES, _ := f.cal.GetTerm(system, calendar.TaxonomyCategory, tm.ID, calendar.ReadOptions{Lang: "es"})
	if gotES.Name != "Concert" || gotES.Lang != "en" || gotDE.Lang != "de" {
		t.Fatalf("term languages: es %q in %q, de in %q", gotES.Name, gotES.Lang, gotDE.Lang)
	}
	if gotDE.Name != "Konzert" || gotEN.Name != "Concert" {
		t.Fatalf("term names: de %q en %q", gotDE.Name, gotEN.Name)
	}
	v, err := f.cal.CreateVenue(system, calendar.VenueInput{Name: s("Salle Pleyel")}, calendar.WriteOptions{Lang: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := f.cal.GetVenue(system, calendar.ByID(v.ID), calendar.ReadOptions{Lang: "es"}); got.Name != "Salle Pleyel" {
		t.Fatalf("venue fallback to its original language: %q", got.Name)
	}
	// An unsupported language is refused on every kind of operation.
	_, err = f.cal.GetEvent(system, calendar.ByID(ev.ID), calendar.ReadOptions{Lang: "tlh"})
	wantParams(t, err, "translation_language")
	_, err = f.cal.CreateVenue(system, calendar.VenueInput{Name: s("x")}, calendar.WriteOptions{Lang: "zz"})
	wantParams(t, err, "translation_language")
	_, err = f.cal.ListTerms(system, calendar.TaxonomyTag, calendar.TermQuery{Lang: "klingon"})
	wantParams(t, err, "translation_language")
}

func TestDefaultLanguageOption(t *testing.T) {
	f := newFixture(t, calendar.WithDefaultLanguage("pt-br"))
	ev := f.mustEvent(system, eventIn("Festa", "2026-04-01 20:00", "2026-04-01 23:00"))
	if ev.Lang != "pt-br" {
		t.Fatalf("lang = %s", ev.Lang)
	}
	rec, _ := f.repo.GetPost(system, ev.ID)
	if rec.Title["pt-br"] != "Festa" || rec.Lang != "pt-br" {
		t.Fatalf("stored texts = %v (%s)", rec.Title, rec.Lang)
	}
}
