package redisstore

import "github.com/eventcal/eventcal/calendar"

// family tells the read paths that posts and terms share how one kind of
// record T is keyed and decoded, so that the paths are written once
// (read.go) and the kinds differ only here.
type family[T any] struct {
	what   string                           // "post" or "term": in errors and op names
	prefix func(keys) string                // prefix of the record keys: prefix+id
	key    func(keys, int64) string         // key of record id
	decode func(*Store, string) (*T, error) // storage encoding, through the decoded cache
}

// postFamily describes events, venues and organizers.
var postFamily = &family[calendar.PostRecord]{what: "post", prefix: keys.postPrefix, key: keys.post, decode: (*Store).decodePost}

// termFamily describes categories and tags.
var termFamily = &family[calendar.TermRecord]{what: "term", prefix: keys.termPrefix, key: keys.term, decode: (*Store).decodeTerm}
