package storage_test

import (
	"bytes"
	"errors"
	"math/rand"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

func TestTimeKeyOrdersLikeTime(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	base := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 2000; i++ {
		a := base.Add(time.Duration(r.Int63n(1<<62) - 1<<61))
		b := a.Add(time.Duration(r.Int63n(1<<40) - 1<<39))
		got := bytes.Compare(storage.TimeKey(a), storage.TimeKey(b))
		if want := a.Compare(b); got != want {
			t.Fatalf("TimeKey(%v) vs TimeKey(%v) = %d, want %d", a, b, got, want)
		}
	}
	k1 := storage.TimeAndIDKey(base, 2)
	k2 := storage.TimeAndIDKey(base, 10)
	if bytes.Compare(k1, k2) >= 0 || storage.ParseIDKey(k2[8:]) != 10 {
		t.Fatalf("TimeAndIDKey does not break ties by id")
	}
	far := time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
	if bytes.Compare(storage.TimeKey(far), storage.TimeKey(far.Add(time.Hour))) != 0 {
		t.Fatalf("instants past 2262 should clamp to the same key")
	}
}

func TestEncodingRoundTrip(t *testing.T) {
	lat := 1.5
	p := &calendar.PostRecord{ID: 7, Kind: calendar.KindVenue, Status: calendar.StatusDraft, Version: 3, Slug: "s",
		Lang: "fr", Title: calendar.Text{"fr": "Salle", "en": "Hall"}, GeoLat: &lat, GeoLng: &lat,
		Date: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), VenueIDs: []int64{1, 2}}
	b, err := storage.EncodePost(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := storage.DecodePost(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p, got); diff != "" {
		t.Fatalf("round trip (-want +got):\n%s", diff)
	}
	tm := &calendar.TermRecord{ID: 3, Taxonomy: calendar.TaxonomyTag, Slug: "x", Name: calendar.Text{"en": "X"}, Version: 1}
	tb, _ := storage.EncodeTerm(tm)
	gt, err := storage.DecodeTerm(tb)
	if err != nil || !cmp.Equal(tm, gt) {
		t.Fatalf("term round trip: %v %v", gt, err)
	}
	for _, bad := range [][]byte{nil, {}, {9, '{'}, {1, '{'}} {
		if _, err := storage.DecodePost(bad); !errors.Is(err, storage.ErrBadRecord) {
			t.Errorf("DecodePost(%q) = %v, want ErrBadRecord", bad, err)
		}
	}
}

func TestMatchPost(t *testing.T) {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	ev := &calendar.PostRecord{ID: 5, Kind: calendar.KindEvent, Status: calendar.StatusFuture, Author: 9,
		Date: now.Add(-time.Hour), Lang: "en", Title: calendar.Text{"en": "Jazz Night", "fr": "Soirée"},
		Description: calendar.Text{"en": "Live music"},
		Start:       now.Add(24 * time.Hour), End: now.Add(26 * time.Hour), CategoryIDs: []int64{3}, VenueIDs: []int64{8}}
	pub := calendar.Visibility{Statuses: []calendar.Status{calendar.StatusPublish}}
	yes, no := true, false
	cases := []struct {
		name string
		q    calendar.PostQuery
		want bool
	}{
		{"future past its date is published", calendar.PostQuery{Visible: pub}, true},
		{"before its date it is not", calendar.PostQuery{Visible: pub, Now: now.Add(-2 * time.Hour)}, false},
		{"owner sees own future", calendar.PostQuery{Now: now.Add(-2 * time.Hour), Visible: calendar.Visibility{Statuses: pub.Statuses, Owner: 9, OwnStatuses: []calendar.Status{calendar.StatusFuture}}}, true},
		{"other kind", calendar.PostQuery{Kind: calendar.KindVenue}, false},
		{"start range inclusive", calendar.PostQuery{Start: calendar.TimeRange{From: now.Add(24 * time.Hour)}}, true},
		{"start range exclusive", calendar.PostQuery{Start: calendar.TimeRange{From: now.Add(24 * time.Hour), FromExclusive: true}}, false},
		{"end upper bound", calendar.PostQuery{End: calendar.TimeRange{To: now.Add(25 * time.Hour)}}, false},
		{"category any-of", calendar.PostQuery{CategoryIDs: []int64{1, 3}}, true},
		{"tag not present", calendar.PostQuery{TagIDs: []int64{3}}, false},
		{"not venue", calendar.PostQuery{NotVenueIDs: []int64{8}}, false},
		{"featured false", calendar.PostQuery{Featured: &no}, true},
		{"featured true", calendar.PostQuery{Featured: &yes}, false},
		{"search every word in the language", calendar.PostQuery{Search: []string{"soir"}, Lang: "fr"}, true},
		{"search falls back to the original", calendar.PostQuery{Search: []string{"live", "music"}, Lang: "fr"}, true},
		{"search misses a word", calendar.PostQuery{Search: []string{"jazz", "rock"}, Lang: "en"}, false},
		{"name any language, case-insensitive", calendar.PostQuery{Name: " soirée "}, true},
		{"ids", calendar.PostQuery{IDs: []int64{4}}, false},
		{"exclude ids", calendar.PostQuery{ExcludeIDs: []int64{5}}, false},
	}
	for _, tc := range cases {
		q := tc.q
		if q.Kind == 0 {
			q.Kind = calendar.KindEvent
		}
		if q.Now.IsZero() {
			q.Now = now
		}
		if got := storage.MatchPost(&q, ev); got != tc.want {
			t.Errorf("%s: MatchPost = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWindowAndOrder(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ps := []*calendar.PostRecord{
		{ID: 3, Kind: calendar.KindEvent, Start: base},
		{ID: 1, Kind: calendar.KindEvent, Start: base.Add(time.Hour)},
		{ID: 2, Kind: calendar.KindEvent, Start: base},
	}
	storage.SortPosts(ps)
	if ps[0].ID != 2 || ps[1].ID != 3 || ps[2].ID != 1 {
		t.Fatalf("event order = %d %d %d", ps[0].ID, ps[1].ID, ps[2].ID)
	}
	vs := []*calendar.PostRecord{{ID: 1, Kind: calendar.KindVenue, Date: base}, {ID: 2, Kind: calendar.KindVenue, Date: base}, {ID: 3, Kind: calendar.KindVenue, Date: base.Add(-time.Hour)}}
	storage.SortPosts(vs)
	if vs[0].ID != 2 || vs[1].ID != 1 || vs[2].ID != 3 {
		t.Fatalf("venue order = %d %d %d", vs[0].ID, vs[1].ID, vs[2].ID)
	}
	all := []int{1, 2, 3, 4, 5}
	for _, tc := range []struct {
		q    calendar.PostQuery
		want []int
	}{
		{calendar.PostQuery{Offset: 1, Limit: 2}, []int{2, 3}},
		{calendar.PostQuery{Offset: 4, Limit: 2}, []int{5}},
		{calendar.PostQuery{Offset: 5, Limit: 2}, nil},
		{calendar.PostQuery{Offset: -1}, all},
		{calendar.PostQuery{CountOnly: true}, nil},
	} {
		if got := storage.Window(all, &tc.q); !cmp.Equal(got, tc.want) {
			t.Errorf("Window(%+v) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestSlugCandidate(t *testing.T) {
	if calendar.SlugCandidate("a", 1) != "a" || calendar.SlugCandidate("a", 12) != "a-12" {
		t.Fatalf("short candidates")
	}
	long := ""
	for len(long) < 199 {
		long += "é" // two bytes each
	}
	got := calendar.SlugCandidate(long, 7)
	if len(got) > calendar.MaxSlugLen || got[len(got)-2:] != "-7" {
		t.Fatalf("long candidate %q (%d bytes)", got, len(got))
	}
	if got := calendar.SlugCandidate(long, 7); !bytes.HasPrefix([]byte(long), []byte(got[:len(got)-2])) {
		t.Fatalf("candidate does not cut on a rune boundary")
	}
}
