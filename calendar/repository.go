package calendar

import (
	"context"
	"strconv"
	"time"
)

// Repository is the storage contract. Drivers (memstore, boltstore,
// redisstore) implement it; the conformance suite in storage/storagetest
// proves each one. Drivers store, index and answer queries; they never decide
// what is allowed — every business rule lives in Calendar.
//
// Every method honours ctx (cancellation returns ctx.Err()), and every error a
// driver returns wraps ErrNotFound, ErrConflict or ErrUnavailable where one of
// those applies, so Calendar can map it without knowing the driver. Records
// passed in are never retained and records returned are never shared: callers
// may modify both freely.
//
// Writes are atomic: a record, its slug reservation, its links and every index
// entry change together or not at all. Apply makes several records one atomic
// write; each single-record write method behaves exactly as a Write of one
// step (OpCreatePost, OpUpdatePost, …) and returns that step's errors.
//
// Names are the store's to enforce, like slugs (never a process-local
// lock): term names are unique per taxonomy and level (ErrNameTaken), and
// name look-ups — OpEnsurePost, OpEnsureTerm, TermsByName, PostQuery.Name —
// are answered from an index on NameKey, not by reading every record.
type Repository interface {
	// Apply performs every step of w as one atomic write and returns one
	// result per step. When a step fails, nothing of w is stored and the
	// error is a *StepError naming the step and wrapping the cause.
	Apply(ctx context.Context, w *Write) (*WriteResult, error)

	// PostByUID returns the post of this kind whose UID is uid, or ErrNotFound.
	PostByUID(ctx context.Context, kind Kind, uid string) (*PostRecord, error)

	// TermsByName returns the terms of the taxonomy, at any level, having a
	// name key equal to NameKey(name), in ascending id order (often none).
	TermsByName(ctx context.Context, tax Taxonomy, name string) ([]*TermRecord, error)

	// CreatePost stores a new event, venue or organizer. The driver assigns
	// the next id of the post sequence (shared by the three kinds, never
	// reused) and Version 1. p.Slug is the wanted slug: if another post of
	// the same Kind (trashed ones included) holds it, the first free
	// SlugCandidate(p.Slug, n) for n = 2, 3, … is stored instead. It returns
	// the record as stored.
	CreatePost(ctx context.Context, p *PostRecord) (*PostRecord, error)

	// UpdatePost replaces post p.ID. p.Version must equal the stored version,
	// else nothing changes and the error wraps ErrConflict; the stored
	// version becomes p.Version+1. A changed slug is reserved like on create
	// (suffixed on a clash) and the old one released. p.Kind must be the
	// stored kind. ErrNotFound when no such post exists.
	UpdatePost(ctx context.Context, p *PostRecord) (*PostRecord, error)

	// DeletePost removes post id for good, with its slug and index entries.
	// In the same atomic write the id is removed from the links of every
	// event that refers to it (venue, organizer) and from the PostParent of
	// every child event; each event so changed gets Version+1. version 0
	// deletes whatever version is stored; any other value must match, else
	// ErrConflict.
	DeletePost(ctx context.Context, id, version int64) error

	// GetPost returns post id of any kind, or ErrNotFound.
	GetPost(ctx context.Context, id int64) (*PostRecord, error)

	// GetPosts returns the posts with these ids that exist, in the order
	// asked, skipping missing ones.
	GetPosts(ctx context.Context, ids []int64) ([]*PostRecord, error)

	// PostBySlug returns the post of this kind with exactly this slug, or ErrNotFound.
	PostBySlug(ctx context.Context, kind Kind, slug string) (*PostRecord, error)

	// ListPosts returns one page of the posts matching q, in the order
	// q.Kind prescribes (see PostQuery), and the exact number of matches.
	ListPosts(ctx context.Context, q *PostQuery) (*PostPage, error)

	// CreateTerm stores a new category or tag with the next id of the term
	// sequence and Version 1. The slug is made unique per taxonomy the same
	// way as post slugs; its names must be free at its level (OpCreateTerm).
	CreateTerm(ctx context.Context, t *TermRecord) (*TermRecord, error)

	// UpdateTerm replaces term t.ID with version compare-and-set and slug
	// reservation as UpdatePost does.
	UpdateTerm(ctx context.Context, t *TermRecord) (*TermRecord, error)

	// DeleteTerm removes term id for good; in the same atomic write it is
	// unlinked from every event (each such event gets Version+1) and the
	// children of a removed category get its Parent (Version+1 each).
	// version as for DeletePost.
	DeleteTerm(ctx context.Context, id, version int64) error

	// GetTerm returns term id, or ErrNotFound.
	GetTerm(ctx context.Context, id int64) (*TermRecord, error)

	// GetTerms returns the terms with these ids that exist, in the order asked.
	GetTerms(ctx context.Context, ids []int64) ([]*TermRecord, error)

	// TermBySlug returns the term of the taxonomy with exactly this slug, or ErrNotFound.
	TermBySlug(ctx context.Context, tax Taxonomy, slug string) (*TermRecord, error)

	// ListTerms returns every term of the taxonomy in ascending id order.
	// Term sets are small; Calendar filters, counts, sorts and pages them.
	ListTerms(ctx context.Context, tax Taxonomy) ([]*TermRecord, error)
}

// PostPage is one page of a post list and the exact total of matches.
type PostPage struct {
	Records []*PostRecord
	Total   int
}

// PostQuery is what Calendar asks a Repository for a post list. Every
// non-zero field restricts the result; all restrictions AND together. An
// empty id list means "no restriction" (Calendar never sends a query whose
// id set is known to be empty).
//
// Order: events by Start ascending then ID ascending; venues and organizers
// by Date descending then ID descending. The order is total, so pages never
// repeat or skip a record.
type PostQuery struct {
	Kind Kind
	// Now decides the effective status (see PostRecord.EffectiveStatus).
	Now time.Time
	// Visible restricts statuses (by effective status).
	Visible Visibility

	IDs        []int64 // only these posts
	ExcludeIDs []int64 // never these posts

	// Event restrictions.
	Start         TimeRange
	End           TimeRange
	VenueIDs      []int64 // linked to one of these venues
	NotVenueIDs   []int64 // linked to none of these venues
	OrganizerIDs  []int64 // linked to one of these organizers
	CategoryIDs   []int64 // in one of these categories
	TagIDs        []int64 // with one of these tags
	Featured      *bool
	PostParent    int64 // children of this event
	ExcludeHidden bool  // leave out hide_from_listings events
	// Series restricts series records and their occurrences (SeriesAny: no restriction).
	Series StoredSeries

	// Search holds words in FoldSearch form; each must appear in one of the searched
	// fields, read in Lang with fallback to the record's own language (see
	// SearchText).
	Search []string
	Lang   Lang
	// Name matches posts having a name key (NameKey of Title in any
	// language) equal to NameKey(Name); drivers answer it from their name
	// index.
	Name string

	Offset    int
	Limit     int  // page size; 0 or less: every match from Offset on
	CountOnly bool // only Total is wanted
}

// Visibility restricts a list by status: a post matches when its effective
// status is in Statuses, or when its author is Owner (non-zero) and its
// effective status is in OwnStatuses. Both lists empty: no restriction.
type Visibility struct {
	Statuses    []Status
	Owner       int64
	OwnStatuses []Status
}

// IsZero reports whether v restricts nothing.
func (v Visibility) IsZero() bool { return len(v.Statuses) == 0 && len(v.OwnStatuses) == 0 }

// Allows reports whether a post by author with effective status st matches.
func (v Visibility) Allows(author int64, st Status) bool {
	if v.IsZero() {
		return true
	}
	for _, s := range v.Statuses {
		if s == st {
			return true
		}
	}
	if v.Owner != 0 && author == v.Owner {
		for _, s := range v.OwnStatuses {
			if s == st {
				return true
			}
		}
	}
	return false
}

// TimeRange is an interval of instants; a zero bound is open-ended.
type TimeRange struct {
	From, To                   time.Time
	FromExclusive, ToExclusive bool
}

// IsZero reports whether r restricts nothing.
func (r TimeRange) IsZero() bool { return r.From.IsZero() && r.To.IsZero() }

// Contains reports whether t lies in r.
func (r TimeRange) Contains(t time.Time) bool {
	if !r.From.IsZero() {
		if r.FromExclusive && !t.After(r.From) || !r.FromExclusive && t.Before(r.From) {
			return false
		}
	}
	if !r.To.IsZero() {
		if r.ToExclusive && !t.Before(r.To) || !r.ToExclusive && t.After(r.To) {
			return false
		}
	}
	return true
}

// Empty reports whether no instant can lie in r.
func (r TimeRange) Empty() bool {
	if r.From.IsZero() || r.To.IsZero() {
		return false
	}
	if r.From.After(r.To) {
		return true
	}
	return r.From.Equal(r.To) && (r.FromExclusive || r.ToExclusive)
}

// MaxSlugLen is the longest slug in bytes.
const MaxSlugLen = 200

// SlugCandidate returns the n-th candidate for a wanted slug: base itself for
// n ≤ 1, else base with "-n" appended, base shortened (on a rune boundary) so
// the result stays within MaxSlugLen bytes. Drivers call it to resolve clashes.
func SlugCandidate(base string, n int) string {
	if n <= 1 {
		return base
	}
	suffix := "-" + strconv.Itoa(n)
	limit := MaxSlugLen - len(suffix)
	if len(base) > limit {
		base = truncateUTF8(base, limit)
	}
	return base + suffix
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 { // continuation byte: step back to a rune start
		n--
	}
	return s[:n]
}

// TermTreeReader is an optional Repository extension: the terms a list
// filter names and every descendant of them, in one call. Item i names a
// term by ids[i] when it is positive, else by slugs[i] (as stored; an empty
// slug names nothing). terms[i] is the term of tax item i names, nil when
// there is none (missing, or of another taxonomy). tree holds the ids of the
// terms found, each once in item order, then the ids of their descendants
// breadth first, children in ascending id order — what ListTerms and a walk
// of the Parent links give. A driver with a cost per call (a round trip on
// Redis) saves the ListTerms call of a category filter, and the call per
// item.
type TermTreeReader interface {
	TermsWithDescendants(ctx context.Context, tax Taxonomy, ids []int64, slugs []string) (terms []*TermRecord, tree []int64, err error)
}
