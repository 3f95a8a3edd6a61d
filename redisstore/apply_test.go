package redisstore

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"
)

// applyFixture is a calendar with an event, a venue, a category and a tag
// linked together, and the first steps of a write that touches all of them.
type applyFixture struct {
	s          *Store
	ev, venue  *calendar.PostRecord
	cat, tag   *calendar.TermRecord
	firstSteps func() []calendar.Step
}

func newApplyFixture(t *testing.T) *applyFixture {
	s := newTestStore(t, singleClient(t))
	f := &applyFixture{s: s}
	f.venue = mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "hall",
		Lang: "en", Title: calendar.Text{"en": "Old Hall"}, UID: "hall@example"})
	f.cat = mustTerm(t, s, calendar.TaxonomyCategory, "jazz", 0)
	f.tag = mustTerm(t, s, calendar.TaxonomyTag, "late", 0)
	ev := event("kept", t0)
	ev.VenueIDs, ev.CategoryIDs, ev.TagIDs = []int64{f.venue.ID}, []int64{f.cat.ID}, []int64{f.tag.ID}
	f.ev = mustCreate(t, s, ev)
	f.firstSteps = func() []calendar.Step {
		up := f.ev.Clone()
		up.Title = calendar.Text{"en": "changed"}
		up.Slug = "moved"
		gala := event("gala", t0.Add(time.Hour))
		gala.VenueIDs, gala.OrganizerIDs = []int64{calendar.StepRef(0)}, []int64{calendar.StepRef(1)}
		gala.CategoryIDs, gala.TagIDs = []int64{calendar.StepRef(2), f.cat.ID}, []int64{calendar.StepRef(3)}
		return []calendar.Step{
			{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish,
				Date: t0, Slug: "new-hall", Lang: "en", Title: calendar.Text{"en": "New Hall"}}, Now: t0},
			{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindOrganizer, Status: calendar.StatusPublish,
				Date: t0, Slug: "org", Lang: "en", Title: calendar.Text{"en": "Org"}, UID: "org@example"}, Now: t0},
			{Op: calendar.OpEnsureTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "swing", Lang: "en",
				Name: calendar.Text{"en": "Swing"}, Parent: f.cat.ID}},
			{Op: calendar.OpCreateTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "fresh", Lang: "en",
				Name: calendar.Text{"en": "Fresh"}}},
			{Op: calendar.OpCreatePost, Post: gala},
			{Op: calendar.OpUpdatePost, Post: up},
			{Op: calendar.OpDeleteTerm, ID: f.tag.ID},
		}
	}
	return f
}

// A write whose last step fails leaves every key of the calendar as it was:
// no record, slug, name, UID, index entry or sequence value of the steps
// before it. The checks all run before the first write, and the script
// returns before writing.
func TestApplyLastStepFailureLeavesNoKey(t *testing.T) {
	f := newApplyFixture(t)
	s, ctx := f.s, context.Background()
	before := snapshotKeys(t, s.c, s)

	stale := f.ev.Clone()
	stale.Version = 1 // the update step moves it to 2
	missing := event("orphan", t0)
	missing.VenueIDs = []int64{f.venue.ID + 1000}
	deleted := event("to-deleted-tag", t0)
	deleted.TagIDs = []int64{f.tag.ID}
	uid := event("uid", t0)
	uid.UID = "x"
	given := event("given", t0)
	given.ID = f.venue.ID
	venueUID := &calendar.PostRecord{Kind: calendar.KindVenue, Date: t0, Slug: "v2", UID: "hall@example"}
	category := func(name string, parent int64) calendar.Step {
		return calendar.Step{Op: calendar.OpCreateTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory,
			Slug: "c", Lang: "fr", Name: calendar.Text{"fr": name}, Parent: parent}}
	}
	for _, tc := range []struct {
		name string
		last []calendar.Step
		is   error
	}{
		{"version conflict", []calendar.Step{{Op: calendar.OpUpdatePost, Post: stale}}, calendar.ErrConflict},
		{"term name taken by a term of the write", []calendar.Step{{Op: calendar.OpCreateTerm, Term: &calendar.TermRecord{
			Taxonomy: calendar.TaxonomyTag, Slug: "f2", Lang: "en", Name: calendar.Text{"en": " FRESH"}}}}, calendar.ErrNameTaken},
		{"term name taken at the level of an ensured parent", []calendar.Step{category("swing", f.cat.ID)}, calendar.ErrNameTaken},
		{"term name taken under a parent of the write", []calendar.Step{category("Inner", calendar.StepRef(2)),
			category(" inner", calendar.StepRef(2))}, calendar.ErrNameTaken},
		{"missing link", []calendar.Step{{Op: calendar.OpCreatePost, Post: missing}}, calendar.ErrNotFound},
		{"link to a term deleted earlier in the write", []calendar.Step{{Op: calendar.OpCreatePost, Post: deleted}}, calendar.ErrNotFound},
		{"uid taken", []calendar.Step{{Op: calendar.OpCreatePost, Post: venueUID}}, calendar.ErrConflict},
		{"given id taken", []calendar.Step{{Op: calendar.OpCreatePost, Post: given}}, calendar.ErrConflict},
		{"delete of a missing record", []calendar.Step{{Op: calendar.OpDeletePost, ID: f.venue.ID + 1000}}, calendar.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps := append(f.firstSteps(), tc.last...)
			_, err := s.Apply(ctx, &calendar.Write{Steps: steps})
			var se *calendar.StepError
			if !errors.As(err, &se) || se.Step != len(steps)-1 || !errors.Is(err, tc.is) {
				t.Fatalf("err = %v, want a StepError for step %d wrapping %v", err, len(steps)-1, tc.is)
			}
			if d := cmp.Diff(before, snapshotKeys(t, s.c, s)); d != "" {
				t.Fatalf("a failed write changed keys (-before +after):\n%s", d)
			}
		})
	}
	var taken *calendar.NameTakenError
	_, err := s.Apply(ctx, &calendar.Write{Steps: append(f.firstSteps(), calendar.Step{Op: calendar.OpCreateTerm,
		Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "j2", Lang: "en", Name: calendar.Text{"en": "jazz"}}})})
	if !errors.As(err, &taken) || taken.ID != f.cat.ID || taken.Name != "jazz" || taken.Taxonomy != calendar.TaxonomyCategory {
		t.Errorf("NameTakenError = %+v (%v), want jazz held by %d", taken, err, f.cat.ID)
	}
	// The same steps without the failing one go through.
	res, err := s.Apply(ctx, &calendar.Write{Steps: f.firstSteps()})
	if err != nil {
		t.Fatal(err)
	}
	gala := res.Steps[4].Post
	if gala.VenueIDs[0] != res.Steps[0].Post.ID || gala.TagIDs[0] != res.Steps[3].Term.ID || res.Steps[5].Post.Slug != "moved" {
		t.Errorf("write after the failures: gala %+v, updated %+v", gala, res.Steps[5].Post)
	}
	if kept := mustGetPost(t, s, f.ev.ID); len(kept.TagIDs) != 0 || kept.Version != f.ev.Version+2 {
		t.Errorf("the updated event after its tag was deleted: tags %v version %d", kept.TagIDs, kept.Version)
	}
	checkConsistency(t, s.c, s)
}

// A failure while the script writes — injected after n steps were written,
// or Redis refusing a write — is undone from the script's journal: the
// calendar is left exactly as before, deleted index sets included.
func TestApplyFailureWhileWritingIsUndone(t *testing.T) {
	f := newApplyFixture(t)
	s, ctx := f.s, context.Background()
	before := snapshotKeys(t, s.c, s)
	boom := errors.New("boom")
	for n := 1; n <= 8; n++ {
		s.FailApplyAfter(n, boom)
		_, err := s.Apply(ctx, &calendar.Write{Steps: f.firstSteps()})
		if !errors.Is(err, boom) {
			t.Fatalf("after %d steps: err = %v, want the injected failure", n, err)
		}
		if d := cmp.Diff(before, snapshotKeys(t, s.c, s)); d != "" {
			t.Fatalf("failure after %d steps written changed keys (-before +after):\n%s", n, d)
		}
	}

	// A key of the wrong type where the last step writes: Redis refuses
	// the ZADD after the earlier steps and part of the last were written.
	bad := s.k.evLink(calendar.KindCategory, f.cat.ID)
	saved := s.c.ZRangeWithScores(ctx, bad, 0, -1).Val()
	s.c.Del(ctx, bad)
	s.c.Set(ctx, bad, "not a sorted set", 0)
	before = snapshotKeys(t, s.c, s)
	late := event("late", t0)
	late.CategoryIDs = []int64{f.cat.ID}
	steps := append(f.firstSteps()[:4], calendar.Step{Op: calendar.OpCreatePost, Post: late})
	_, err := s.Apply(ctx, &calendar.Write{Steps: steps})
	var se *calendar.StepError
	if !errors.As(err, &se) || se.Step != len(steps)-1 {
		t.Fatalf("err = %v, want a StepError for the last step", err)
	}
	t.Logf("refused by Redis: %v", err)
	if d := cmp.Diff(before, snapshotKeys(t, s.c, s)); d != "" {
		t.Fatalf("a write Redis refused half-way changed keys (-before +after):\n%s", d)
	}
	s.c.Del(ctx, bad)
	for _, z := range saved {
		s.c.ZAdd(ctx, bad, z)
	}
	if _, err := s.Apply(ctx, &calendar.Write{Steps: steps}); err != nil {
		t.Fatal(err)
	}
	checkConsistency(t, s.c, s)
	if got := mustList(t, s, &calendar.PostQuery{Kind: calendar.KindEvent, CategoryIDs: []int64{f.cat.ID}}); got.Total != 2 {
		t.Errorf("events in the category: %d, want 2 (kept and late)", got.Total)
	}
}

func mustList(t *testing.T, s *Store, q *calendar.PostQuery) *calendar.PostPage {
	t.Helper()
	page, err := s.ListPosts(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// Steps see the effects of the steps before them: a slug or a name taken
// earlier in the write, a record deleted earlier, a record updated twice.
func TestApplyStepsSeeEarlierSteps(t *testing.T) {
	s := newTestStore(t, singleClient(t))
	ctx := context.Background()
	v := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Date: t0, Slug: "hall", Lang: "en", Title: calendar.Text{"en": "Hall"}})
	up := v.Clone()
	up.Slug = "room"
	res, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpCreatePost, Post: event("same", t0)},
		{Op: calendar.OpCreatePost, Post: event("same", t0)},
		{Op: calendar.OpUpdatePost, Post: up},
		{Op: calendar.OpCreatePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Date: t0, Slug: "hall"}}, // freed by step 2
		{Op: calendar.OpEnsureTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "a", Lang: "en", Name: calendar.Text{"en": "A"}}},
		{Op: calendar.OpEnsureTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: "a", Lang: "en", Name: calendar.Text{"en": " a "}}},
		{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "x", Lang: "en", Title: calendar.Text{"en": "HALL"}}},
		{Op: calendar.OpDeletePost, ID: v.ID},
		{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "y", Lang: "en", Title: calendar.Text{"en": "Hall"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Steps
	if r[0].Post.Slug != "same" || r[1].Post.Slug != "same-2" || r[2].Post.Slug != "room" || r[3].Post.Slug != "hall" {
		t.Errorf("slugs %q %q %q %q", r[0].Post.Slug, r[1].Post.Slug, r[2].Post.Slug, r[3].Post.Slug)
	}
	if r[4].Found || !r[5].Found || r[5].Term.ID != r[4].Term.ID {
		t.Errorf("second ensure of a name the write created: %+v", r[5])
	}
	if !r[6].Found || r[6].Post.ID != v.ID || r[6].Post.Slug != "room" || r[6].Post.Version != 2 {
		t.Errorf("ensure of the venue updated earlier: %+v", r[6].Post)
	}
	if r[8].Found || r[8].Post.ID == v.ID {
		t.Errorf("ensure after the venue was deleted reused it: %+v", r[8])
	}
	checkConsistency(t, s.c, s)
}

// A delete cascades to records created earlier in the same write, whose ids
// only the script knows, and to a category an ensure step may or may not
// have created.
func TestApplyCascadesReachNewRecords(t *testing.T) {
	for _, found := range []bool{false, true} {
		t.Run(fmt.Sprint("found=", found), func(t *testing.T) {
			s := newTestStore(t, singleClient(t))
			ctx := context.Background()
			tag := mustTerm(t, s, calendar.TaxonomyTag, "t", 0)
			top := mustTerm(t, s, calendar.TaxonomyCategory, "top", 0)
			old := mustTerm(t, s, calendar.TaxonomyCategory, "old", top.ID)
			ev := event("new", t0)
			ev.TagIDs = []int64{tag.ID}
			name := "Brand new"
			if found {
				name = "OLD" // exists, under top
			}
			res, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
				{Op: calendar.OpCreatePost, Post: ev},
				{Op: calendar.OpEnsureTerm, Term: &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "b", Lang: "en",
					Name: calendar.Text{"en": name}, Parent: top.ID}},
				{Op: calendar.OpDeleteTerm, ID: tag.ID},
				{Op: calendar.OpDeleteTerm, ID: top.ID},
			}})
			if err != nil {
				t.Fatal(err)
			}
			if got := mustGetPost(t, s, res.Steps[0].Post.ID); len(got.TagIDs) != 0 || got.Version != 2 {
				t.Errorf("event created then unlinked: tags %v version %d", got.TagIDs, got.Version)
			}
			c := mustGetTerm(t, s, res.Steps[1].Term.ID)
			if c.Parent != 0 || c.Version != 2 || res.Steps[1].Found != found || found && c.ID != old.ID {
				t.Errorf("category %+v (found %v) after its parent was deleted", c, res.Steps[1].Found)
			}
			checkConsistency(t, s.c, s)
		})
	}
}

func mustGetPost(t *testing.T, s *Store, id int64) *calendar.PostRecord {
	t.Helper()
	p, err := s.GetPost(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustGetTerm(t *testing.T, s *Store, id int64) *calendar.TermRecord {
	t.Helper()
	tr, err := s.GetTerm(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// resend is a go-redis hook that sends every apply script twice, as the
// client does when a reply does not come in time: the second reply is the
// one the caller sees.
type resend struct{ on bool }

func (h *resend) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *resend) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		args := cmd.Args()
		if h.on && len(args) > 1 && (cmd.Name() == "evalsha" && args[1] == applyScript.Hash()) {
			if err := next(ctx, cmd); err != nil {
				return err
			}
		}
		return next(ctx, cmd)
	}
}

func (h *resend) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// A write the client sends twice (its reply came too late, the client
// retried) is written once, and the second reply is the first one: no
// duplicate records, no conflict with itself.
func TestApplyResentByTheClient(t *testing.T) {
	c := singleClient(t)
	h := &resend{}
	c.AddHook(h)
	s := newTestStore(t, c)
	ctx := context.Background()
	mustCreate(t, s, event("warm", t0)) // loads the script: EVALSHA from now on
	h.on = true
	ev := event("twice", t0)
	ev.VenueIDs = []int64{calendar.StepRef(0)}
	res, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Date: t0, Slug: "hall", Lang: "en", Title: calendar.Text{"en": "Hall"}}, Now: t0},
		{Op: calendar.OpCreatePost, Post: ev},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Steps[0].Found || res.Steps[1].Post.Slug != "twice" {
		t.Errorf("the re-sent write saw its own first run: %+v %+v", res.Steps[0], res.Steps[1].Post)
	}
	up := res.Steps[1].Post.Clone()
	up.Title = calendar.Text{"en": "once"}
	got, err := s.UpdatePost(ctx, up)
	if err != nil || got.Version != 2 {
		t.Fatalf("re-sent update: %+v, %v (want version 2, no conflict with itself)", got, err)
	}
	h.on = false
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue} {
		if page := mustList(t, s, &calendar.PostQuery{Kind: k}); k == calendar.KindVenue && page.Total != 1 || k == calendar.KindEvent && page.Total != 2 {
			t.Errorf("%d %ss after re-sent writes", page.Total, k)
		}
	}
	checkConsistency(t, c, s)
}

// A delete whose cascade would miss an event of the same write — one linked
// through an ensure step that found the very record deleted, which the plan
// could not know — is refused whole. A stray index member (an event the
// index lists but whose record no longer links the venue) does not block a
// delete.
func TestApplyDeleteOfAnEnsuredRecord(t *testing.T) {
	s := newTestStore(t, singleClient(t))
	ctx := context.Background()
	hall := mustCreate(t, s, &calendar.PostRecord{Kind: calendar.KindVenue, Status: calendar.StatusPublish, Date: t0, Slug: "hall",
		Lang: "en", Title: calendar.Text{"en": "Hall"}})
	before := snapshotKeys(t, s.c, s)
	ev := event("e", t0)
	ev.VenueIDs = []int64{calendar.StepRef(0)}
	_, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{
		{Op: calendar.OpEnsurePost, Post: &calendar.PostRecord{Kind: calendar.KindVenue, Date: t0, Slug: "x", Lang: "en", Title: calendar.Text{"en": "hall"}}, Now: t0},
		{Op: calendar.OpCreatePost, Post: ev},
		{Op: calendar.OpDeletePost, ID: hall.ID},
	}})
	var se *calendar.StepError
	if !errors.As(err, &se) || se.Step != 2 || !errors.Is(err, calendar.ErrInvalid) {
		t.Fatalf("err = %v, want an ErrInvalid StepError for step 2", err)
	}
	if d := cmp.Diff(before, snapshotKeys(t, s.c, s)); d != "" {
		t.Fatalf("the refused write changed keys:\n%s", d)
	}

	other := mustCreate(t, s, event("other", t0))
	s.c.ZAdd(ctx, s.k.evLink(calendar.KindVenue, hall.ID), redis.Z{Score: 1, Member: itoa(other.ID)})
	if err := s.DeletePost(ctx, hall.ID, 0); err != nil {
		t.Fatalf("delete with a stray index member: %v", err)
	}
	if got := mustGetPost(t, s, other.ID); got.Version != 1 {
		t.Errorf("the stray member's event was rewritten: version %d", got.Version)
	}
	checkConsistency(t, s.c, s)
}

// The script writes the index entries and meta of a new record without
// reading them first (HSETNX, ZADD NX), on the plan's word that they are
// absent. Where that is wrong — entries left under the id the sequence
// hands out next — the write still replaces them, and a write that is undone
// puts them back as they were.
func TestApplyUndoRestoresEntriesThePlanThoughtAbsent(t *testing.T) {
	s := newTestStore(t, singleClient(t))
	ctx := context.Background()
	mustCreate(t, s, event("first", t0))
	last, err := s.c.Get(ctx, s.k.tag+"seq:post").Int64()
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(last + 1)
	s.c.ZAdd(ctx, s.k.evStart(), redis.Z{Score: 42, Member: id})
	s.c.ZAdd(ctx, s.k.evStatus(calendar.StatusPublish), redis.Z{Score: 43, Member: id})
	s.c.HSet(ctx, s.k.meta(), id, "stray")
	before := snapshotKeys(t, s.c, s)

	boom := errors.New("boom")
	s.FailApplyAfter(1, boom)
	if _, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{{Op: calendar.OpCreatePost, Post: event("second", t0)}}}); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the injected failure", err)
	}
	if d := cmp.Diff(before, snapshotKeys(t, s.c, s)); d != "" {
		t.Fatalf("the undone write changed keys (-before +after):\n%s", d)
	}

	p := mustCreate(t, s, event("second", t0))
	if fmt.Sprint(p.ID) != id {
		t.Fatalf("created id %d, want %s", p.ID, id)
	}
	if sc := s.c.ZScore(ctx, s.k.evStart(), id).Val(); sc != float64(t0.UnixMicro()) {
		t.Errorf("ev:start score %v, want the event's start %d", sc, t0.UnixMicro())
	}
	if m := s.c.HGet(ctx, s.k.meta(), id).Val(); m == "stray" {
		t.Error("the meta left under the id was not replaced")
	}
	checkConsistency(t, s.c, s)
}
