// Package redisstore is the eventcal storage driver for Redis: one calendar
// shared by many application instances, on a single Redis server, behind
// Sentinel, or on a Redis Cluster. It implements calendar.Repository on a
// redis.UniversalClient from github.com/redis/go-redis/v9.
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
//	{cal}:idx:venue, idx:organizer  venues / organizers by publication date
//	{cal}:idx:category, idx:tag  terms of a taxonomy by id
//	{cal}:cat:children:<id>      child categories of a category, by id
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
// Every write is one Lua script (EVALSHA, falling back to EVAL when the
// server's script cache is empty). The script checks its guards first — the
// SHA-1 of each record the Go side read and decided upon, so a concurrent
// writer in another process is detected — then allocates the id (INCR),
// reserves the first free calendar.SlugCandidate in the slug hash, and only
// then writes the record and every index entry. A script either runs whole or
// not at all, so a connection dropped mid-operation never leaves a partial
// write. A failed guard makes the Go side read again (bounded retries); a
// version that no longer matches is reported as calendar.ErrConflict.
//
// # Reads
//
// A get is one round trip (GET, MGET, or a script for slug lookups). An event
// list without Search, Name or IDs is usually one: the list script counts the
// total exactly on the start-sorted status sets, decides on their metas only
// the few events counts cannot (those near the window's edges, unusually long
// ones, future ones around Now, hidden ones…), and returns the total with the
// page's records; see window.go. It gives up beyond a fixed amount of work.
// Any other list is at most three round trips: the same script picks the
// narrowest index for the query (start or end window, status, featured,
// venue, organizer, category, tag, parent) by counting each candidate range
// with ZCOUNT, and returns the ids of that range; the candidates' metas are read with HMGET, every candidate is
// confirmed with storage.MatchPost and sorted in storage.ComparePosts order, so
// the total and the order are exactly the ones every other driver gives; then
// the records of the page alone are read with MGET. Queries with free-text
// Search or Name confirm on whole records instead of metas (two round trips).
// Candidate sets larger than the fetch batch (WithFetchBatch) take one more
// round trip per batch.
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
