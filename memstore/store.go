package memstore

import (
	"slices"
	"sync"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// Store is an in-memory calendar.Repository. The zero value is not usable;
// call New.
type Store struct {
	// mu guards everything below: readers share it, writers hold it alone,
	// which is what makes each write atomic.
	mu sync.RWMutex

	lastPost, lastTerm int64 // the two id sequences; ids are never reused

	posts map[int64]*calendar.PostRecord
	terms map[int64]*calendar.TermRecord

	postSlugs map[calendar.Kind]map[string]int64     // per post kind: slug → id
	termSlugs map[calendar.Taxonomy]map[string]int64 // per taxonomy: slug → id
	termIDs   map[calendar.Taxonomy][]int64          // per taxonomy, ascending

	// Name indexes: NameKey → ids holding it, ascending. Venues and
	// organizers may share a name (records a caller cannot read are never
	// reused); terms are unique per level, which checkTermNames enforces.
	postNames map[calendar.Kind]map[string][]int64
	termNames map[calendar.Taxonomy]map[string][]int64
	postUIDs  map[calendar.Kind]map[string]int64 // per post kind: UID → id

	byKind   map[calendar.Kind]*postList           // every post of a kind, in list order
	links    map[calendar.Kind]map[int64]*postList // link kind → linked id → events
	children map[int64]*postList                   // PostParent → child events

	// maxSpan is an upper bound of End-Start over the events with End ≥
	// Start; it lets an End lower bound narrow the Start scan. It only
	// grows, which keeps it a valid bound after deletes.
	maxSpan time.Duration
	// oddEnds counts events whose End is zero or before Start. While any
	// exist an End upper bound says nothing about Start.
	oddEnds int

	// failAfter, set only by this package's tests, makes the next Apply
	// fail with failErr once that many steps are applied.
	failAfter int
	failErr   error

	changes   changeLog
	retention calendar.ChangeRetention

	docsMu sync.Mutex
	docs   map[string]*Documents
}

// linkKinds are the kinds an event links to, each with a reverse index.
var linkKinds = [...]calendar.Kind{calendar.KindVenue, calendar.KindOrganizer, calendar.KindCategory, calendar.KindTag}

// New returns an empty store.
func New(opts ...Option) *Store {
	s := &Store{
		posts:     map[int64]*calendar.PostRecord{},
		terms:     map[int64]*calendar.TermRecord{},
		postSlugs: map[calendar.Kind]map[string]int64{},
		termSlugs: map[calendar.Taxonomy]map[string]int64{},
		termIDs:   map[calendar.Taxonomy][]int64{},
		postNames: map[calendar.Kind]map[string][]int64{},
		termNames: map[calendar.Taxonomy]map[string][]int64{},
		postUIDs:  map[calendar.Kind]map[string]int64{},
		byKind:    map[calendar.Kind]*postList{},
		links:     map[calendar.Kind]map[int64]*postList{},
		children:  map[int64]*postList{},
	}
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer} {
		s.postSlugs[k] = map[string]int64{}
		s.postNames[k] = map[string][]int64{}
		s.postUIDs[k] = map[string]int64{}
		s.byKind[k] = &postList{}
	}
	for _, tx := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		s.termSlugs[tx] = map[string]int64{}
		s.termNames[tx] = map[string][]int64{}
	}
	for _, k := range linkKinds {
		s.links[k] = map[int64]*postList{}
	}
	s.retention = calendar.DefaultChangeRetention
	for _, o := range opts {
		o(s)
	}
	return s
}

// Close releases nothing and always succeeds; it exists so that a Store can
// stand in wherever a closable driver is expected.
func (s *Store) Close() error { return nil }

// freeSlug returns the first SlugCandidate of want that no record other than
// self holds in taken.
func freeSlug(taken map[string]int64, want string, self int64) string {
	for n := 1; ; n++ {
		c := calendar.SlugCandidate(want, n)
		if holder, ok := taken[c]; !ok || holder == self {
			return c
		}
	}
}

// distinct returns ids without repeats, in their first order, so that an
// event listing a link twice is indexed once. Link lists are short and need
// no map; a long id list from a query does.
func distinct(ids []int64) []int64 {
	if len(ids) < 2 {
		return ids
	}
	out := make([]int64, 0, len(ids))
	if len(ids) <= 16 {
		for _, id := range ids {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		return out
	}
	seen := make(map[int64]struct{}, len(ids))
	for _, id := range ids {
		if _, dup := seen[id]; !dup {
			seen[id] = struct{}{}
			out = append(out, id)
		}
	}
	return out
}

// index adds a stored post to every index it belongs in. Stored records are
// never modified afterwards: a write replaces the pointer, so readers holding
// the read lock always see whole records.
func (s *Store) index(p *calendar.PostRecord) {
	s.byKind[p.Kind].insert(p)
	if p.Kind != calendar.KindEvent {
		return
	}
	for _, k := range linkKinds {
		for _, id := range distinct(p.Links(k)) {
			addTo(s.links[k], id, p)
		}
	}
	if p.PostParent != 0 {
		addTo(s.children, p.PostParent, p)
	}
	s.trackSpan(p)
}

// unindex removes a stored post from every index index put it in.
func (s *Store) unindex(p *calendar.PostRecord) {
	s.byKind[p.Kind].remove(p)
	if p.Kind != calendar.KindEvent {
		return
	}
	for _, k := range linkKinds {
		for _, id := range distinct(p.Links(k)) {
			removeFrom(s.links[k], id, p)
		}
	}
	if p.PostParent != 0 {
		removeFrom(s.children, p.PostParent, p)
	}
	s.untrackSpan(p)
}

// addTo inserts (or replaces) p in the list of id in a reverse index.
func addTo(m map[int64]*postList, id int64, p *calendar.PostRecord) {
	l := m[id]
	if l == nil {
		l = &postList{}
		m[id] = l
	}
	l.insert(p)
}

// removeFrom deletes p from the list of id, dropping the list when empty.
func removeFrom(m map[int64]*postList, id int64, p *calendar.PostRecord) {
	if l := m[id]; l != nil {
		l.remove(p)
		if l.n == 0 {
			delete(m, id)
		}
	}
}

// oddEnd reports whether an event's End says nothing about its Start.
func oddEnd(p *calendar.PostRecord) bool { return p.End.IsZero() || p.End.Before(p.Start) }

// trackSpan counts an indexed event into maxSpan and oddEnds.
func (s *Store) trackSpan(p *calendar.PostRecord) {
	if p.Kind != calendar.KindEvent {
		return
	}
	if oddEnd(p) {
		s.oddEnds++
	} else if span := p.End.Sub(p.Start); span > s.maxSpan {
		s.maxSpan = span
	}
}

// untrackSpan undoes trackSpan where it can: maxSpan stays, an upper bound.
func (s *Store) untrackSpan(p *calendar.PostRecord) {
	if p.Kind == calendar.KindEvent && oddEnd(p) {
		s.oddEnds--
	}
}

// replacePost swaps a stored post for its new version in the map and every
// index. When the sort key is unchanged (the usual update: text, status),
// entries are replaced in place and only the links that changed move.
func (s *Store) replacePost(old, rec *calendar.PostRecord) {
	s.posts[rec.ID] = rec
	if storage.ComparePosts(old, rec) != 0 {
		s.unindex(old)
		s.index(rec)
		return
	}
	s.byKind[rec.Kind].insert(rec) // same key and id: replaces
	if rec.Kind != calendar.KindEvent {
		return
	}
	for _, k := range linkKinds {
		m := s.links[k]
		newIDs := distinct(rec.Links(k))
		for _, id := range distinct(old.Links(k)) {
			if !slices.Contains(newIDs, id) {
				removeFrom(m, id, old)
			}
		}
		for _, id := range newIDs {
			addTo(m, id, rec)
		}
	}
	if old.PostParent != 0 && old.PostParent != rec.PostParent {
		removeFrom(s.children, old.PostParent, old)
	}
	if rec.PostParent != 0 {
		addTo(s.children, rec.PostParent, rec)
	}
	s.untrackSpan(old)
	s.trackSpan(rec)
}

func postID(p *calendar.PostRecord) int64 {
	if p == nil {
		return 0
	}
	return p.ID
}

func termID(t *calendar.TermRecord) int64 {
	if t == nil {
		return 0
	}
	return t.ID
}

// putPost replaces stored post old by rec (either may be nil: a create or a
// delete) in the map and every structure derived from records: slugs, names,
// UIDs and the list indexes. Writes and their undo both go through it.
func (s *Store) putPost(old, rec *calendar.PostRecord) {
	switch {
	case old == nil && rec == nil:
		return
	case old == nil:
		s.posts[rec.ID] = rec
		s.index(rec)
	case rec == nil:
		s.unindex(old)
		delete(s.posts, old.ID)
	default:
		s.replacePost(old, rec)
	}
	if old != nil {
		if slugs := s.postSlugs[old.Kind]; slugs[old.Slug] == old.ID {
			delete(slugs, old.Slug)
		}
		unkeyIDs(s.postNames[old.Kind], old.NameKeys(), old.ID)
		if uids := s.postUIDs[old.Kind]; old.UID != "" && uids[old.UID] == old.ID {
			delete(uids, old.UID)
		}
	}
	if rec != nil {
		s.postSlugs[rec.Kind][rec.Slug] = rec.ID
		keyIDs(s.postNames[rec.Kind], rec.NameKeys(), rec.ID)
		if rec.UID != "" {
			s.postUIDs[rec.Kind][rec.UID] = rec.ID
		}
	}
}

// putTerm is putPost for terms.
func (s *Store) putTerm(old, rec *calendar.TermRecord) {
	if old != nil {
		delete(s.terms, old.ID)
		if slugs := s.termSlugs[old.Taxonomy]; slugs[old.Slug] == old.ID {
			delete(slugs, old.Slug)
		}
		unkeyIDs(s.termNames[old.Taxonomy], old.NameKeys(), old.ID)
		if rec == nil {
			ids := s.termIDs[old.Taxonomy]
			if i, ok := slices.BinarySearch(ids, old.ID); ok {
				s.termIDs[old.Taxonomy] = slices.Delete(ids, i, i+1)
			}
		}
	}
	if rec != nil {
		s.terms[rec.ID] = rec
		s.termSlugs[rec.Taxonomy][rec.Slug] = rec.ID
		keyIDs(s.termNames[rec.Taxonomy], rec.NameKeys(), rec.ID)
		if old == nil {
			ids := s.termIDs[rec.Taxonomy]
			if i, ok := slices.BinarySearch(ids, rec.ID); !ok {
				s.termIDs[rec.Taxonomy] = slices.Insert(ids, i, rec.ID)
			}
		}
	}
}

// keyIDs adds id under every key, keeping each id list ascending.
func keyIDs(m map[string][]int64, keys []string, id int64) {
	for _, k := range keys {
		ids := m[k]
		if i, ok := slices.BinarySearch(ids, id); !ok {
			m[k] = slices.Insert(ids, i, id)
		}
	}
}

// unkeyIDs removes id from under every key, dropping empty lists.
func unkeyIDs(m map[string][]int64, keys []string, id int64) {
	for _, k := range keys {
		ids := m[k]
		if i, ok := slices.BinarySearch(ids, id); ok {
			if len(ids) == 1 {
				delete(m, k)
			} else {
				m[k] = slices.Delete(slices.Clone(ids), i, i+1)
			}
		}
	}
}
