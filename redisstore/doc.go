// Package redisstore is the eventcal storage driver for Redis: one calendar
// shared by many application instances, on a single Redis server, behind
// Sentinel, or on a Redis Cluster. It implements calendar.Repository on a
// redis.UniversalClient from github.com/redis/go-redis/v9. It needs Redis
// 6.2 or later (it calls ZUNION and its window script ZMSCORE).
//
// # Layout
//
// Every key of one calendar starts with the same hash tag, "{prefix}:", so all
// of them live in one Cluster slot and every multi-key write can run as one
// atomic Lua script. Several calendars share a server by using different
// prefixes (WithPrefix). With prefix "cal" the keys are:
//
//	{cal}:format                 "<encoding>.<layout>": storage.FormatVersion and the key layout version
//	{cal}:seq:post, seq:term     id sequences (INCR)
//	{cal}:post:<id>              a post, encoded with storage.EncodePost
//	{cal}:term:<id>              a term, encoded with storage.EncodeTerm
//	{cal}:meta                   hash id → the post's match fields (kind, status,
//	                             author, dates, flags, links), compactly encoded
//	{cal}:slug:<kind>            hash slug → id, one per kind and taxonomy
//	{cal}:ev:start, ev:end       sorted sets of event ids by start / end instant
//	{cal}:ev:dur                 events by duration (End − Start, µs; +inf when
//	                             End is before Start or out of the exact range)
//	{cal}:ev:st:<status>         events of one stored status, by start
//	{cal}:ev:featured, ev:hidden featured / hide-from-listings events, by start
//	{cal}:ev:venue:<id>, ev:org:<id>, ev:cat:<id>, ev:tag:<id>, ev:parent:<id>
//	                             events linked to a venue, organizer, category,
//	                             tag or parent event, by start
//	{cal}:evs:<link>:<id>:<status>  the same per stored status (link is venue,
//	                             org, cat or tag), by start
//	{cal}:ev:multi:<link>        events linked to two or more records of one
//	                             link kind, by start
//	{cal}:ev:au:<author>:<status>  events of one author and stored status, by start
//	{cal}:idx:venue, idx:organizer  venues / organizers by publication date
//	{cal}:idx:category, idx:tag  terms of a taxonomy by id
//	{cal}:cat:children:<id>      child categories of a category, by id
//	{cal}:pname:<kind>:<key>     venues / organizers having the name key <key>
//	                             (calendar.NameKey of a title, any language), by id
//	{cal}:tname:<kind>:<key>     categories / tags having the name key <key>,
//	                             scored by parent: one score range is one level
//	{cal}:uid:<kind>             hash UID → post id, one per post kind
//	{cal}:migrating              lease of a running layout migration
//	{cal}:done:<token>           the reply of a write, for two minutes, so that
//	                             a client re-sending the script does not write twice
//
// Sorted-set scores are instants in Unix microseconds (storage.TimeScoreMicro).
//
// Because one calendar lives in one slot, a Cluster spreads calendars over
// its shards, not one calendar: size a shard for the largest calendar. Reads
// go to the master that owns the slot; do not enable ReadOnly or
// RouteByLatency on the cluster client if instances must read their own
// writes, since replicas lag.
//
// # Writes
//
// Every write — a calendar.Write of any number of steps, or a single-record
// method, which is a one-step Write — is one run of one Lua script
// (applyScript, EVALSHA falling back to EVAL), so it is atomic whatever
// happens to the client or its connection. The Go side reads what the write
// updates or deletes (one pipeline; deletes read the events and categories
// they cascade to in one more round trip) and plans every step: the records
// to store, their metas, every index entry to add or remove. What only the
// script can know stays a hole in those values: the id of a record created
// or found by a step (StepRef placeholders of later steps), the slug a step
// reserves.
//
// The script then works in two phases. First it checks and decides
// everything — the SHA-1 of each record and index set the plan rests on, so
// that a concurrent writer in any process is detected; ids (INCR-like, or
// the id a create gives, refused when held); ensure look-ups in the name
// indexes, with the caller's visibility decided on the metas; the existence
// and kind of every link; UIDs; term names per level; the first free
// calendar.SlugCandidate — against a view of the calendar that includes the
// writes of the earlier steps, which it buffers instead of sending to Redis.
// Any failure returns before anything is written: a Redis script that fails
// half-way keeps what it wrote, so nothing may fail after the first write.
// Only then does it write, keeping a journal of what each write replaced;
// should Redis itself refuse a write (a key of the wrong type), the journal
// is played back, so the calendar is left as it was even then.
//
// A changed record or index (a failed SHA-1 guard) makes Apply plan again
// from fresh reads, a bounded number of times; a record whose version no
// longer matches what the caller expected is then calendar.ErrConflict,
// never retried here (the calendar retries updates that did not ask for a
// version check).
//
// # Names
//
// Term names are unique per taxonomy and parent, checked in the script on
// the tname index; venue and organizer "link the record of this name, or
// create it" (calendar.OpEnsurePost) is one step of the script on the pname
// index; name keys are computed in Go with calendar.NameKey, so the rule
// lives in one place. TermsByName, PostByUID and a venue or organizer list
// with a Name are one round trip each, answered from these indexes.
//
// # Formats
//
// The format key holds "<encoding>.<layout>". A calendar of this layout with
// an older record encoding is read as it is (storage decodes every earlier
// encoding) and raised to the current one on the next write. A calendar of
// layout 2 (written before the name and UID indexes existed) or 3 (before the
// link, author and multi-link status sets) is migrated once, by the first
// Store that needs them — a write, a name or UID look-up, an event list
// (migrate.go); any other format is refused with an error wrapping
// storage.ErrBadRecord.
//
// # Reads
//
// A get is one round trip (GET, MGET, or a script for slug lookups). An event
// list without Search, Name or IDs is usually one: the list script counts the
// total exactly on start-sorted status sets — everyone's, an author's own
// (ev:au) for the statuses only the owner may see, or those of the listed
// venues, organizers, categories or tags (evs) for a list of one link kind —,
// decides on their metas only the few events counts cannot (those near the
// window's edges, unusually long ones, stored future ones around Now, hidden
// ones, events in two of the listed links…), and returns the total with the
// page's records; see window.go. Its work grows with the page and those few
// events, not with the matches, and it gives up beyond a fixed amount.
// Any other list is at most three round trips: the same script picks the
// narrowest index for the query (start or end window, status, featured,
// venue, organizer, category, tag, parent) by counting each candidate range
// with ZCOUNT, and returns the ids of that range; the candidates' metas are read with HMGET, every candidate is
// confirmed with storage.MatchPost and sorted in storage.ComparePosts order, so
// the total and the order are exactly the ones every other driver gives; then
// the records of the page alone are read with MGET. Queries with free-text
// Search, or a Name on events, confirm on whole records instead of metas (two
// round trips); a venue or organizer list with a Name reads the records of
// its name index (one).
// Candidate sets larger than the fetch batch (WithFetchBatch) take one more
// round trip per batch.
//
// Records are decoded from their stored bytes through a cache keyed by those
// bytes (WithDecodedCache): every read still fetches the record from Redis,
// and bytes decoded before skip the decoding.
//
// # Contexts
//
// Every method returns ctx.Err() once ctx is done. go-redis applies a
// context's deadline to the socket only when the client has
// ContextTimeoutEnabled set; set it, so that a deadline also interrupts a
// round trip that is already waiting on Redis.
//
// # Failures
//
// A Redis that cannot be reached, or that answers LOADING, CLUSTERDOWN,
// TRYAGAIN, MASTERDOWN, READONLY and the like, yields an error wrapping
// calendar.ErrUnavailable. The client reconnects by itself, so the store works
// again as soon as Redis is back.
package redisstore
