// Package memstore is the in-memory eventcal storage driver: a
// calendar.Repository that keeps every record in process memory, for tests,
// demos and embedding where durability is not wanted.
//
// A Store is safe for concurrent use. Reads take a shared lock, so readers
// never block each other; writes take the exclusive lock, which makes every
// write (record, slug, links, index entries and cascades) atomic. Records are
// cloned on the way in and on the way out, so callers never share state with
// the store — except through SharedReads, a view for readers that promise
// not to modify what they get, which hands out the stored (never modified)
// records themselves.
//
// Lists are answered from real indexes rather than by scanning every record:
// posts per kind kept in list order, events ordered by (Start, ID) with binary
// search on the start instant, and reverse link indexes (venue, organizer,
// category, tag and parent to events), each also in list order. ListPosts
// picks the narrowest of those ways in and confirms each candidate with
// storage.MatchPost, so its answers are exactly those of every other driver.
// Exact totals of event lists come from summaries of the index lists' blocks
// added up in a segment tree per list, O(log n) rather than one per match or
// per block (see sumTree and docs/storage.md).
package memstore
