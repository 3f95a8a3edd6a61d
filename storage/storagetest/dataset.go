package storagetest

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// dataset is a random but seeded calendar stored in a repository, with the
// records as the repository returned them: the reference lists are computed
// from these.
type dataset struct {
	base       time.Time // first instant of the two years the events span
	now        time.Time // a typical query instant, one year in
	events     []*calendar.PostRecord
	venues     []*calendar.PostRecord
	organizers []*calendar.PostRecord
	categories []*calendar.TermRecord
	tags       []*calendar.TermRecord
	authors    []int64
}

// vocabulary per language: titles, descriptions and venue fields are built
// from these words, and searches pick from them, so searches hit.
var vocabulary = map[calendar.Lang][]string{
	"en": {"jazz", "concert", "market", "yoga", "festival", "lecture", "garden", "night", "family", "wine"},
	"fr": {"marché", "soirée", "danse", "cuisine", "théâtre", "jardin"},
	"de": {"konzert", "markt", "abend", "kinder", "wanderung", "garten"},
}

var dataLangs = []calendar.Lang{"en", "fr", "de"}

var allStatuses = []calendar.Status{
	calendar.StatusPublish, calendar.StatusPublish, calendar.StatusPublish, calendar.StatusFuture,
	calendar.StatusFuture, calendar.StatusDraft, calendar.StatusPending, calendar.StatusPrivate, calendar.StatusTrash,
}

func pick[T any](rng *rand.Rand, from []T) T { return from[rng.IntN(len(from))] }

// phrase returns n capitalised words of lang.
func phrase(rng *rand.Rand, lang calendar.Lang, n int) string {
	ws := make([]string, n)
	for i := range ws {
		w := pick(rng, vocabulary[lang])
		r, size := utf8.DecodeRuneInString(w)
		ws[i] = string(unicode.ToUpper(r)) + w[size:]
	}
	return strings.Join(ws, " ")
}

// text returns a translatable text in own and, sometimes, other languages.
func text(rng *rand.Rand, own calendar.Lang, words int) calendar.Text {
	t := calendar.Text{own: phrase(rng, own, words)}
	for _, l := range dataLangs {
		if l != own && rng.IntN(10) < 4 {
			t[l] = phrase(rng, l, words)
		}
	}
	return t
}

// someIDs returns up to max distinct ids from pool (possibly none).
func someIDs(rng *rand.Rand, pool []int64, max int) []int64 {
	n := rng.IntN(max + 1)
	var out []int64
	for i := 0; i < n && len(pool) > 0; i++ {
		id := pick(rng, pool)
		if !containsID(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func containsID(ids []int64, id int64) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// randomInstant returns a whole-second instant in [from, from+span).
func randomInstant(rng *rand.Rand, from time.Time, span time.Duration) time.Time {
	return from.Add(time.Duration(rng.Int64N(int64(span/time.Second))) * time.Second)
}

// seedDataset stores a random calendar: terms with a category tree, venues
// and organizers (some with equal dates), and events over two years with
// every field a query can restrict on, ties on Start included.
func seedDataset(t testing.TB, r calendar.Repository, rng *rand.Rand, events int) *dataset {
	ds := &dataset{
		base:    time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		authors: []int64{1, 2, 3, 4, 5},
	}
	ds.now = ds.base.Add(365 * 24 * time.Hour)
	for i := 0; i < 12; i++ {
		c := newCategory(strings.ToLower(phrase(rng, "en", 1)), 0)
		if i > 2 && rng.IntN(2) == 0 {
			c.Parent = pick(rng, ds.categories).ID
		}
		ds.categories = append(ds.categories, mustCreateTerm(t, r, c))
	}
	for i := 0; i < 15; i++ {
		ds.tags = append(ds.tags, mustCreateTerm(t, r, newTag(strings.ToLower(phrase(rng, "de", 1)))))
	}
	place := func(p *calendar.PostRecord, prev []*calendar.PostRecord) {
		p.Status = pick(rng, allStatuses)
		p.Author = pick(rng, ds.authors)
		p.Lang = pick(rng, dataLangs)
		p.Title = text(rng, p.Lang, 2)
		p.Description = text(rng, p.Lang, 4)
		p.Date = randomInstant(rng, ds.base.Add(-30*24*time.Hour), 800*24*time.Hour)
		if len(prev) > 0 && rng.IntN(4) == 0 {
			p.Date = pick(rng, prev).Date // ties: order falls back to id
		}
	}
	for i := 0; i < 15; i++ {
		v := newVenue(strings.ToLower(phrase(rng, "fr", 1)))
		place(v, ds.venues)
		v.City = phrase(rng, "de", 1)
		v.Address = phrase(rng, "fr", 2)
		ds.venues = append(ds.venues, mustCreatePost(t, r, v))
	}
	for i := 0; i < 10; i++ {
		o := newOrganizer(strings.ToLower(phrase(rng, "en", 1)))
		place(o, ds.organizers)
		o.Email = strings.ToLower(phrase(rng, "en", 1)) + "@example.org"
		ds.organizers = append(ds.organizers, mustCreatePost(t, r, o))
	}
	venueIDs, orgIDs := postIDs(ds.venues), postIDs(ds.organizers)
	catIDs, tagIDs := termIDs(ds.categories), termIDs(ds.tags)
	for i := 0; i < events; i++ {
		e := newEvent(strings.ToLower(phrase(rng, "en", 2)), t0)
		e.Slug = strings.ReplaceAll(e.Slug, " ", "-")
		place(e, nil)
		e.Start = randomInstant(rng, ds.base, 730*24*time.Hour)
		if len(ds.events) > 0 && rng.IntN(10) == 0 {
			e.Start = pick(rng, ds.events).Start // ties: order falls back to id
		}
		e.End = e.Start.Add(time.Duration(rng.IntN(72*60)) * time.Minute)
		switch rng.IntN(50) {
		case 0: // imported data may lack an end; MatchPost still defines the answer
			e.End = time.Time{}
		case 1:
			e.End = e.Start.Add(-time.Hour)
		}
		e.Excerpt = text(rng, e.Lang, 1)
		e.VenueIDs = someIDs(rng, venueIDs, 2)
		e.OrganizerIDs = someIDs(rng, orgIDs, 3)
		e.CategoryIDs = someIDs(rng, catIDs, 3)
		e.TagIDs = someIDs(rng, tagIDs, 3)
		e.Featured = rng.IntN(5) == 0
		e.HideFromListings = rng.IntN(10) == 0
		if len(ds.events) > 0 && rng.IntN(8) == 0 {
			e.PostParent = pick(rng, ds.events[:min(len(ds.events), 20)]).ID // a few parents with several children
		}
		// Series records and occurrences (owned or detached) for the Series
		// restriction; chosen by position so the random stream stays as it was.
		switch {
		case i%23 == 5:
			e.Recurrence = []string{"RRULE:FREQ=WEEKLY;COUNT=4"}
		case e.PostParent != 0:
			e.RecurrenceID, e.Detached = e.Start, i%3 == 0
		}
		ds.events = append(ds.events, mustCreatePost(t, r, e))
	}
	return ds
}

// posts returns the stored records of kind.
func (ds *dataset) posts(kind calendar.Kind) []*calendar.PostRecord {
	switch kind {
	case calendar.KindVenue:
		return ds.venues
	case calendar.KindOrganizer:
		return ds.organizers
	}
	return ds.events
}

// reference is the brute-force answer: every record that MatchPost accepts,
// in ComparePosts order.
func reference(all []*calendar.PostRecord, q *calendar.PostQuery) []*calendar.PostRecord {
	var out []*calendar.PostRecord
	for _, p := range all {
		if storage.MatchPost(q, p) {
			out = append(out, p)
		}
	}
	storage.SortPosts(out)
	return out
}
