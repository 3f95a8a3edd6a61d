package calendar_test

import (
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

func TestFoldSearch(t *testing.T) {
	for in, want := range map[string]string{
		"Café":           "cafe",
		"Cafe\u0301":     "cafe", // decomposed é
		"STRAßE":         "strasse",
		"Ærø":            "aero",
		"東京 Jazz":        "東京 jazz",
		"ПРИВЕТ":         "привет",
		"already":        "already",
		"Ça VA? Øre!":    "ca va? ore!",
		"नमस्ते":         "नमस्ते", // marks after non-Latin letters stay
		"x\u0301 \u0301": "x \u0301",
	} {
		if got := calendar.FoldSearch(in); got != want {
			t.Errorf("FoldSearch(%q) = %q, want %q", in, got, want)
		}
	}
}

// Search is case- and accent-insensitive, and the words of one search may
// match different fields (name, email, …).
func TestSearchFoldsAccentsAndCrossesFields(t *testing.T) {
	f := newFixture(t)
	f.mustEvent(system, calendar.EventInput{Title: calendar.Some("Café concert"), Description: calendar.Some("Piano à l'Opéra"),
		Status: calendar.Some(calendar.StatusPublish), StartDate: calendar.Some("2026-04-01 20:00"), EndDate: calendar.Some("2026-04-01 22:00")})
	f.mustEvent(system, calendar.EventInput{Title: calendar.Some("Other"), Status: calendar.Some(calendar.StatusPublish),
		StartDate: calendar.Some("2026-04-01 20:00"), EndDate: calendar.Some("2026-04-01 22:00")})
	for _, q := range []string{"cafe", "CAFÉ", "cafe opera", "Cafe\u0301 piano"} {
		page, err := f.cal.ListEvents(system, calendar.EventQuery{StartDate: "2026-01-01", Search: q})
		if err != nil || page.Total != 1 {
			t.Errorf("event search %q: total %v err %v, want 1", q, page, err)
		}
	}
	f.mustOrganizer(system, calendar.OrganizerInput{Name: calendar.Some("Trio Três"), Email: calendar.Some("three@three.com"), Status: calendar.Some(calendar.StatusPublish)})
	f.mustOrganizer(system, calendar.OrganizerInput{Name: calendar.Some("Trio Quatre"), Email: calendar.Some("four@four.com"), Status: calendar.Some(calendar.StatusPublish)})
	for q, want := range map[string]int{"three@three.com tres": 1, "trio": 2, "trio four@": 1, "three@three.com quatre": 0} {
		page, err := f.cal.ListOrganizers(system, calendar.OrganizerQuery{Search: q})
		if err != nil || page.Total != want {
			t.Errorf("organizer search %q: %+v err %v, want %d", q, page, err, want)
		}
	}
}

// A category filter matches the events of its descendant categories.
func TestCategoryFilterMatchesDescendants(t *testing.T) {
	f := newFixture(t)
	music := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some("Music")})
	jazz := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some("Jazz"), Parent: calendar.Some(music.ID)})
	bebop := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some("Bebop"), Parent: calendar.Some(jazz.ID)})
	film := f.mustTerm(calendar.TaxonomyCategory, calendar.TermInput{Name: calendar.Some("Film")})
	in := func(title string, cat int64) {
		f.mustEvent(system, calendar.EventInput{Title: calendar.Some(title), Status: calendar.Some(calendar.StatusPublish),
			StartDate: calendar.Some("2026-04-01 20:00"), EndDate: calendar.Some("2026-04-01 22:00"),
			Categories: calendar.Some([]calendar.TermRef{{ID: cat}})})
	}
	in("a", jazz.ID)
	in("b", bebop.ID)
	in("c", film.ID)
	in("d", music.ID)
	for cats, want := range map[string]int{"music": 3, "jazz": 2, "bebop": 1, "film": 1, "jazz,film": 3} {
		page, err := f.cal.ListEvents(system, calendar.EventQuery{StartDate: "2026-01-01", Categories: []string{cats}})
		if err != nil || page.Total != want {
			t.Errorf("categories=%s: %+v err %v, want %d", cats, page, err, want)
		}
	}
}
