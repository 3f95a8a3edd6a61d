// Package boltstore is the durable embedded storage driver of eventcal: a
// calendar.Repository kept in one file by go.etcd.io/bbolt, for a calendar
// served by one process.
//
// Every write is one bbolt read-write transaction that changes the records,
// their slug reservations, their links and every index entry together, and
// is fsynced before it returns (unless WithNoSync is given), so a write that
// returned survives a crash or kill -9, and a write that did not return left
// no trace. Apply runs all the steps of a calendar.Write in one such
// transaction — an event with the venues, organizers and terms it creates,
// with the version check of every record it updates — and a step that fails
// rolls the whole transaction back; the single-record methods are one-step
// Applies. bbolt serializes write transactions, so the look-up and the
// create of an ensure step (OpEnsurePost, OpEnsureTerm) can never be split
// by another writer, and term names, slugs and UIDs are checked against the
// indexes inside the write that reserves them. Reads run in read-only transactions and block neither each
// other nor the writer (except briefly when the file grows and bbolt remaps
// it).
//
// # Layout
//
// All keys are order-preserving (big-endian ids, storage.TimeKey instants),
// so every index is ranged with a cursor:
//
//	meta             "magic", "format", "layout" → what wrote the file
//	seq              "post", "term" → last id handed out (ids are never reused);
//	                 "maxdur" → longest End − Start ever stored, which turns
//	                 "ends after t" into "starts after t − maxdur"
//	posts            id → storage.EncodePost
//	terms            id → storage.EncodeTerm
//	post_slugs       kind ‖ slug → id
//	term_slugs       kind ‖ slug → id
//	post_order       kind ‖ time ‖ id → summary (events by Start, venues and
//	                 organizers by Date: list order, read backwards for the latter)
//	event_end        End ‖ id → Start ‖ summary
//	event_featured   Start ‖ id → Start ‖ summary, featured events only
//	venue_events, organizer_events, category_events, tag_events,
//	parent_children  linked id ‖ event id → Start ‖ summary
//	post_names       kind ‖ len ‖ name key ‖ id → summary (venues and organizers)
//	term_names       kind ‖ len ‖ name key ‖ id → parent id
//	post_uids        kind ‖ UID → id
//	event_future     id → summary, scheduled (future) events only
//	event_odd        id → summary, events ending before they start (or never)
//	event_counts     axis ‖ scope ‖ owner ‖ level ‖ bucket ‖ class → count
//	link_order       kind ‖ linked id ‖ Start ‖ event id → summary (the
//	                 events of each venue, organizer, category and tag
//	                 in list order)
//
// Name keys are calendar.NameKey of every language's title or name, so the
// holders of one name are one cursor range in id order: an ensure walks it
// and decides on the summaries which holder the caller may reuse; a term
// write reads the parents there to keep names unique per level. Keys and
// UIDs longer than 256 bytes are indexed by their first 256 bytes and their
// SHA-256. Parents a term delete hands to its children are not checked
// against the names of their new level (a delete is never refused for a
// name); like the duplicates a file migrated from layout 1 may hold, such a
// pair keeps its names while neither takes a new one.
//
// The summary kept in post_order (status, author, dates, featured, hidden,
// parent) lets a list confirm most restrictions with storage.MatchPost
// without decoding the record. The other event indexes hold Start and the
// same summary, so a list that comes in by any of them confirms candidates
// and sorts them into list order without a lookup; a list decodes only the
// records of its page, unless it filters on text or on links other than the
// one it came in by; link restrictions are checked with one lookup per
// linked id in the reverse link buckets, not on the record. A list
// restricted to some venues (organizers, categories, tags) walks their
// link_order ranges within its Start range, merged in list order: a subset
// of the post_order walk that needs no sort, so a page of one category
// reads about its own events, however many others the calendar holds.
//
// # Totals
//
// An event list's total is exact for every caller, yet does not visit every
// match: event_counts holds, maintained in the same transaction as the
// records, how many events fall in each time bucket, by Start (axis 'S')
// and by End ('E'); for every event and for each category and tag (scope);
// for every author together and, for statuses other than published, per
// author (owner); and per class (status, hidden, series record). Buckets
// are the high bits of the TimeKey at five levels, each 16 times the one
// below, from about 73 minutes to 9 years. A range sums at most 2×15
// buckets per level and scans the two partial 73-minute buckets at its
// bounds. A window bounded on one side by Start and on the other by End is
// #(S in range) − #(E out of range) + #(both out), the last term holding
// only events near the bounds and those ending before they start
// (event_odd). Scheduled events, whose status depends on the query's Now,
// are not counted but matched one by one from event_future. The totals of
// every shape the calendar asks (the default window, a week, a Start or End
// range, count only, one category or tag, any visibility) come from the
// counts; any other query counts its matches. When the total is known the
// walk over post_order stops at the end of the page.
//
// Reads keep recently decoded posts, and apart from them terms, in small
// caches (WithCacheSize) that are checked against the stored bytes on every
// hit, so they never serve a stale record.
//
// # Files
//
// The meta bucket records storage.FormatVersion and this package's layout
// version. Open migrates a file of layout 1, 2 or 3 in its opening transaction
// (records rewritten in the current format, name and UID indexes built from
// them for layout 1, counts and the scheduled and odd-ended event indexes
// for layouts 1 and 2, link_order for all three; a failure leaves the file untouched) and refuses a file written by
// any other version (ErrIncompatible) rather than misreading it. bbolt locks the file: a second Open of a file in
// use, from this or another process, fails after the WithTimeout delay with
// an error wrapping ErrLocked. Backup writes a consistent copy of a live
// store; Check verifies that every index agrees with the records.
package boltstore
