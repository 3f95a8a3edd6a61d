package calendar

import "fmt"

// Kind names one of the five kinds of record.
type Kind uint8

// The five kinds. Events, venues and organizers are posts and share one id
// sequence; categories and tags are terms and share another.
const (
	KindEvent Kind = iota + 1
	KindVenue
	KindOrganizer
	KindCategory
	KindTag
)

var kindNames = [...]string{"", "event", "venue", "organizer", "category", "tag"}

// String returns the lower-case singular name of the kind ("event", …).
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// IsPost reports whether records of this kind are posts (events, venues, organizers).
func (k Kind) IsPost() bool { return k == KindEvent || k == KindVenue || k == KindOrganizer }

// Taxonomy names the kind of a term on the wire.
type Taxonomy string

// The two taxonomies, with the names existing clients expect.
const (
	TaxonomyCategory Taxonomy = "tribe_events_cat"
	TaxonomyTag      Taxonomy = "post_tag"
)

// Kind returns KindCategory or KindTag; 0 for an unknown taxonomy.
func (t Taxonomy) Kind() Kind {
	switch t {
	case TaxonomyCategory:
		return KindCategory
	case TaxonomyTag:
		return KindTag
	}
	return 0
}

// Hierarchical reports whether terms of this taxonomy may have a parent.
func (t Taxonomy) Hierarchical() bool { return t == TaxonomyCategory }

// Status is the post status of an event, venue or organizer.
type Status string

// The post statuses. Any other value is invalid.
const (
	StatusPublish Status = "publish"
	StatusFuture  Status = "future"
	StatusDraft   Status = "draft"
	StatusPending Status = "pending"
	StatusPrivate Status = "private"
	StatusTrash   Status = "trash"
)

// Statuses lists every valid status.
var Statuses = []Status{StatusPublish, StatusFuture, StatusDraft, StatusPending, StatusPrivate, StatusTrash}

// Valid reports whether s is one of the defined statuses.
func (s Status) Valid() bool {
	for _, v := range Statuses {
		if s == v {
			return true
		}
	}
	return false
}

// Lang is a content language code such as "en" or "pt-br".
type Lang string

// Languages lists the supported content languages.
var Languages = []Lang{"ar", "nl", "en", "fr", "de", "pl", "pt-br", "ro", "ru", "es"}

// Valid reports whether l is a supported language.
func (l Lang) Valid() bool {
	for _, v := range Languages {
		if l == v {
			return true
		}
	}
	return false
}
