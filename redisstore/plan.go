package redisstore

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// A planner turns a calendar.Write into the arguments of applyScript. It
// plays the steps in order on the records the Go side read (reads) and on
// those the write itself creates, so that it can encode every record the
// write stores, diff every index entry, and plan the cascades of deletes.
// What only the script can know when it runs — the ids of new records, the
// records ensure steps find, the slugs — stays a hole (tval). Every record
// and index set the plan rests on is guarded by the SHA-1 of what was read,
// so a concurrent writer makes the script refuse ("stale") and the write is
// planned again.
type planner struct {
	k     keys
	steps []calendar.Step
	rd    *reads

	posts, terms map[int64]*rstate // by real id
	all          []*rstate         // every record the plan knows, in the order met
	made         []*rstate         // by step: the record a create or ensure step makes
	planned      []any             // by step: the record as the step leaves it (results)

	guards  []any
	ng      int
	guarded map[string]bool
	args    []any // the steps, as applyScript reads them

	// stopAt is the step at which planning failed with stopErr; -1 when
	// every step is planned. The script still checks the steps before it, so
	// that an earlier failure is the one reported.
	stopAt  int
	stopErr error

	now time.Time // the time of the write's changes
}

// rstate is a record as the plan has it at some point of the write.
type rstate struct {
	post *calendar.PostRecord
	term *calendar.TermRecord
	// idStep and slugStep name the step whose script decision the id and
	// the slug are (-1: known, in the record). cond is the ensure step whose
	// create this record is (-1: it surely exists).
	idStep, slugStep, cond int
	gone                   bool
}

func (st *rstate) id() int64 {
	if st.post != nil {
		return st.post.ID
	}
	return st.term.ID
}

func (st *rstate) idVal() tval {
	if st.idStep >= 0 {
		return holeID(st.idStep)
	}
	return lit(itoa(st.id()))
}

func (st *rstate) slugVal() tval {
	if st.slugStep >= 0 {
		return hole("r" + strconv.Itoa(st.slugStep))
	}
	if st.post != nil {
		return lit(st.post.Slug)
	}
	return lit(st.term.Slug)
}

func (st *rstate) condArg() string {
	if st.cond >= 0 {
		return strconv.Itoa(st.cond)
	}
	return "-"
}

// reads is what Apply read before planning: record values (nil: missing)
// and index set members, by key.
type reads struct {
	vals    map[string][]byte
	members map[string][]string
}

func newPlanner(k keys, steps []calendar.Step, rd *reads) *planner {
	return &planner{k: k, steps: steps, rd: rd, posts: map[int64]*rstate{}, terms: map[int64]*rstate{},
		made: make([]*rstate, len(steps)), planned: make([]any, len(steps)), guarded: map[string]bool{}, stopAt: -1, now: time.Now()}
}

// plan plans every step, stopping at the first that fails.
func (pl *planner) plan() {
	for i, st := range pl.steps {
		var err error
		switch st.Op {
		case calendar.OpCreatePost, calendar.OpEnsurePost:
			err = pl.createPost(i, st)
		case calendar.OpUpdatePost:
			err = pl.updatePost(i, st)
		case calendar.OpDeletePost:
			err = pl.deletePost(i, st.ID, st.Version)
		case calendar.OpCreateTerm, calendar.OpEnsureTerm:
			err = pl.createTerm(i, st)
		case calendar.OpUpdateTerm:
			err = pl.updateTerm(i, st)
		case calendar.OpDeleteTerm:
			err = pl.deleteTerm(i, st.ID, st.Version)
		default:
			err = invalid("unknown step operation %v", st.Op)
		}
		if err != nil {
			pl.stopAt, pl.stopErr = i, err
			return
		}
	}
}

func (pl *planner) guard(key string, raw []byte) {
	if pl.guarded[key] {
		return
	}
	pl.guarded[key] = true
	sum := "-"
	if raw != nil {
		sum = sha1hex(raw)
	}
	pl.guards = append(pl.guards, "v", key, sum)
	pl.ng++
}

func (pl *planner) guardMembers(key string, members []string) {
	if pl.guarded[key] {
		return
	}
	pl.guarded[key] = true
	var b []byte
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m...)
	}
	pl.guards = append(pl.guards, "m", key, sha1hex(b))
	pl.ng++
}

func sha1hex(b []byte) string {
	s := sha1.Sum(b)
	return hex.EncodeToString(s[:])
}

// post returns the state of post id: the plan's, or the one read.
func (pl *planner) post(id int64) (*rstate, error) {
	if st, ok := pl.posts[id]; ok {
		return st, nil
	}
	key := pl.k.post(id)
	raw, ok := pl.rd.vals[key]
	if !ok {
		return nil, fmt.Errorf("redisstore: post %d was not read before planning", id)
	}
	pl.guard(key, raw)
	st := &rstate{idStep: -1, slugStep: -1, cond: -1, gone: raw == nil}
	if raw != nil {
		p, err := storage.DecodePost(raw)
		if err != nil {
			return nil, err
		}
		st.post = p
	}
	pl.posts[id] = st
	pl.all = append(pl.all, st)
	return st, nil
}

// term returns the state of term id: the plan's, or the one read.
func (pl *planner) term(id int64) (*rstate, error) {
	if st, ok := pl.terms[id]; ok {
		return st, nil
	}
	key := pl.k.term(id)
	raw, ok := pl.rd.vals[key]
	if !ok {
		return nil, fmt.Errorf("redisstore: term %d was not read before planning", id)
	}
	pl.guard(key, raw)
	st := &rstate{idStep: -1, slugStep: -1, cond: -1, gone: raw == nil}
	if raw != nil {
		t, err := storage.DecodeTerm(raw)
		if err != nil {
			return nil, err
		}
		st.term = t
	}
	pl.terms[id] = st
	pl.all = append(pl.all, st)
	return st, nil
}

// existing returns the error of a step that updates or deletes the record
// of state st when there is no such record, or when it may be one an ensure
// step creates (whose id the caller cannot know).
func existing(st *rstate, what string, id int64) error {
	if st.gone {
		return notFound(what, id)
	}
	if st.cond >= 0 {
		return invalid("%s %d may be the record ensure step %d creates; a write cannot change it", what, id, st.cond)
	}
	return nil
}

// ref checks a placeholder of step i: it must name an earlier step that
// makes a post (wantPost) or a term. It returns the id to store: the real id
// when that record's id is already known (given on create), else ref.
func (pl *planner) ref(i int, ref int64, wantPost bool) (int64, error) {
	j, ok := calendar.StepOf(ref)
	if !ok {
		return ref, nil
	}
	if j >= i {
		return 0, invalid("placeholder %d refers to step %d, which is not an earlier step", ref, j)
	}
	m := pl.made[j]
	if m == nil || (m.post != nil) != wantPost {
		return 0, invalid("placeholder %d refers to step %d, which makes no record of that sort", ref, j)
	}
	if m.idStep < 0 {
		return m.id(), nil
	}
	return ref, nil
}

func (pl *planner) refs(i int, ids []int64, wantPost bool) error {
	for n, id := range ids {
		r, err := pl.ref(i, id, wantPost)
		if err != nil {
			return err
		}
		ids[n] = r
	}
	return nil
}

// postRefs checks and resolves the placeholders of post p (step i).
func (pl *planner) postRefs(i int, p *calendar.PostRecord) error {
	for _, err := range []error{pl.refs(i, p.VenueIDs, true), pl.refs(i, p.OrganizerIDs, true),
		pl.refs(i, p.CategoryIDs, false), pl.refs(i, p.TagIDs, false)} {
		if err != nil {
			return err
		}
	}
	var err error
	if p.PostParent, err = pl.ref(i, p.PostParent, true); err != nil {
		return err
	}
	for _, id := range append(append(append(append([]int64{p.PostParent}, p.VenueIDs...), p.OrganizerIDs...), p.CategoryIDs...), p.TagIDs...) {
		if id > maxLuaID {
			return invalid("post %d: link id %d is beyond what the store holds", p.ID, id)
		}
	}
	if p.ID > 0 && p.PostParent == p.ID {
		return fmt.Errorf("redisstore: event %d cannot be its own parent: %w", p.ID, calendar.ErrNotFound)
	}
	return nil
}

// maxLuaID is the largest id the script handles exactly (Lua numbers are
// float64).
const maxLuaID = 1<<53 - 1

// postLinks lists the link checks of post p: each link must name a record
// of the right kind, found in that kind's index.
func (pl *planner) postLinks(p *calendar.PostRecord) []linkCheck {
	if p.Kind != calendar.KindEvent {
		return nil
	}
	var out []linkCheck
	for _, k := range linkKinds {
		for _, id := range p.Links(k) {
			out = append(out, linkCheck{pl.k.kindIndex(k), k.String(), refVal(id)})
		}
	}
	if p.PostParent != 0 {
		out = append(out, linkCheck{pl.k.evStart(), "event", refVal(p.PostParent)})
	}
	return out
}

func (pl *planner) createPost(i int, st calendar.Step) error {
	p := st.Post
	if p == nil {
		return invalid("%s: nil record", st.Op)
	}
	p = p.Clone()
	if !p.Kind.IsPost() {
		return invalid("create post: %v is not a post kind", p.Kind)
	}
	sa := &stepArgs{op: "c", fam: "p", id: "0"}
	if st.Op == calendar.OpEnsurePost {
		if p.Kind != calendar.KindVenue && p.Kind != calendar.KindOrganizer {
			return invalid("ensure post: only venues and organizers are found by name, not a %v", p.Kind)
		}
		key := calendar.NameKey(p.Title.Get(p.Lang, p.Lang))
		if key == "" {
			return invalid("ensure post: the record has no name in its language")
		}
		sa.op, sa.look, sa.vis, sa.now = "e", pl.k.postName(p.Kind, key), st.Visible, st.Now
	}
	if p.ID < 0 || p.ID > maxLuaID {
		return invalid("create post: id %d out of range", p.ID)
	}
	if err := pl.postRefs(i, p); err != nil {
		return err
	}
	p.Version = 1
	rs := &rstate{post: p, idStep: i, slugStep: i, cond: -1}
	if p.ID > 0 {
		rs.idStep, sa.id = -1, itoa(p.ID)
	}
	if st.Op == calendar.OpEnsurePost {
		rs.cond = i
	}
	sa.links = pl.postLinks(p)
	if p.UID != "" {
		sa.uidHash, sa.uid = pl.k.uids(p.Kind), p.UID
	}
	sa.slugHash, sa.slugWant = pl.k.slugs(p.Kind), p.Slug
	if err := pl.writePost(sa, "-", nil, rs); err != nil {
		return err
	}
	pl.made[i], pl.planned[i] = rs, p
	if p.ID > 0 {
		pl.posts[p.ID] = rs
	}
	pl.all = append(pl.all, rs)
	pl.args = sa.appendTo(pl.args)
	return nil
}

func (pl *planner) updatePost(i int, st calendar.Step) error {
	p := st.Post
	if p == nil {
		return invalid("%s: nil record", st.Op)
	}
	p = p.Clone()
	cur, err := pl.post(p.ID)
	if err != nil {
		return err
	}
	if err := existing(cur, "post", p.ID); err != nil {
		return err
	}
	old := cur.post
	if p.Kind != old.Kind {
		return invalid("update post %d: it is a %v, not a %v", p.ID, old.Kind, p.Kind)
	}
	if p.Version != old.Version {
		return conflict("post %d is at version %d, not %d", p.ID, old.Version, p.Version)
	}
	if err := pl.postRefs(i, p); err != nil {
		return err
	}
	p.Version = old.Version + 1
	sa := &stepArgs{op: "u", fam: "p", id: itoa(p.ID), links: pl.postLinks(p)}
	if p.UID != "" && p.UID != old.UID {
		sa.uidHash, sa.uid = pl.k.uids(p.Kind), p.UID
	}
	sa.slugHash, sa.slugWant, sa.slugOld = pl.k.slugs(p.Kind), p.Slug, cur.slugVal()
	oldState := *cur
	cur.post, cur.slugStep = p, i
	if err := pl.writePost(sa, "-", &oldState, cur); err != nil {
		return err
	}
	pl.planned[i] = p
	pl.args = sa.appendTo(pl.args)
	return nil
}

// writePost adds the writes that take post state was (nil: none) to now:
// the record, its meta, its index entries and its UID.
func (pl *planner) writePost(sa *stepArgs, cond string, was, now *rstate) error {
	rec, err := encodeWithHoles(func(f *holeFiller) ([]byte, error) {
		c := *now.post
		if now.idStep >= 0 {
			c.ID = f.id("i" + strconv.Itoa(now.idStep))
		}
		if now.slugStep >= 0 {
			c.Slug = f.slugHole("s" + strconv.Itoa(now.slugStep))
		}
		c.PostParent = f.ref(c.PostParent)
		c.VenueIDs, c.OrganizerIDs = f.refs(c.VenueIDs), f.refs(c.OrganizerIDs)
		c.CategoryIDs, c.TagIDs = f.refs(c.CategoryIDs), f.refs(c.TagIDs)
		return storage.EncodePost(&c)
	})
	if err != nil {
		return err
	}
	id, p := now.idVal(), now.post
	var wasPost *calendar.PostRecord
	if was != nil {
		wasPost = was.post
	}
	sa.addChange(cond, calendar.PostChange(wasPost, p), id, seriesVal(p), pl.now)
	sa.add("set", cond, cat(lit(pl.k.postPrefix()), id), rec)
	sa.add(hsetOp(was == nil), cond, lit(pl.k.meta()), id, metaTval(p))
	var before []zent
	oldUID := ""
	if was != nil {
		before, oldUID = pl.k.postEnts(was.post, id), was.post.UID
	}
	sa.reindex(cond, before, pl.k.postEnts(p, id), id)
	if oldUID != p.UID {
		if oldUID != "" {
			sa.add("hdelif", cond, lit(pl.k.uids(p.Kind)), lit(oldUID), id)
		}
		if p.UID != "" {
			sa.add("hins", cond, lit(pl.k.uids(p.Kind)), lit(p.UID), id)
		}
	}
	return nil
}

func (pl *planner) deletePost(i int, id, version int64) error {
	cur, err := pl.post(id)
	if err != nil {
		return err
	}
	if err := existing(cur, "post", id); err != nil {
		return err
	}
	old := cur.post
	if version != 0 && version != old.Version {
		return conflict("post %d is at version %d, not %d", id, old.Version, version)
	}
	sa := &stepArgs{op: "d", fam: "p", id: itoa(id)}
	refKeys := []string{pl.k.evLink(calendar.KindVenue, id), pl.k.evLink(calendar.KindOrganizer, id), pl.k.evParent(id)}
	links := []func(*calendar.PostRecord) bool{
		func(e *calendar.PostRecord) bool { return containsID(e.VenueIDs, id) },
		func(e *calendar.PostRecord) bool { return containsID(e.OrganizerIDs, id) },
		func(e *calendar.PostRecord) bool { return e.PostParent == id },
	}
	if err := pl.loadMembers(refKeys, pl.post); err != nil {
		return err
	}
	var events []*rstate
	for n, key := range refKeys {
		var members []condMember
		for _, st := range pl.all {
			if st.gone || st.post == nil || st.post.Kind != calendar.KindEvent || st == cur || !links[n](st.post) {
				continue
			}
			members = append(members, condMember{st.condArg(), st.idVal()})
			if !containsState(events, st) {
				events = append(events, st)
			}
		}
		sa.expect = append(sa.expect, expectSet{key, members})
	}
	for _, ev := range events {
		was := *ev
		p := ev.post.Clone()
		unlinkPost(p, id)
		p.Version++
		ev.post = p
		if err := pl.writePost(sa, ev.condArg(), &was, ev); err != nil {
			return err
		}
	}
	idv := lit(itoa(id))
	sa.addChange("-", calendar.PostChange(old, nil), idv, seriesVal(old), pl.now)
	sa.add("del", "-", lit(pl.k.post(id)))
	sa.add("hdel", "-", lit(pl.k.meta()), idv)
	sa.reindex("-", pl.k.postEnts(old, idv), nil, idv)
	if old.UID != "" {
		sa.add("hdelif", "-", lit(pl.k.uids(old.Kind)), lit(old.UID), idv)
	}
	for _, key := range refKeys {
		sa.add("del", "-", lit(key))
	}
	sa.slugHash, sa.slugOld = pl.k.slugs(old.Kind), cur.slugVal()
	cur.gone = true
	pl.args = sa.appendTo(pl.args)
	return nil
}

// loadMembers makes sure every record in the index sets keys (read before
// planning) has a state, and guards the sets.
func (pl *planner) loadMembers(keys []string, load func(int64) (*rstate, error)) error {
	for _, key := range keys {
		members, ok := pl.rd.members[key]
		if !ok {
			return fmt.Errorf("redisstore: index %s was not read before planning", key)
		}
		pl.guardMembers(key, members)
		for _, id := range parseIDs(members) {
			if _, err := load(id); err != nil {
				return err
			}
		}
	}
	return nil
}

func containsState(list []*rstate, st *rstate) bool {
	for _, s := range list {
		if s == st {
			return true
		}
	}
	return false
}

func containsID(ids []int64, id int64) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// termRefs checks and resolves the parent of term t (step i).
func (pl *planner) termRefs(i int, t *calendar.TermRecord) error {
	var err error
	if t.Parent, err = pl.ref(i, t.Parent, false); err != nil {
		return err
	}
	if t.Parent > maxLuaID {
		return invalid("term %d: parent id %d is beyond what the store holds", t.ID, t.Parent)
	}
	if t.Parent != 0 && (t.Taxonomy != calendar.TaxonomyCategory || t.Parent == t.ID) {
		return fmt.Errorf("redisstore: %s term cannot have parent %d: %w", t.Taxonomy, t.Parent, calendar.ErrNotFound)
	}
	return nil
}

// termChecks fills the link and name checks of term t.
func (pl *planner) termChecks(sa *stepArgs, t *calendar.TermRecord) {
	kind := t.Taxonomy.Kind()
	if t.Parent != 0 {
		sa.links = append(sa.links, linkCheck{pl.k.kindIndex(calendar.KindCategory), "category", refVal(t.Parent)})
	}
	sa.parent = refVal(t.Parent)
	for _, key := range t.NameKeys() {
		sa.names = append(sa.names, nameCheck{pl.k.termName(kind, key), key})
	}
	sa.slugHash, sa.slugWant = pl.k.slugs(kind), t.Slug
}

func (pl *planner) createTerm(i int, st calendar.Step) error {
	t := st.Term
	if t == nil {
		return invalid("%s: nil record", st.Op)
	}
	t = t.Clone()
	kind := t.Taxonomy.Kind()
	if kind == 0 {
		return invalid("create term: unknown taxonomy %q", t.Taxonomy)
	}
	sa := &stepArgs{op: "c", fam: "t", id: "0"}
	if st.Op == calendar.OpEnsureTerm {
		key := calendar.NameKey(t.Name.Get(t.Lang, t.Lang))
		if key == "" {
			return invalid("ensure term: the record has no name in its language")
		}
		sa.op, sa.look = "e", pl.k.termName(kind, key)
	}
	if t.ID < 0 || t.ID > maxLuaID {
		return invalid("create term: id %d out of range", t.ID)
	}
	if err := pl.termRefs(i, t); err != nil {
		return err
	}
	t.Version = 1
	rs := &rstate{term: t, idStep: i, slugStep: i, cond: -1}
	if t.ID > 0 {
		rs.idStep, sa.id = -1, itoa(t.ID)
	}
	if st.Op == calendar.OpEnsureTerm {
		rs.cond = i
	}
	pl.termChecks(sa, t)
	if err := pl.writeTerm(sa, "-", nil, rs); err != nil {
		return err
	}
	pl.made[i], pl.planned[i] = rs, t
	if t.ID > 0 {
		pl.terms[t.ID] = rs
	}
	pl.all = append(pl.all, rs)
	pl.args = sa.appendTo(pl.args)
	return nil
}

func (pl *planner) updateTerm(i int, st calendar.Step) error {
	t := st.Term
	if t == nil {
		return invalid("%s: nil record", st.Op)
	}
	t = t.Clone()
	cur, err := pl.term(t.ID)
	if err != nil {
		return err
	}
	if err := existing(cur, "term", t.ID); err != nil {
		return err
	}
	old := cur.term
	if t.Taxonomy != old.Taxonomy {
		return invalid("update term %d: it is in %s, not %s", t.ID, old.Taxonomy, t.Taxonomy)
	}
	if t.Version != old.Version {
		return conflict("term %d is at version %d, not %d", t.ID, old.Version, t.Version)
	}
	if err := pl.termRefs(i, t); err != nil {
		return err
	}
	t.Version = old.Version + 1
	sa := &stepArgs{op: "u", fam: "t", id: itoa(t.ID)}
	pl.termChecks(sa, t)
	sa.slugOld = cur.slugVal()
	oldState := *cur
	cur.term, cur.slugStep = t, i
	if err := pl.writeTerm(sa, "-", &oldState, cur); err != nil {
		return err
	}
	pl.planned[i] = t
	pl.args = sa.appendTo(pl.args)
	return nil
}

// writeTerm adds the writes that take term state was (nil: none) to now.
func (pl *planner) writeTerm(sa *stepArgs, cond string, was, now *rstate) error {
	rec, err := encodeWithHoles(func(f *holeFiller) ([]byte, error) {
		c := *now.term
		if now.idStep >= 0 {
			c.ID = f.id("i" + strconv.Itoa(now.idStep))
		}
		if now.slugStep >= 0 {
			c.Slug = f.slugHole("s" + strconv.Itoa(now.slugStep))
		}
		c.Parent = f.ref(c.Parent)
		return storage.EncodeTerm(&c)
	})
	if err != nil {
		return err
	}
	id := now.idVal()
	var wasTerm *calendar.TermRecord
	if was != nil {
		wasTerm = was.term
	}
	sa.addChange(cond, calendar.TermChange(wasTerm, now.term), id, lit("0"), pl.now)
	sa.add("set", cond, cat(lit(pl.k.termPrefix()), id), rec)
	var before []zent
	if was != nil {
		before = pl.k.termEnts(was.term, id)
	}
	sa.reindex(cond, before, pl.k.termEnts(now.term, id), id)
	return nil
}

func (pl *planner) deleteTerm(i int, id, version int64) error {
	cur, err := pl.term(id)
	if err != nil {
		return err
	}
	if err := existing(cur, "term", id); err != nil {
		return err
	}
	old := cur.term
	if version != 0 && version != old.Version {
		return conflict("term %d is at version %d, not %d", id, old.Version, version)
	}
	kind := old.Taxonomy.Kind()
	linkKey, childKey := pl.k.evLink(kind, id), pl.k.children(id)
	if err := pl.loadMembers([]string{linkKey}, pl.post); err != nil {
		return err
	}
	if err := pl.loadMembers([]string{childKey}, pl.term); err != nil {
		return err
	}
	sa := &stepArgs{op: "d", fam: "t", id: itoa(id)}
	var events, children []*rstate
	var evMembers, childMembers []condMember
	for _, st := range pl.all {
		switch {
		case st.gone || st == cur:
		case st.post != nil && st.post.Kind == calendar.KindEvent && containsID(st.post.Links(kind), id):
			events = append(events, st)
			evMembers = append(evMembers, condMember{st.condArg(), st.idVal()})
		case st.term != nil && st.term.Parent == id:
			children = append(children, st)
			childMembers = append(childMembers, condMember{st.condArg(), st.idVal()})
		}
	}
	sa.expect = []expectSet{{linkKey, evMembers}, {childKey, childMembers}}
	for _, ev := range events {
		was := *ev
		p := ev.post.Clone()
		unlink(p, kind, id)
		p.Version++
		ev.post = p
		if err := pl.writePost(sa, ev.condArg(), &was, ev); err != nil {
			return err
		}
	}
	for _, ch := range children {
		if ch.term.Taxonomy != old.Taxonomy || ch.idStep < 0 && ch.term.ID == old.Parent {
			continue
		}
		was := *ch
		t := ch.term.Clone()
		t.Parent = old.Parent
		t.Version++
		ch.term = t
		if err := pl.writeTerm(sa, ch.condArg(), &was, ch); err != nil {
			return err
		}
	}
	idv := lit(itoa(id))
	sa.addChange("-", calendar.TermChange(old, nil), idv, lit("0"), pl.now)
	sa.add("del", "-", lit(pl.k.term(id)))
	sa.reindex("-", pl.k.termEnts(old, idv), nil, idv)
	sa.add("del", "-", lit(linkKey))
	sa.add("del", "-", lit(childKey))
	sa.slugHash, sa.slugOld = pl.k.slugs(kind), cur.slugVal()
	cur.gone = true
	pl.args = sa.appendTo(pl.args)
	return nil
}

// stepArgs is one step as applyScript reads it; see the script.
type stepArgs struct {
	op, fam, id string
	look        string
	vis         calendar.Visibility
	now         time.Time
	links       []linkCheck
	expect      []expectSet
	uidHash     string
	uid         string
	parent      tval
	names       []nameCheck
	slugHash    string
	slugWant    string
	slugOld     tval
	ops         []any
	nops        int
}

type linkCheck struct {
	index, label string
	ref          tval
}

type expectSet struct {
	key     string
	members []condMember
}

type condMember struct {
	cond   string
	member tval
}

type nameCheck struct{ index, key string }

func (sa *stepArgs) add(cmd, cond string, vals ...tval) {
	sa.ops = append(sa.ops, cmd, cond)
	for _, v := range vals {
		sa.ops = v.appendArgs(sa.ops)
	}
	sa.nops++
}

// hsetOp is the op that sets a hash field: "hins" when the plan has the
// field absent (a new record's), which the script writes with HSETNX and no
// read of the old value first, else "hset". Either writes the same; the hint
// only spares the script a round of its undo journal when it is right.
func hsetOp(absent bool) string {
	if absent {
		return "hins"
	}
	return "hset"
}

// reindex adds the writes that move member from the entries old to now,
// touching only what changed.
func (sa *stepArgs) reindex(cond string, old, now []zent, member tval) {
	nowm := make(map[string]string, len(now))
	for _, e := range now {
		nowm[e.key.String()] = e.score.String()
	}
	oldm := make(map[string]string, len(old))
	for _, e := range old {
		k := e.key.String()
		if _, seen := oldm[k]; seen {
			continue
		}
		oldm[k] = e.score.String()
		if _, keep := nowm[k]; !keep {
			sa.add("zrem", cond, e.key, member)
		}
	}
	done := make(map[string]bool, len(now))
	for _, e := range now {
		k := e.key.String()
		if s, ok := oldm[k]; (!ok || s != e.score.String()) && !done[k] {
			cmd := "zadd"
			if !ok {
				cmd = "zins" // not in the set as the plan read it
			}
			sa.add(cmd, cond, e.key, e.score, member)
		}
		done[k] = true
	}
}

func (sa *stepArgs) appendTo(args []any) []any {
	args = append(args, sa.op, sa.fam, sa.id, sa.look)
	args = appendVisibility(args, sa.vis, sa.now)
	args = append(args, len(sa.links))
	for _, l := range sa.links {
		args = append(args, l.index, l.label)
		args = l.ref.appendArgs(args)
	}
	args = append(args, len(sa.expect))
	for _, e := range sa.expect {
		args = append(args, e.key, len(e.members))
		for _, m := range e.members {
			args = append(args, m.cond)
			args = m.member.appendArgs(args)
		}
	}
	args = append(args, sa.uidHash, sa.uid, len(sa.names))
	parent := sa.parent
	if parent.lits == nil {
		parent = lit("0")
	}
	args = parent.appendArgs(args)
	for _, n := range sa.names {
		args = append(args, n.index, n.key)
	}
	old := sa.slugOld
	if old.lits == nil {
		old = lit("")
	}
	args = append(args, sa.slugHash, sa.slugWant)
	args = old.appendArgs(args)
	args = append(args, sa.nops)
	return append(args, sa.ops...)
}

// appendVisibility encodes v at now as visibleLua reads it.
func appendVisibility(args []any, v calendar.Visibility, now time.Time) []any {
	zero, owner := "0", ""
	if v.IsZero() {
		zero = "1"
	}
	if v.Owner != 0 {
		owner = string(binary.AppendVarint(nil, v.Owner))
	}
	args = append(args, zero, now.Unix(), now.Nanosecond(), owner, len(v.Statuses))
	for _, s := range v.Statuses {
		args = append(args, string(s))
	}
	args = append(args, len(v.OwnStatuses))
	for _, s := range v.OwnStatuses {
		args = append(args, string(s))
	}
	return args
}
