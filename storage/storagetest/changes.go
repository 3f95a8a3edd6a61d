package storagetest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// changeTests prove the change log (calendar.ChangeLog): one change per
// record a committed write touches, in commit order, gap-free, and none for
// a write that did not commit.
var changeTests = []conformanceTest{
	{"Changes/EveryWrite", testChangesEveryWrite},
	{"Changes/RefusedWritesLeaveNone", testChangesRefused},
	{"Changes/ConcurrentWritersAndReader", testChangesConcurrent},
	{"Changes/Trim", testChangesTrim},
	{"Changes/Wait", testChangesWait},
}

func changeLog(t *testing.T, r calendar.Repository) calendar.ChangeLog {
	t.Helper()
	l, ok := r.(calendar.ChangeLog)
	if !ok {
		t.Fatalf("%T does not implement calendar.ChangeLog", r)
	}
	return l
}

// want is a change as a test expects it: what the driver does not choose.
type want struct {
	kind    calendar.Kind
	id      int64
	action  calendar.ChangeAction
	version int64
	series  int64
}

func (w want) String() string {
	return fmt.Sprintf("%s %d %s v%d series %d", w.kind, w.id, w.action, w.version, w.series)
}

func wantOf(c calendar.Change) want { return want{c.Kind, c.ID, c.Action, c.Version, c.Series} }

func sortWants(ws []want) {
	slices.SortFunc(ws, func(a, b want) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.id, b.id), cmp.Compare(a.version, b.version))
	})
}

// allChanges reads the whole log from after on, in pages of 3 (so paging is
// exercised), and checks Seq is gap-free from after+1.
func allChanges(t *testing.T, l calendar.ChangeLog, after int64) []calendar.Change {
	t.Helper()
	var out []calendar.Change
	for {
		page, err := l.ChangesAfter(context.Background(), after, 3)
		if err != nil {
			t.Fatalf("ChangesAfter(%d): %v", after, err)
		}
		if len(page) > 3 {
			t.Fatalf("ChangesAfter(%d, 3) returned %d changes", after, len(page))
		}
		if len(page) == 0 {
			return out
		}
		for _, c := range page {
			if c.Seq != after+1 {
				t.Fatalf("change after %d has seq %d: the log has a gap or is out of order", after, c.Seq)
			}
			after = c.Seq
		}
		out = append(out, page...)
	}
}

// checkTxs splits changes into writes by Tx, checking each write's changes
// are contiguous and its Tx is the Seq of its first change, and compares each
// write (as a set: a driver may order the changes within one write its own
// way) with the expectation.
func checkTxs(t *testing.T, got []calendar.Change, wantTxs [][]want) {
	t.Helper()
	var txs [][]want
	for i, c := range got {
		if c.Time.IsZero() {
			t.Errorf("change %d has no time", c.Seq)
		}
		if i == 0 || c.Tx != got[i-1].Tx {
			if c.Tx != c.Seq {
				t.Fatalf("change %d starts write %d: the Tx must be the Seq of a write's first change", c.Seq, c.Tx)
			}
			txs = append(txs, nil)
		}
		txs[len(txs)-1] = append(txs[len(txs)-1], wantOf(c))
	}
	if len(txs) != len(wantTxs) {
		t.Fatalf("the log holds %d writes, want %d:\n got %v\nwant %v", len(txs), len(wantTxs), txs, wantTxs)
	}
	for i := range txs {
		sortWants(txs[i])
		sortWants(wantTxs[i])
		if !slices.Equal(txs[i], wantTxs[i]) {
			t.Errorf("write %d: changes\n got %v\nwant %v", i+1, txs[i], wantTxs[i])
		}
	}
}

// Every committed write of every kind appears once, in commit order, with
// one change per record touched — cascades and series included.
func testChangesEveryWrite(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	l := changeLog(t, r)
	if n, err := l.LastChangeSeq(ctx); err != nil || n != 0 {
		t.Fatalf("empty store: LastChangeSeq = %d, %v", n, err)
	}
	var txs [][]want
	add := func(ws ...want) { txs = append(txs, ws) }
	const ev, ven, org, cat, tag = calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer, calendar.KindCategory, calendar.KindTag
	const cr, up, tr, re, del = calendar.ChangeCreated, calendar.ChangeUpdated, calendar.ChangeTrashed, calendar.ChangeRestored, calendar.ChangeDeleted

	v := mustCreatePost(t, r, newVenue("v"))
	add(want{ven, v.ID, cr, 1, 0})
	o := mustCreatePost(t, r, newOrganizer("o"))
	add(want{org, o.ID, cr, 1, 0})
	c := mustCreateTerm(t, r, newCategory("c", 0))
	add(want{cat, c.ID, cr, 1, 0})
	c2 := mustCreateTerm(t, r, newCategory("c2", c.ID))
	add(want{cat, c2.ID, cr, 1, 0})
	tg := mustCreateTerm(t, r, newTag("t"))
	add(want{tag, tg.ID, cr, 1, 0})
	e := newEvent("e", t0)
	e.VenueIDs, e.OrganizerIDs, e.CategoryIDs, e.TagIDs = []int64{v.ID}, []int64{o.ID}, []int64{c.ID}, []int64{tg.ID}
	e = mustCreatePost(t, r, e)
	add(want{ev, e.ID, cr, 1, 0})
	e.Title = calendar.Text{"en": "renamed"}
	e = mustUpdatePost(t, r, e)
	add(want{ev, e.ID, up, 2, 0})
	e.Status = calendar.StatusTrash
	e = mustUpdatePost(t, r, e)
	add(want{ev, e.ID, tr, 3, 0})
	e.Status = calendar.StatusDraft
	e = mustUpdatePost(t, r, e)
	add(want{ev, e.ID, re, 4, 0})
	tg.Name = calendar.Text{"en": "Tag renamed"}
	tg = mustUpdateTerm(t, r, tg)
	add(want{tag, tg.ID, up, 2, 0})

	// A series and its occurrences: one write, one change each.
	series := newEvent("series", t0)
	occ := func(n int) *calendar.PostRecord {
		p := newEvent(fmt.Sprintf("series-%d", n), t0.Add(time.Duration(n)*24*time.Hour))
		p.PostParent, p.RecurrenceID = calendar.StepRef(0), p.Start
		return p
	}
	res := mustApply(t, r, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpCreatePost, Post: series},
		{Op: calendar.OpCreatePost, Post: occ(1)},
		{Op: calendar.OpCreatePost, Post: occ(2)},
	}})
	s, o1, o2 := res.Steps[0].Post, res.Steps[1].Post, res.Steps[2].Post
	add(want{ev, s.ID, cr, 1, 0}, want{ev, o1.ID, cr, 1, s.ID}, want{ev, o2.ID, cr, 1, s.ID})

	// An ensure that finds its record writes nothing; one that creates does.
	res = mustApply(t, r, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpEnsurePost, Post: named(newVenue("hall"), "Hall"), Now: t0},
	}})
	add(want{ven, res.Steps[0].Post.ID, cr, 1, 0})
	hall := res.Steps[0].Post.ID
	res = mustApply(t, r, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpEnsurePost, Post: named(newVenue("hall-2"), "Hall"), Now: t0},
		{Op: calendar.OpEnsureTerm, Term: namedTerm(newTag("new-tag"), "New tag")},
	}})
	if !res.Steps[0].Found || res.Steps[0].Post.ID != hall {
		t.Fatalf("the ensure did not find venue %d", hall)
	}
	add(want{tag, res.Steps[1].Term.ID, cr, 1, 0})

	// Deletes with their cascades: every record they rewrite is a change.
	mustDeletePost(t, r, v.ID, 0)
	add(want{ven, v.ID, del, 1, 0}, want{ev, e.ID, up, 5, 0})
	if err := r.DeleteTerm(ctx, c.ID, 0); err != nil {
		t.Fatal(err)
	}
	add(want{cat, c.ID, del, 1, 0}, want{ev, e.ID, up, 6, 0}, want{cat, c2.ID, up, 2, 0})
	mustDeletePost(t, r, s.ID, 0)
	add(want{ev, s.ID, del, 1, 0}, want{ev, o1.ID, up, 2, 0}, want{ev, o2.ID, up, 2, 0})
	mustDeletePost(t, r, e.ID, 6)
	add(want{ev, e.ID, del, 6, 0})

	got := allChanges(t, l, 0)
	checkTxs(t, got, txs)
	if n, err := l.LastChangeSeq(ctx); err != nil || n != int64(len(got)) {
		t.Errorf("LastChangeSeq = %d, %v; the log holds %d changes", n, err, len(got))
	}
	// Reading from the middle returns exactly the rest.
	if rest := allChanges(t, l, 5); !slices.Equal(rest, got[5:]) {
		t.Errorf("changes after 5 differ from the tail of the whole log")
	}
}

// Refused and failed writes leave no change, and the next committed write
// continues the sequence without a gap.
func testChangesRefused(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	l := changeLog(t, r)
	a := mustCreatePost(t, r, newEvent("a", t0))
	mustCreateTerm(t, r, namedTerm(newTag("x"), "Taken"))
	last, err := l.LastChangeSeq(ctx)
	if err != nil || last != 2 {
		t.Fatalf("LastChangeSeq = %d, %v, want 2", last, err)
	}
	stale := a.Clone()
	stale.Version = 9
	refused := map[string]*calendar.Write{
		"version conflict": {Steps: []calendar.Step{
			{Op: calendar.OpCreatePost, Post: newVenue("first")},
			{Op: calendar.OpUpdatePost, Post: stale},
		}},
		"missing link": {Steps: []calendar.Step{
			{Op: calendar.OpCreateTerm, Term: newTag("y")},
			{Op: calendar.OpCreatePost, Post: func() *calendar.PostRecord {
				p := newEvent("b", t0)
				p.VenueIDs = []int64{999999}
				return p
			}()},
		}},
		"name taken": {Steps: []calendar.Step{
			{Op: calendar.OpCreatePost, Post: newOrganizer("o")},
			{Op: calendar.OpCreateTerm, Term: namedTerm(newTag("z"), "Taken")},
		}},
		"delete of a missing record": {Steps: []calendar.Step{
			{Op: calendar.OpUpdatePost, Post: a.Clone()},
			{Op: calendar.OpDeletePost, ID: 999999},
		}},
	}
	for name, w := range refused {
		if _, err := r.Apply(ctx, w); err == nil {
			t.Fatalf("%s: the write was accepted", name)
		}
		if n, err := l.LastChangeSeq(ctx); err != nil || n != last {
			t.Fatalf("%s: LastChangeSeq = %d, %v; a refused write must leave no change", name, n, err)
		}
	}
	if f, ok := r.(Faulty); ok {
		boom := errors.New("injected failure")
		for n := 1; n <= 2; n++ {
			f.FailApplyAfter(n, boom)
			_, err := r.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
				{Op: calendar.OpCreatePost, Post: newVenue("f1")},
				{Op: calendar.OpUpdatePost, Post: a.Clone()},
				{Op: calendar.OpCreateTerm, Term: newTag("f3")},
			}})
			if !errors.Is(err, boom) {
				t.Fatalf("injected failure after %d steps: err = %v", n, err)
			}
			if got, err := l.LastChangeSeq(ctx); err != nil || got != last {
				t.Fatalf("failure after %d steps: LastChangeSeq = %d, %v; want %d", n, got, err, last)
			}
		}
	}
	if cs, err := l.ChangesAfter(ctx, last, 10); err != nil || len(cs) != 0 {
		t.Fatalf("after refused writes: ChangesAfter = %v, %v", cs, err)
	}
	v := mustCreatePost(t, r, newVenue("next"))
	cs, err := l.ChangesAfter(ctx, last, 10)
	if err != nil || len(cs) != 1 || cs[0].Seq != last+1 || cs[0].ID != v.ID {
		t.Fatalf("the next write: changes %v, %v; want one change with seq %d", cs, err, last+1)
	}
}

// Concurrent writers never leave a gap, and a reader following the log by
// cursor while they write sees every change exactly once.
func testChangesConcurrent(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	l := changeLog(t, r)
	const writers, each = 6, 15
	var wg sync.WaitGroup
	ids := make(chan int64, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				p, err := r.CreatePost(ctx, newVenue(fmt.Sprintf("w%d-%d", w, i)))
				if err != nil {
					t.Error(err)
					return
				}
				ids <- p.ID
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	var seen []calendar.Change
	var cursor int64
	read := func() {
		cs, err := l.ChangesAfter(ctx, cursor, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if c.Seq != cursor+1 {
				t.Fatalf("reader at %d got seq %d: a change was skipped", cursor, c.Seq)
			}
			cursor = c.Seq
		}
		seen = append(seen, cs...)
	}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		read()
	}
	for n := -1; n != len(seen); {
		n = len(seen)
		read()
	}
	close(ids)
	var want []int64
	for id := range ids {
		want = append(want, id)
	}
	var got []int64
	for _, c := range seen {
		if c.Action != calendar.ChangeCreated || c.Tx != c.Seq {
			t.Errorf("change %+v: want a one-change create", c)
		}
		got = append(got, c.ID)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("the reader saw %d changes for %d committed writes", len(got), len(want))
	}
}

// Trimming by age removes old changes; a cursor before them is expired,
// one at or after the trimmed point still reads on, and the sequence goes on.
func testChangesTrim(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	l := changeLog(t, r)
	for i := range 4 {
		mustCreateTerm(t, r, newTag(fmt.Sprintf("t%d", i)))
	}
	if err := l.TrimChanges(ctx, time.Now().Add(calendar.DefaultChangeMaxAge/2)); err != nil {
		t.Fatal(err)
	}
	if cs := allChanges(t, l, 0); len(cs) != 4 {
		t.Fatalf("trimming at half the retention removed changes: %d left", len(cs))
	}
	if err := l.TrimChanges(ctx, time.Now().Add(calendar.DefaultChangeMaxAge+time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, after := range []int64{0, 3} {
		if _, err := l.ChangesAfter(ctx, after, 10); !errors.Is(err, calendar.ErrChangesExpired) {
			t.Errorf("ChangesAfter(%d) past the retention: err = %v, want ErrChangesExpired", after, err)
		}
	}
	if cs, err := l.ChangesAfter(ctx, 4, 10); err != nil || len(cs) != 0 {
		t.Errorf("ChangesAfter(4) at the trimmed end: %v, %v", cs, err)
	}
	if n, err := l.LastChangeSeq(ctx); err != nil || n != 4 {
		t.Errorf("LastChangeSeq after trimming = %d, %v, want 4", n, err)
	}
	mustCreateTerm(t, r, newTag("after"))
	if cs := allChanges(t, l, 4); len(cs) != 1 || cs[0].Seq != 5 {
		t.Errorf("after trimming, the next write: %v", cs)
	}
}

// WaitChanges returns once a write commits, and with the context's error
// when none comes.
func testChangesWait(t *testing.T, r calendar.Repository) {
	ctx := context.Background()
	l := changeLog(t, r)
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := l.WaitChanges(short, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitChanges with no write: %v, want the deadline", err)
	}
	errc := make(chan error, 1)
	go func() {
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		errc <- l.WaitChanges(c, 0)
	}()
	time.Sleep(20 * time.Millisecond)
	mustCreatePost(t, r, newVenue("wake"))
	if err := <-errc; err != nil {
		t.Fatalf("WaitChanges after a write: %v", err)
	}
	if err := l.WaitChanges(ctx, 0); err != nil {
		t.Fatalf("WaitChanges with a change already there: %v", err)
	}
}
