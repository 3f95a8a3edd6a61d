package redisstore

import (
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// family tells the read and write paths that posts and terms share how one
// kind of record T is keyed, encoded and indexed, so that the paths are
// written once (write.go, read.go) and the kinds differ only here.
type family[T any] struct {
	what    string                   // "post" or "term": in errors and op names
	prefix  func(keys) string        // prefix of the record keys: prefix+id
	key     func(keys, int64) string // key of record id
	seq     func(keys) string        // id sequence of a create
	head    func(*T) head            // the fields every record has
	clone   func(*T) *T              // deep copy of a caller's record
	decode  func([]byte) (*T, error) // storage encoding
	encode  func(*T) ([]byte, error) // storage encoding
	slugs   func(keys, *T) string    // slug hash of the record's kind
	entries func(keys, *T) []zentry
	// meta encodes the record's entry in the meta hash; nil for a kind that
	// has none, whose writes then leave the hash alone.
	meta func(*T) []byte
	// checkNew rejects a record Create cannot store.
	checkNew func(*T) error
	// checkUpdate rejects an update that would move stored record old to
	// another kind (the slug hash and the indexes are per kind).
	checkUpdate func(old, now *T) error
}

// head points at the fields that every record kind has.
type head struct {
	id, version *int64
	slug        *string
}

// postFamily describes events, venues and organizers.
var postFamily = &family[calendar.PostRecord]{
	what:    "post",
	prefix:  keys.postPrefix,
	key:     keys.post,
	seq:     keys.postSeq,
	head:    func(p *calendar.PostRecord) head { return head{&p.ID, &p.Version, &p.Slug} },
	clone:   (*calendar.PostRecord).Clone,
	decode:  storage.DecodePost,
	encode:  storage.EncodePost,
	slugs:   func(k keys, p *calendar.PostRecord) string { return k.slugs(p.Kind) },
	entries: keys.postEntries,
	meta:    encodeMeta,
	checkNew: func(p *calendar.PostRecord) error {
		if !p.Kind.IsPost() {
			return invalid("create post: %v is not a post kind", p.Kind)
		}
		return nil
	},
	checkUpdate: func(old, now *calendar.PostRecord) error {
		if old.Kind != now.Kind {
			return invalid("update post %d: it is a %v, not a %v", now.ID, old.Kind, now.Kind)
		}
		return nil
	},
}

// termFamily describes categories and tags.
var termFamily = &family[calendar.TermRecord]{
	what:    "term",
	prefix:  keys.termPrefix,
	key:     keys.term,
	seq:     keys.termSeq,
	head:    func(t *calendar.TermRecord) head { return head{&t.ID, &t.Version, &t.Slug} },
	clone:   (*calendar.TermRecord).Clone,
	decode:  storage.DecodeTerm,
	encode:  storage.EncodeTerm,
	slugs:   func(k keys, t *calendar.TermRecord) string { return k.slugs(t.Taxonomy.Kind()) },
	entries: keys.termEntries,
	checkNew: func(t *calendar.TermRecord) error {
		if t.Taxonomy.Kind() == 0 {
			return invalid("create term: unknown taxonomy %q", t.Taxonomy)
		}
		return nil
	},
	checkUpdate: func(old, now *calendar.TermRecord) error {
		if old.Taxonomy != now.Taxonomy {
			return invalid("update term %d: it is in %s, not %s", now.ID, old.Taxonomy, now.Taxonomy)
		}
		return nil
	},
}
