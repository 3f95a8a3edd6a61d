package redisstore

import "github.com/eventcal/eventcal/calendar"

// SharedReads returns a view of s whose reads hand out the records its
// decoded cache keeps rather than copies of them (WithDecodedCache); every
// read still fetches the record's bytes from Redis, so the view sees every
// write. Copying a record (every translatable text is a map) costs about as
// much as the rest of decoding a list page's records, and a reader that
// only looks at them needs no copy. In return, the caller must never modify
// a record it got from the view — not a field, not a map, not a slice
// element — since other readers hold the same one. The calendar reads
// through it only on its read-only paths (GetEvent, ListEvents and what
// they embed). Without a decoded cache the view is s itself.
func (s *Store) SharedReads() calendar.Repository {
	if s.decoded == nil {
		return s
	}
	// A copy of the whole Store, so that every setting follows, made per
	// call so that it follows the Store's settings of the moment.
	v := *s
	v.decoded = &decodedCache{decodedSet: s.decoded.decodedSet, shared: true}
	return &v
}
