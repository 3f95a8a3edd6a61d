package backup_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/storage/backup"
	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// fill stores a calendar that uses every feature the format must carry:
// several languages, every status, passwords, UIDs, coordinates, links of
// every kind, a category whose parent has a higher id, an event whose parent
// starts after it, recurrence fields. It writes with given ids, as a
// migration does, and returns the number of records.
func fill(t testing.TB, repo calendar.Repository, events int) int {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 7))
	statuses := calendar.Statuses
	var steps []calendar.Step
	flush := func() {
		if _, err := repo.Apply(ctx, &calendar.Write{Steps: steps}); err != nil {
			t.Fatalf("fill: %v", err)
		}
		steps = steps[:0]
	}
	n := 0
	term := func(id int64, tax calendar.Taxonomy, name string, parent int64) {
		steps = append(steps, calendar.Step{Op: calendar.OpCreateTerm, Term: &calendar.TermRecord{ID: id, Taxonomy: tax, Slug: name, Lang: "en",
			Name: calendar.Text{"en": name, "fr": name + " (fr)"}, Description: calendar.Text{"en": "about " + name}, Parent: parent}})
		n++
	}
	term(7, calendar.TaxonomyCategory, "arts", 0)
	for i := int64(1); i <= 6; i++ {
		parent := int64(0)
		if i%2 == 0 {
			parent = 7
		}
		term(i, calendar.TaxonomyCategory, fmt.Sprintf("cat-%d", i), parent)
	}
	for i := int64(8); i <= 14; i++ {
		term(i, calendar.TaxonomyTag, fmt.Sprintf("tag-%d", i), 0)
	}
	flush()
	post := func(id int64, k calendar.Kind) *calendar.PostRecord {
		n++
		return &calendar.PostRecord{ID: id, Kind: k, Status: statuses[rng.IntN(len(statuses))], Author: int64(1 + rng.IntN(4)),
			Date: t0.Add(-time.Duration(rng.IntN(10000)) * time.Minute), Modified: t0, Slug: fmt.Sprintf("%s-%d", k, id),
			Lang: "en", UID: fmt.Sprintf("site.example?id=%d", id),
			Title:       calendar.Text{"en": fmt.Sprintf("%s %d", k, id), "de": fmt.Sprintf("%s %d (de)", k, id)},
			Description: calendar.Text{"en": "<p>desc & more</p>\n"}, Excerpt: calendar.Text{"fr": "résumé"},
			Image: "https://cdn.example/i.jpg", Website: "https://example.org/x", Phone: "+1 555"}
	}
	var venues, orgs []int64
	for i := int64(100); i < 120; i++ {
		v := post(i, calendar.KindVenue)
		v.Address, v.City, v.Country, v.State, v.Zip, v.StateProvince = "1 Main St", "Boston", "US", "MA", "02100", "Mass."
		if i%3 == 0 {
			v.GeoLat, v.GeoLng = ptr(42.36), ptr(-71.06)
		}
		v.ShowMap, v.ShowMapLink = ptr(i%2 == 0), ptr(false)
		steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: v})
		venues = append(venues, i)
	}
	for i := int64(120); i < 135; i++ {
		o := post(i, calendar.KindOrganizer)
		o.Email = fmt.Sprintf("o%d@example.org", i)
		steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: o})
		orgs = append(orgs, i)
	}
	flush()
	for i := range int64(events) {
		id := 200 + i
		e := post(id, calendar.KindEvent)
		e.Start = t0.Add(time.Duration(rng.IntN(2*365*24)) * time.Hour)
		e.End = e.Start.Add(2 * time.Hour)
		e.TimeZone = []string{"", "Europe/Paris", "UTC+2"}[rng.IntN(3)]
		e.AllDay, e.Sticky, e.Featured, e.HideFromListings = i%5 == 0, i%7 == 0, i%3 == 0, i%11 == 0
		e.Cost = []string{"$10", "$20"}[:rng.IntN(3)]
		if i%4 == 0 {
			e.Password = "secret"
		}
		e.VenueIDs = []int64{venues[rng.IntN(len(venues))]}
		e.OrganizerIDs = []int64{orgs[rng.IntN(len(orgs))], orgs[rng.IntN(len(orgs))]}
		if e.OrganizerIDs[0] == e.OrganizerIDs[1] {
			e.OrganizerIDs = e.OrganizerIDs[:1]
		}
		e.CategoryIDs, e.TagIDs = []int64{1 + rng.Int64N(7)}, []int64{8 + rng.Int64N(7)}
		steps = append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: e})
		if len(steps) == 100 {
			flush()
		}
	}
	flush()
	if events >= 2 {
		// An occurrence that starts before its series.
		parent, err := repo.GetPost(ctx, 200+int64(events)-1)
		if err != nil {
			t.Fatal(err)
		}
		parent.Start, parent.End = t0.Add(3*365*24*time.Hour), t0.Add(3*365*24*time.Hour+time.Hour)
		parent.Recurrence = []string{"RRULE:FREQ=WEEKLY;COUNT=3"}
		if _, err := repo.UpdatePost(ctx, parent); err != nil {
			t.Fatal(err)
		}
		child, _ := repo.GetPost(ctx, 200)
		child.PostParent, child.RecurrenceID, child.Detached = parent.ID, parent.Start, true
		if _, err := repo.UpdatePost(ctx, child); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// allRecords reads every record of repo, ids ascending, versions zeroed
// (a restored store starts again at version 1).
func allRecords(t testing.TB, repo calendar.Repository) ([]*calendar.PostRecord, []*calendar.TermRecord) {
	t.Helper()
	ctx := context.Background()
	var posts []*calendar.PostRecord
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer} {
		got, err := repo.ListPosts(ctx, &calendar.PostQuery{Kind: k, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		posts = append(posts, got.Records...)
	}
	var terms []*calendar.TermRecord
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		ts, err := repo.ListTerms(ctx, tax)
		if err != nil {
			t.Fatal(err)
		}
		terms = append(terms, ts...)
	}
	for _, p := range posts {
		p.Version = 0
	}
	for _, tm := range terms {
		tm.Version = 0
	}
	sortPosts(posts)
	return posts, terms
}

func sortPosts(ps []*calendar.PostRecord) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].ID < ps[j-1].ID; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

// sameCalendar fails t unless both stores hold the same records.
func sameCalendar(t testing.TB, want, got calendar.Repository) {
	t.Helper()
	wp, wt := allRecords(t, want)
	gp, gt := allRecords(t, got)
	if len(wp) == 0 {
		t.Fatal("nothing to compare")
	}
	if d := cmp.Diff(wp, gp); d != "" {
		t.Errorf("posts differ (-want +got):\n%s", d)
	}
	if d := cmp.Diff(wt, gt); d != "" {
		t.Errorf("terms differ (-want +got):\n%s", d)
	}
}

func export(t testing.TB, repo calendar.Repository) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := backup.Export(context.Background(), repo, &buf, backup.WithPageSize(37), backup.WithClock(func() time.Time { return t0 })); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTripMemstore(t *testing.T) {
	src := memstore.New()
	n := fill(t, src, 300)
	b := export(t, src)
	lines := bytes.Count(b, []byte("\n"))
	if lines != n+2 {
		t.Errorf("%d lines for %d records (+ header and last line)", lines, n)
	}
	dst := memstore.New()
	st, err := backup.Import(context.Background(), dst, bytes.NewReader(b), backup.WithBatch(64))
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != n || st.DroppedLinks != 0 {
		t.Errorf("imported %+v, want %d records and no dropped link", st, n)
	}
	sameCalendar(t, src, dst)
	// The export of the copy is the same file but for the header's cursor:
	// each store has a change log of its own.
	body := func(b []byte) []byte { _, rest, _ := bytes.Cut(b, []byte("\n")); return rest }
	if again := export(t, dst); !bytes.Equal(stripVersions(body(b)), stripVersions(body(again))) {
		t.Error("the copy exports differently from the original")
	}
}

// stripVersions removes the "version" of record lines (a copy restarts at 1).
func stripVersions(b []byte) []byte {
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		s := string(l)
		if i := strings.Index(s, `,"version":`); i >= 0 && strings.HasPrefix(s, `{"kind"`) {
			j := strings.IndexByte(s[i+1:], ',')
			s = s[:i] + s[i+1+j:]
		}
		out = append(out, []byte(s))
	}
	return bytes.Join(out, []byte("\n"))
}

func TestImportRefusesNonEmptyStore(t *testing.T) {
	src := memstore.New()
	fill(t, src, 5)
	b := export(t, src)
	dst := memstore.New()
	if _, err := dst.CreateTerm(context.Background(), &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "x", Lang: "en", Name: calendar.Text{"en": "x"}}); err != nil {
		t.Fatal(err)
	}
	_, err := backup.Import(context.Background(), dst, bytes.NewReader(b))
	if !errors.Is(err, backup.ErrNotEmpty) || !strings.Contains(err.Error(), "1 tag(s)") {
		t.Fatalf("err = %v, want ErrNotEmpty naming what the store holds", err)
	}
	if _, terms := allRecords(t, dst); len(terms) != 1 {
		t.Errorf("the refused import wrote %d terms", len(terms)-1)
	}
}

func TestImportRefusesBadInput(t *testing.T) {
	src := memstore.New()
	fill(t, src, 20)
	b := export(t, src)
	cut := b[:len(b)*2/3]
	for name, c := range map[string]struct {
		in   []byte
		want error
	}{
		"truncated":      {cut, backup.ErrTruncated},
		"no last line":   {b[:bytes.LastIndex(b[:len(b)-1], []byte("\n"))+1], backup.ErrTruncated},
		"not a backup":   {[]byte("hello\n"), backup.ErrFormat},
		"other format":   {[]byte(`{"format":"other","version":1}` + "\n"), backup.ErrFormat},
		"newer version":  {bytes.Replace(b, []byte(`"version":1,"created"`), []byte(`"version":99,"created"`), 1), backup.ErrFormat},
		"unknown kind":   {bytes.Replace(b, []byte(`{"kind":"venue"`), []byte(`{"kind":"planet"`), 1), backup.ErrFormat},
		"wrong count":    {bytes.Replace(b, []byte(`"end_of_backup":true,"records":`), []byte(`"end_of_backup":true,"records":1`), 1), backup.ErrFormat},
		"trailing data":  {append(append([]byte{}, b...), []byte("{}\n")...), backup.ErrFormat},
		"broken a line":  {bytes.Replace(b, []byte(`{"kind":"organizer"`), []byte(`{"kind":"organizer",,`), 1), backup.ErrFormat},
		"empty input":    {nil, backup.ErrFormat},
		"only a header":  {b[:bytes.IndexByte(b, '\n')+1], backup.ErrTruncated},
		"a record no id": {bytes.Replace(b, []byte(`{"kind":"tag","id":8,`), []byte(`{"kind":"tag",`), 1), backup.ErrFormat},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := backup.Import(context.Background(), memstore.New(), bytes.NewReader(c.in))
			if !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
		})
	}
}

// TestImportDropsDanglingLinks: a record removed while the export ran can
// leave links to it; they are dropped and counted, the rest is stored.
func TestImportDropsDanglingLinks(t *testing.T) {
	src := memstore.New()
	fill(t, src, 10)
	b := export(t, src)
	// Remove the venue lines from the backup, as if the venues were
	// deleted between the venue pass and the event pass.
	var kept [][]byte
	removed := 0
	for _, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if bytes.HasPrefix(l, []byte(`{"kind":"venue"`)) {
			removed++
			continue
		}
		kept = append(kept, l)
	}
	last := fmt.Sprintf(`{"end_of_backup":true,"records":%d}`, bytes.Count(b, []byte(`{"kind"`))-removed)
	kept[len(kept)-1] = []byte(last)
	dst := memstore.New()
	st, err := backup.Import(context.Background(), dst, bytes.NewReader(append(bytes.Join(kept, []byte("\n")), '\n')))
	if err != nil {
		t.Fatal(err)
	}
	if st.DroppedLinks != 10 { // every event links one venue
		t.Errorf("dropped %d links, want 10", st.DroppedLinks)
	}
	posts, _ := allRecords(t, dst)
	for _, p := range posts {
		if p.Kind == calendar.KindEvent && (len(p.VenueIDs) != 0 || len(p.OrganizerIDs) == 0) {
			t.Errorf("event %d: venues %v, organizers %v", p.ID, p.VenueIDs, p.OrganizerIDs)
		}
	}
}

// TestExportOnline exports while a writer moves events in time, creates and
// deletes them: the backup imports cleanly, every record the writer did not
// touch is in it unchanged, and nothing is in it that never existed.
func TestExportOnline(t *testing.T) {
	ctx := context.Background()
	src := memstore.New()
	fill(t, src, 3000)
	before, beforeTerms := allRecords(t, src)
	var mu sync.Mutex
	touched := map[int64]bool{}
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		rng := rand.New(rand.NewPCG(1, 2))
		ops := 0
		defer func() { done <- ops }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			id := 200 + rng.Int64N(3000)
			mu.Lock()
			touched[id] = true
			mu.Unlock()
			switch rng.IntN(3) {
			case 0: // move it in time, ahead of or behind the export
				p, err := src.GetPost(ctx, id)
				if err != nil {
					continue
				}
				p.Start = t0.Add(time.Duration(rng.IntN(2*365*24)) * time.Hour)
				p.End = p.Start.Add(time.Hour)
				src.UpdatePost(ctx, p)
			case 1:
				src.DeletePost(ctx, id, 0)
			case 2:
				p, err := src.CreatePost(ctx, &calendar.PostRecord{Kind: calendar.KindEvent, Status: calendar.StatusPublish, Author: 1,
					Slug: "new", Lang: "en", Title: calendar.Text{"en": "new"}, Date: t0, Modified: t0,
					Start: t0.Add(time.Duration(rng.IntN(2*365*24)) * time.Hour), End: t0.Add(800 * 24 * time.Hour)})
				if err == nil {
					mu.Lock()
					touched[p.ID] = true
					mu.Unlock()
				}
			}
			ops++
		}
	}()
	var buf bytes.Buffer
	_, err := backup.Export(ctx, src, &buf, backup.WithPageSize(25))
	close(stop)
	ops := <-done
	if err != nil {
		t.Fatal(err)
	}
	if ops < 50 {
		t.Logf("only %d writes ran during the export", ops)
	}
	dst := memstore.New()
	st, err := backup.Import(ctx, dst, &buf)
	if err != nil {
		t.Fatalf("import of an online export: %v", err)
	}
	after, afterTerms := allRecords(t, dst)
	got := map[int64]*calendar.PostRecord{}
	for _, p := range after {
		got[p.ID] = p
	}
	existed := map[int64]bool{}
	missing := 0
	for _, p := range before {
		existed[p.ID] = true
		if touched[p.ID] || p.PostParent != 0 && touched[p.PostParent] {
			continue
		}
		if d := cmp.Diff(p, got[p.ID]); d != "" {
			missing++
			if missing < 3 {
				t.Errorf("untouched record %d (-before +restored):\n%s", p.ID, d)
			}
		}
	}
	for id := range got {
		if !existed[id] && !touched[id] {
			t.Errorf("restored record %d never existed", id)
		}
	}
	if d := cmp.Diff(beforeTerms, afterTerms); d != "" {
		t.Errorf("terms (-before +restored):\n%s", d)
	}
	t.Logf("%d writes during the export; %d records restored, %d read twice, %d links dropped", ops, st.Records, st.Replaced, st.DroppedLinks)
}
