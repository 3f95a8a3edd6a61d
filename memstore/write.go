package memstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// Apply performs every step of w under the write lock. Each step changes the
// store directly through putPost/putTerm while a tx remembers what every
// touched record was before; a failing step puts those back, so the store
// ends as if w never ran. See calendar.Repository.
func (s *Store) Apply(ctx context.Context, w *calendar.Write) (*calendar.WriteResult, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if w == nil {
		return nil, errInvalid("apply: nil write")
	}
	// Clone the input before locking: the clones need no lock, and the
	// store never keeps the caller's records.
	steps := make([]calendar.Step, len(w.Steps))
	for i, st := range w.Steps {
		steps[i] = st
		steps[i].Post, steps[i].Term = st.Post.Clone(), st.Term.Clone()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &tx{s: s, lastPost: s.lastPost, lastTerm: s.lastTerm,
		posts: map[int64]*calendar.PostRecord{}, terms: map[int64]*calendar.TermRecord{}}
	res := &calendar.WriteResult{Steps: make([]calendar.StepResult, len(steps))}
	for i := range steps {
		r, err := t.step(steps[i], res.Steps[:i])
		if err != nil {
			t.rollback()
			return nil, &calendar.StepError{Step: i, Op: steps[i].Op, Err: err}
		}
		res.Steps[i] = r
		if s.failErr != nil && i+1 == s.failAfter {
			err := s.failErr
			s.failAfter, s.failErr = 0, nil
			t.rollback()
			return nil, &calendar.StepError{Step: i, Op: steps[i].Op, Err: err}
		}
	}
	s.commitChanges(t.changes)
	// The results alias stored records, which are never modified in place.
	for i, r := range res.Steps {
		res.Steps[i].Post, res.Steps[i].Term = r.Post.Clone(), r.Term.Clone()
	}
	return res, nil
}

// applyOne runs a one-step write for the single-record methods and returns
// the step's own error, not the StepError around it.
func (s *Store) applyOne(ctx context.Context, st calendar.Step) (calendar.StepResult, error) {
	res, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{st}})
	if err != nil {
		if se, ok := err.(*calendar.StepError); ok {
			return calendar.StepResult{}, se.Err
		}
		return calendar.StepResult{}, err
	}
	return res.Steps[0], nil
}

// tx is the undo log of one Apply: the first version of every record it
// touched (nil: the record did not exist) and the sequences as they were.
type tx struct {
	s                  *Store
	lastPost, lastTerm int64
	posts              map[int64]*calendar.PostRecord
	postOrder          []int64
	terms              map[int64]*calendar.TermRecord
	termOrder          []int64
	changes            []calendar.Change // one per record write, in order
}

func (t *tx) putPost(old, rec *calendar.PostRecord) {
	id := postID(old)
	if rec != nil {
		id = rec.ID
	}
	if _, seen := t.posts[id]; !seen {
		t.posts[id] = old
		t.postOrder = append(t.postOrder, id)
	}
	t.changes = append(t.changes, calendar.PostChange(old, rec))
	t.s.putPost(old, rec)
}

func (t *tx) putTerm(old, rec *calendar.TermRecord) {
	id := termID(old)
	if rec != nil {
		id = rec.ID
	}
	if _, seen := t.terms[id]; !seen {
		t.terms[id] = old
		t.termOrder = append(t.termOrder, id)
	}
	t.changes = append(t.changes, calendar.TermChange(old, rec))
	t.s.putTerm(old, rec)
}

// rollback puts every touched record back as it was, newest first.
func (t *tx) rollback() {
	for _, id := range slices.Backward(t.postOrder) {
		t.s.putPost(t.s.posts[id], t.posts[id])
	}
	for _, id := range slices.Backward(t.termOrder) {
		t.s.putTerm(t.s.terms[id], t.terms[id])
	}
	t.s.lastPost, t.s.lastTerm = t.lastPost, t.lastTerm
}

func (t *tx) step(st calendar.Step, done []calendar.StepResult) (calendar.StepResult, error) {
	switch st.Op {
	case calendar.OpCreatePost, calendar.OpUpdatePost, calendar.OpEnsurePost:
		if st.Post == nil {
			return calendar.StepResult{}, errInvalid("%s: nil record", st.Op)
		}
		if err := storage.ResolvePostRefs(st.Post, done); err != nil {
			return calendar.StepResult{}, err
		}
		var p *calendar.PostRecord
		var found bool
		var err error
		switch st.Op {
		case calendar.OpCreatePost:
			p, err = t.createPost(st.Post)
		case calendar.OpUpdatePost:
			p, err = t.updatePost(st.Post)
		default:
			p, found, err = t.ensurePost(st)
		}
		return calendar.StepResult{Post: p, Found: found}, err
	case calendar.OpCreateTerm, calendar.OpUpdateTerm, calendar.OpEnsureTerm:
		if st.Term == nil {
			return calendar.StepResult{}, errInvalid("%s: nil record", st.Op)
		}
		if err := storage.ResolveTermRefs(st.Term, done); err != nil {
			return calendar.StepResult{}, err
		}
		var tr *calendar.TermRecord
		var found bool
		var err error
		switch st.Op {
		case calendar.OpCreateTerm:
			tr, err = t.createTerm(st.Term)
		case calendar.OpUpdateTerm:
			tr, err = t.updateTerm(st.Term)
		default:
			tr, found, err = t.ensureTerm(st.Term)
		}
		return calendar.StepResult{Term: tr, Found: found}, err
	case calendar.OpDeletePost:
		return calendar.StepResult{}, t.deletePost(st.ID, st.Version)
	case calendar.OpDeleteTerm:
		return calendar.StepResult{}, t.deleteTerm(st.ID, st.Version)
	}
	return calendar.StepResult{}, errInvalid("unknown step operation %v", st.Op)
}

// checkPostLinks: every record an event links to exists, of the right kind.
func (s *Store) checkPostLinks(p *calendar.PostRecord) error {
	if p.Kind != calendar.KindEvent {
		return nil
	}
	for _, k := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
		for _, id := range p.Links(k) {
			if l := s.posts[id]; l == nil || l.Kind != k {
				return errLinkMissing(k, id)
			}
		}
	}
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		for _, id := range p.Links(tax.Kind()) {
			if l := s.terms[id]; l == nil || l.Taxonomy != tax {
				return errLinkMissing(tax.Kind(), id)
			}
		}
	}
	if p.PostParent != 0 {
		if l := s.posts[p.PostParent]; l == nil || l.Kind != calendar.KindEvent || p.PostParent == p.ID {
			return errLinkMissing(calendar.KindEvent, p.PostParent)
		}
	}
	return nil
}

func (s *Store) checkUID(p *calendar.PostRecord) error {
	if p.UID == "" {
		return nil
	}
	if holder, ok := s.postUIDs[p.Kind][p.UID]; ok && holder != p.ID {
		return fmt.Errorf("memstore: %s uid %q is held by post %d: %w", p.Kind, p.UID, holder, calendar.ErrConflict)
	}
	return nil
}

func (t *tx) createPost(rec *calendar.PostRecord) (*calendar.PostRecord, error) {
	s := t.s
	if !rec.Kind.IsPost() {
		return nil, errInvalid("create post: not an event, venue or organizer")
	}
	if rec.ID < 0 {
		return nil, errInvalid("create post: negative id %d", rec.ID)
	}
	if rec.ID > 0 {
		if _, held := s.posts[rec.ID]; held {
			return nil, fmt.Errorf("memstore: post id %d is taken: %w", rec.ID, calendar.ErrConflict)
		}
		s.lastPost = max(s.lastPost, rec.ID)
	} else {
		s.lastPost++
		rec.ID = s.lastPost
	}
	if err := s.checkPostLinks(rec); err != nil {
		return nil, err
	}
	if err := s.checkUID(rec); err != nil {
		return nil, err
	}
	rec.Version = 1
	rec.Slug = freeSlug(s.postSlugs[rec.Kind], rec.Slug, rec.ID)
	t.putPost(nil, rec)
	return rec, nil
}

func (t *tx) updatePost(rec *calendar.PostRecord) (*calendar.PostRecord, error) {
	s := t.s
	old := s.posts[rec.ID]
	if old == nil {
		return nil, errPostNotFound(rec.ID)
	}
	if rec.Kind != old.Kind {
		return nil, errInvalid("update post %d: it is a %s, not a %s", rec.ID, old.Kind, rec.Kind)
	}
	if rec.Version != old.Version {
		return nil, errVersion("post", rec.ID, rec.Version, old.Version)
	}
	if err := s.checkPostLinks(rec); err != nil {
		return nil, err
	}
	if err := s.checkUID(rec); err != nil {
		return nil, err
	}
	rec.Version++
	rec.Slug = freeSlug(s.postSlugs[rec.Kind], rec.Slug, rec.ID)
	t.putPost(old, rec)
	return rec, nil
}

func (t *tx) ensurePost(st calendar.Step) (*calendar.PostRecord, bool, error) {
	rec := st.Post
	if rec.Kind != calendar.KindVenue && rec.Kind != calendar.KindOrganizer {
		return nil, false, errInvalid("ensure post: only venues and organizers are found by name")
	}
	key := calendar.NameKey(rec.Title.Get(rec.Lang, rec.Lang))
	if key == "" {
		return nil, false, errInvalid("ensure post: the record has no name in its language")
	}
	for _, id := range t.s.postNames[rec.Kind][key] {
		p := t.s.posts[id]
		if es := p.EffectiveStatus(st.Now); es != calendar.StatusTrash && st.Visible.Allows(p.Author, es) {
			return p, true, nil
		}
	}
	p, err := t.createPost(rec)
	return p, false, err
}

func (t *tx) deletePost(id, version int64) error {
	s := t.s
	old := s.posts[id]
	if old == nil {
		return errPostNotFound(id)
	}
	if version != 0 && version != old.Version {
		return errVersion("post", id, version, old.Version)
	}
	// Every event naming id as venue, organizer or parent, each once, read
	// before any change: rewriting an event edits the lists.
	var refs []*calendar.PostRecord
	for _, l := range []*postList{s.links[calendar.KindVenue][id], s.links[calendar.KindOrganizer][id], s.children[id]} {
		if l == nil {
			continue
		}
		for _, e := range l.records() {
			if e.ID != id && !slices.Contains(refs, e) {
				refs = append(refs, e)
			}
		}
	}
	t.putPost(old, nil)
	for _, e := range refs {
		rec := e.Clone()
		rec.VenueIDs = without(rec.VenueIDs, id)
		rec.OrganizerIDs = without(rec.OrganizerIDs, id)
		if rec.PostParent == id {
			rec.PostParent = 0
		}
		rec.Version++
		t.putPost(e, rec)
	}
	return nil
}

// checkTermNames: no other term of the taxonomy at rec's level holds one of
// its names.
func (s *Store) checkTermNames(rec *calendar.TermRecord) error {
	for _, key := range rec.NameKeys() {
		for _, id := range s.termNames[rec.Taxonomy][key] {
			if o := s.terms[id]; id != rec.ID && o.Parent == rec.Parent {
				return &calendar.NameTakenError{Taxonomy: rec.Taxonomy, Parent: rec.Parent, Name: key, ID: id}
			}
		}
	}
	return nil
}

func (s *Store) checkTermParent(rec *calendar.TermRecord) error {
	if rec.Parent == 0 {
		return nil
	}
	if p := s.terms[rec.Parent]; p == nil || p.Taxonomy != calendar.TaxonomyCategory ||
		rec.Taxonomy != calendar.TaxonomyCategory || rec.Parent == rec.ID {
		return errLinkMissing(calendar.KindCategory, rec.Parent)
	}
	return nil
}

func (t *tx) createTerm(rec *calendar.TermRecord) (*calendar.TermRecord, error) {
	s := t.s
	if rec.Taxonomy.Kind() == 0 {
		return nil, errInvalid("create term: unknown taxonomy")
	}
	if rec.ID < 0 {
		return nil, errInvalid("create term: negative id %d", rec.ID)
	}
	if rec.ID > 0 {
		if _, held := s.terms[rec.ID]; held {
			return nil, fmt.Errorf("memstore: term id %d is taken: %w", rec.ID, calendar.ErrConflict)
		}
		s.lastTerm = max(s.lastTerm, rec.ID)
	} else {
		s.lastTerm++
		rec.ID = s.lastTerm
	}
	if err := s.checkTermParent(rec); err != nil {
		return nil, err
	}
	if err := s.checkTermNames(rec); err != nil {
		return nil, err
	}
	rec.Version = 1
	rec.Slug = freeSlug(s.termSlugs[rec.Taxonomy], rec.Slug, rec.ID)
	t.putTerm(nil, rec)
	return rec, nil
}

func (t *tx) updateTerm(rec *calendar.TermRecord) (*calendar.TermRecord, error) {
	s := t.s
	old := s.terms[rec.ID]
	if old == nil {
		return nil, errTermNotFound(rec.ID)
	}
	if rec.Taxonomy != old.Taxonomy {
		return nil, errInvalid("update term %d: it is in %s, not %s", rec.ID, old.Taxonomy, rec.Taxonomy)
	}
	if rec.Version != old.Version {
		return nil, errVersion("term", rec.ID, rec.Version, old.Version)
	}
	if err := s.checkTermParent(rec); err != nil {
		return nil, err
	}
	if err := s.checkTermNames(rec); err != nil {
		return nil, err
	}
	rec.Version++
	rec.Slug = freeSlug(s.termSlugs[rec.Taxonomy], rec.Slug, rec.ID)
	t.putTerm(old, rec)
	return rec, nil
}

func (t *tx) ensureTerm(rec *calendar.TermRecord) (*calendar.TermRecord, bool, error) {
	key := calendar.NameKey(rec.Name.Get(rec.Lang, rec.Lang))
	if key == "" {
		return nil, false, errInvalid("ensure term: the record has no name in its language")
	}
	if ids := t.s.termNames[rec.Taxonomy][key]; len(ids) > 0 {
		return t.s.terms[ids[0]], true, nil
	}
	tr, err := t.createTerm(rec)
	return tr, false, err
}

func (t *tx) deleteTerm(id, version int64) error {
	s := t.s
	old := s.terms[id]
	if old == nil {
		return errTermNotFound(id)
	}
	if version != 0 && version != old.Version {
		return errVersion("term", id, version, old.Version)
	}
	kind := old.Taxonomy.Kind()
	var events []*calendar.PostRecord
	if l := s.links[kind][id]; l != nil {
		events = l.records() // a copy: rewriting an event edits l
	}
	t.putTerm(old, nil)
	for _, e := range events {
		rec := e.Clone()
		rec.SetLinks(kind, without(rec.Links(kind), id))
		rec.Version++
		t.putPost(e, rec)
	}
	if old.Taxonomy.Hierarchical() {
		for _, cid := range slices.Clone(s.termIDs[old.Taxonomy]) {
			if c := s.terms[cid]; c.Parent == id {
				rec := c.Clone()
				rec.Parent = old.Parent
				rec.Version++
				t.putTerm(c, rec)
			}
		}
	}
	return nil
}
