package boltstore

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// Bucket names (see the package comment for what each holds).
var (
	bMeta            = []byte("meta")
	bSeq             = []byte("seq")
	bPosts           = []byte("posts")
	bTerms           = []byte("terms")
	bPostSlugs       = []byte("post_slugs")
	bTermSlugs       = []byte("term_slugs")
	bPostOrder       = []byte("post_order")
	bEventEnd        = []byte("event_end")
	bFeatured        = []byte("event_featured")
	bVenueEvents     = []byte("venue_events")
	bOrganizerEvents = []byte("organizer_events")
	bCategoryEvents  = []byte("category_events")
	bTagEvents       = []byte("tag_events")
	bParentChildren  = []byte("parent_children")
	bPostNames       = []byte("post_names")
	bTermNames       = []byte("term_names")
	bPostUIDs        = []byte("post_uids")
	bLinkOrder       = []byte("link_order")
)

// allBuckets lists every bucket but meta; Open creates the missing ones.
var allBuckets = [][]byte{
	bSeq, bPosts, bTerms, bPostSlugs, bTermSlugs, bPostOrder, bEventEnd, bFeatured,
	bVenueEvents, bOrganizerEvents, bCategoryEvents, bTagEvents, bParentChildren,
	bPostNames, bTermNames, bPostUIDs, bChanges, bEventCounts, bEventFuture, bEventOdd, bLinkOrder,
}

// indexBuckets are the buckets derived from the records alone; Check
// rebuilds each from the records and compares.
var indexBuckets = [][]byte{
	bPostSlugs, bPostOrder, bEventEnd, bFeatured,
	bVenueEvents, bOrganizerEvents, bCategoryEvents, bTagEvents, bParentChildren,
	bPostNames, bPostUIDs, bTermSlugs, bTermNames, bEventCounts, bEventFuture, bEventOdd, bLinkOrder,
}

// Keys of the meta and seq buckets.
var (
	kMagic   = []byte("magic")
	kFormat  = []byte("format")
	kLayout  = []byte("layout")
	kPostSeq = []byte("post")
	kTermSeq = []byte("term")
	kMaxDur  = []byte("maxdur") // longest End − Start of any event ever stored
	// kOddEnds counts the stored events ending before they start (or with
	// no end): while there are none, an End upper bound is a Start upper
	// bound too. Files written before it existed get it counted at Open.
	kOddEnds = []byte("oddends")
)

// appendFill is the page fill of the buckets whose new keys land at the
// end of a range: records (ids from a growing sequence) and reverse links
// (linked id ‖ growing event id). Filling their pages to 90% before a split
// (bbolt's default of 50% suits random keys) keeps the file smaller.
const appendFill = 0.9

// linkBucket returns the reverse link index for links of kind k.
func linkBucket(k calendar.Kind) []byte {
	switch k {
	case calendar.KindVenue:
		return bVenueEvents
	case calendar.KindOrganizer:
		return bOrganizerEvents
	case calendar.KindCategory:
		return bCategoryEvents
	case calendar.KindTag:
		return bTagEvents
	}
	return nil
}

// linkKinds are the kinds an event links to by id list.
var linkKinds = []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer, calendar.KindCategory, calendar.KindTag}

func slugKey(k calendar.Kind, slug string) []byte {
	b := make([]byte, 0, 1+len(slug))
	return append(append(b, byte(k)), slug...)
}

// orderTime is the instant a post sorts by: Start for events, Date for the
// others (listed newest first, so their range is walked backwards).
func orderTime(p *calendar.PostRecord) time.Time {
	if p.Kind == calendar.KindEvent {
		return p.Start
	}
	return p.Date
}

func orderKey(p *calendar.PostRecord) []byte {
	return append([]byte{byte(p.Kind)}, storage.TimeAndIDKey(orderTime(p), p.ID)...)
}

func linkKey(linked, event int64) []byte {
	return append(storage.IDKey(linked), storage.IDKey(event)...)
}

// linkOrderPrefix is kind ‖ linked id: the link_order entries of the
// events linked to one venue, organizer, category or tag, in list order.
func linkOrderPrefix(k calendar.Kind, linked int64) []byte {
	b := make([]byte, 0, 1+8+16)
	return append(append(b, byte(k)), storage.IDKey(linked)...)
}

// linkOrderKey is linkOrderPrefix ‖ Start ‖ event id: its tail after the
// prefix is the tail of the event's post_order key.
func linkOrderKey(k calendar.Kind, linked int64, p *calendar.PostRecord) []byte {
	return append(linkOrderPrefix(k, linked), storage.TimeAndIDKey(p.Start, p.ID)...)
}

// entry is one index entry a post implies.
type entry struct {
	bucket, key, value []byte
	// appends: new entries land at the end of their key prefix (linked id
	// ‖ growing event id), so pages are best filled before a split.
	appends bool
}

// postEntries returns every index entry of p except its slug reservation
// (whose key may carry a suffix chosen at write time).
func postEntries(p *calendar.PostRecord) []entry {
	summary := encodeSummary(p)
	es := []entry{{bPostOrder, orderKey(p), summary, false}}
	if p.UID != "" {
		es = append(es, entry{bPostUIDs, uidKey(p.Kind, p.UID), storage.IDKey(p.ID), false})
	}
	// A name entry holds the summary too: an ensure decides on status,
	// author and date which record of the name it may reuse, and decodes
	// only that one.
	for _, k := range p.NameKeys() {
		es = append(es, entry{bPostNames, nameEntryKey(byte(p.Kind), k, p.ID), summary, false})
	}
	if p.Kind != calendar.KindEvent {
		return es
	}
	// Every other event index holds Start ‖ summary as value: with the id
	// it makes the post_order key (the list order), and the summary lets a
	// list confirm candidates found there without any lookup.
	val := append(storage.TimeKey(p.Start), summary...)
	es = append(es, entry{bEventEnd, storage.TimeAndIDKey(p.End, p.ID), val, false})
	if p.Status == calendar.StatusFuture {
		es = append(es, entry{bEventFuture, storage.IDKey(p.ID), summary, true})
	}
	if oddEnd(p) {
		es = append(es, entry{bEventOdd, storage.IDKey(p.ID), summary, true})
	}
	if p.Featured {
		es = append(es, entry{bFeatured, storage.TimeAndIDKey(p.Start, p.ID), val, false})
	}
	if p.PostParent != 0 {
		es = append(es, entry{bParentChildren, linkKey(p.PostParent, p.ID), val, true})
	}
	for _, k := range linkKinds {
		for _, id := range p.Links(k) {
			es = append(es, entry{linkBucket(k), linkKey(id, p.ID), val, true})
			// A list of one venue, organizer, category or tag walks
			// only its events, in list order.
			es = append(es, entry{bLinkOrder, linkOrderKey(k, id, p), summary, false})
		}
	}
	return es
}

// termEntries returns every index entry of t except its slug reservation:
// one name entry per name key, holding the parent, so that the rule "names
// are unique per level" is checked on the index alone.
func termEntries(t *calendar.TermRecord) []entry {
	var es []entry
	for _, k := range t.NameKeys() {
		es = append(es, entry{bTermNames, nameEntryKey(byte(t.Taxonomy.Kind()), k, t.ID), storage.IDKey(t.Parent), false})
	}
	return es
}

// maxIndexedLen is the longest name key or UID kept verbatim in an index
// key. bbolt keys are limited (32 KiB) and long keys waste pages; a longer
// one is indexed as its first maxIndexedLen bytes and its SHA-256, which is
// longer than any verbatim key, so the two forms never meet.
const maxIndexedLen = 256

func indexedKey(s string) []byte {
	if len(s) <= maxIndexedLen {
		return []byte(s)
	}
	sum := sha256.Sum256([]byte(s))
	return append([]byte(s[:maxIndexedLen]), sum[:]...)
}

// namePrefix is the key prefix of every entry of one name key in a name
// index: kind (or taxonomy kind) ‖ length ‖ key. The length makes the prefix
// exact: "jazz" never matches the entries of "jazz club".
func namePrefix(kind byte, key string) []byte {
	ik := indexedKey(key)
	b := make([]byte, 0, 3+len(ik)+8)
	b = append(b, kind)
	b = binary.BigEndian.AppendUint16(b, uint16(len(ik)))
	return append(b, ik...)
}

// nameEntryKey is namePrefix ‖ id: the holders of one name sort by id.
func nameEntryKey(kind byte, key string, id int64) []byte {
	return append(namePrefix(kind, key), storage.IDKey(id)...)
}

// uidKey is kind ‖ UID; UIDs are unique per kind, so the key is the whole
// reservation and its value the holder's id.
func uidKey(k calendar.Kind, uid string) []byte {
	return append([]byte{byte(k)}, indexedKey(uid)...)
}

// The summary stored with each post_order entry holds every field the
// cheap restrictions of a PostQuery look at, so a list can run
// storage.MatchPost on a skeleton record without decoding the full one.
//
//	len(status) status flags author(8) date(12) start(12) end(12) parent(8)
//
// Times are Unix seconds and nanoseconds, exact for any instant.
//
// Flags written before series existed have the series bits clear, which is
// what those records are: neither series nor occurrences.
const (
	flagFeatured = 1 << iota
	flagHidden
	flagSeries       // the post carries a recurrence rule
	flagRecurrenceID // the post has a recurrence id (an occurrence)
	flagDetached     // the occurrence was edited on its own
)

// summaryRule and summaryRecurrenceID stand in a skeleton record for a
// rule and a recurrence id the summary only says exist: MatchPost looks at
// no more than that.
var (
	summaryRule         = []string{"RRULE:"}
	summaryRecurrenceID = time.Unix(1, 0).UTC()
)

func encodeSummary(p *calendar.PostRecord) []byte {
	b := make([]byte, 0, 2+len(p.Status)+8+3*12+8)
	b = append(b, byte(len(p.Status)))
	b = append(b, p.Status...)
	var flags byte
	if p.Featured {
		flags |= flagFeatured
	}
	if p.HideFromListings {
		flags |= flagHidden
	}
	if len(p.Recurrence) > 0 {
		flags |= flagSeries
	}
	if !p.RecurrenceID.IsZero() {
		flags |= flagRecurrenceID
	}
	if p.Detached {
		flags |= flagDetached
	}
	b = append(b, flags)
	b = binary.BigEndian.AppendUint64(b, uint64(p.Author))
	b = appendTime(b, p.Date)
	b = appendTime(b, p.Start)
	b = appendTime(b, p.End)
	return binary.BigEndian.AppendUint64(b, uint64(p.PostParent))
}

func appendTime(b []byte, t time.Time) []byte {
	b = binary.BigEndian.AppendUint64(b, uint64(t.Unix()))
	return binary.BigEndian.AppendUint32(b, uint32(t.Nanosecond()))
}

// decodeSummary fills the summary fields of p (which already carries ID and
// Kind) from an encoded summary.
func decodeSummary(b []byte, p *calendar.PostRecord) error {
	if len(b) < 1 || len(b) != 1+int(b[0])+1+8+3*12+8 {
		return fmt.Errorf("%w: post %d: malformed index summary", storage.ErrBadRecord, p.ID)
	}
	n := int(b[0])
	p.Status = status(b[1 : 1+n])
	b = b[1+n:]
	p.Featured = b[0]&flagFeatured != 0
	p.HideFromListings = b[0]&flagHidden != 0
	p.Recurrence, p.RecurrenceID = nil, time.Time{}
	if b[0]&flagSeries != 0 {
		p.Recurrence = summaryRule
	}
	if b[0]&flagRecurrenceID != 0 {
		p.RecurrenceID = summaryRecurrenceID
	}
	p.Detached = b[0]&flagDetached != 0
	p.Author = int64(binary.BigEndian.Uint64(b[1:]))
	p.Date = readTime(b[9:])
	p.Start = readTime(b[21:])
	p.End = readTime(b[33:])
	p.PostParent = int64(binary.BigEndian.Uint64(b[45:]))
	return nil
}

func readTime(b []byte) time.Time {
	return time.Unix(int64(binary.BigEndian.Uint64(b)), int64(binary.BigEndian.Uint32(b[8:]))).UTC()
}

// status returns the status spelled b, without allocating for the known ones.
func status(b []byte) calendar.Status {
	for _, s := range calendar.Statuses {
		if string(s) == string(b) {
			return s
		}
	}
	return calendar.Status(b)
}
