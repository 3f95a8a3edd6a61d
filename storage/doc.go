// Package storage holds what every eventcal storage driver shares in
// production: the one canonical predicate that decides whether a record
// matches a query (MatchPost), the list order (ComparePosts), the record
// encoding (EncodePost, DecodePost, …) and the order-preserving key helpers
// used to build indexes. Drivers import it; the calendar package does not.
//
// Business rules are not here: drivers store, index and answer queries, and
// the calendar package decides what is allowed.
package storage
