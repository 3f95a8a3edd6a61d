package storagetest

import (
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// SharedReader is the optional view a driver offers for the calendar's
// read-only paths: reads that hand out the driver's own records rather
// than copies (memstore's stored records, bolt's and Redis' decoded
// caches).
type SharedReader interface {
	SharedReads() calendar.Repository
}

// RunSharedReads proves what the calendar relies on when it renders records
// from a driver's SharedReads view without copying them: the view answers
// like the repository; a record it handed out is never modified, neither
// by a later write (which the view then shows) nor by a caller changing
// the repository's own copy; and reading while writing is race-free (run
// with -race). With identical set, every read of unchanged bytes hands
// out the very same post (what saves the copy); a driver without a cache
// of decoded records sets it false.
func RunSharedReads(t *testing.T, newRepo Factory, identical bool) {
	t.Run("SharedReads/AnswersAndNeverChanges", func(t *testing.T) {
		testSharedReadsAnswer(t, newRepo(t), identical)
	})
	t.Run("SharedReads/WhileWriting", func(t *testing.T) {
		testSharedReadsWhileWriting(t, newRepo(t))
	})
}

func sharedView(t *testing.T, r calendar.Repository) calendar.Repository {
	t.Helper()
	sr, ok := r.(SharedReader)
	if !ok {
		t.Fatalf("%T has no SharedReads view", r)
	}
	return sr.SharedReads()
}

func testSharedReadsAnswer(t *testing.T, r calendar.Repository, identical bool) {
	ctx := t.Context()
	view := sharedView(t, r)
	start := time.Now().UTC().Truncate(time.Second).Add(48 * time.Hour)
	ev := mustCreatePost(t, r, newEvent("night", start))
	tag := mustCreateTerm(t, r, newTag("live"))

	held, err := view.GetPost(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	bySlug, err := view.PostBySlug(ctx, calendar.KindEvent, "night")
	if err != nil {
		t.Fatal(err)
	}
	listed, err := view.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Now: start.Add(-72 * time.Hour),
		Start: calendar.TimeRange{From: start.Add(-time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	several, err := view.GetPosts(ctx, []int64{ev.ID, ev.ID + 100_000})
	if err != nil {
		t.Fatal(err)
	}
	linked, terms, err := calendar.GetLinked(ctx, view, []int64{ev.ID}, []int64{tag.ID})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(held, ev) || len(listed.Records) != 1 || len(several) != 1 || len(linked) != 1 || len(terms) != 1 ||
		!reflect.DeepEqual(bySlug, held) || !reflect.DeepEqual(listed.Records[0], held) ||
		!reflect.DeepEqual(several[0], held) || !reflect.DeepEqual(linked[0], held) || !reflect.DeepEqual(terms[0], tag) {
		t.Fatalf("the view answers unlike the repository: %+v %+v %+v %+v %+v %+v", held, bySlug, listed.Records, several, linked, terms)
	}
	if identical && (bySlug != held || listed.Records[0] != held || several[0] != held || linked[0] != held) {
		t.Errorf("the view copied a record it keeps")
	}

	own, err := r.GetPost(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if own == held {
		t.Fatal("the repository handed out the view's record instead of a copy")
	}
	own.Title["en"], own.Cost[0] = "changed in place", "$0"
	if held.Title["en"] != ev.Title["en"] || held.Cost[0] != ev.Cost[0] {
		t.Fatalf("changing the repository's copy changed the view's record: %+v", held)
	}

	heldCopy, termCopy := held.Clone(), terms[0].Clone()
	up := ev.Clone()
	up.Title["en"], up.Cost[0] = "Day", "$6"
	if _, err := r.UpdatePost(ctx, up); err != nil {
		t.Fatal(err)
	}
	tup := tag.Clone()
	tup.Name["en"] = "Loud"
	if _, err := r.UpdateTerm(ctx, tup); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(held, heldCopy) || !reflect.DeepEqual(terms[0], termCopy) {
		t.Errorf("a write modified records the view handed out: %+v %+v", held, terms[0])
	}
	after, err := view.GetPost(ctx, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after == held || after.Title["en"] != "Day" || after.Cost[0] != "$6" || after.Version != ev.Version+1 {
		t.Errorf("the view serves a stale record after the write: %+v", after)
	}
}

func testSharedReadsWhileWriting(t *testing.T, r calendar.Repository) {
	ctx := t.Context()
	view := sharedView(t, r)
	start := time.Now().UTC().Truncate(time.Second).Add(48 * time.Hour)
	ev := mustCreatePost(t, r, newEvent("night", start))
	q := &calendar.PostQuery{Kind: calendar.KindEvent, Now: start.Add(-72 * time.Hour), Start: calendar.TimeRange{From: start.Add(-time.Hour)}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 30 {
			cur, err := r.GetPost(ctx, ev.ID)
			if err != nil {
				t.Error(err)
				return
			}
			cur.Title["en"] = "Night " + string(rune('a'+i%26))
			if _, err := r.UpdatePost(ctx, cur); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 200 {
		page, err := view.ListPosts(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Records {
			_ = p.Title["en"] + p.Slug
		}
		p, err := view.GetPost(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		_ = p.Title["en"]
	}
	wg.Wait()
}
