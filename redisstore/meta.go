package redisstore

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// A post's meta is the part of the record storage.MatchPost reads when a
// query has no free-text Search and no Name: kind, status, author, dates,
// flags and links. Lists confirm their candidates on metas (a few dozen
// bytes, decoded without reflection) and read whole records for the page
// only; queries with Search or Name confirm on whole records instead. Metas
// live in one hash, {prefix}:meta, field = id, written by the same script
// run as the record.
const metaTag byte = 1

// encodeMeta encodes the match-relevant fields of p (not its id, which is the
// hash field).
func encodeMeta(p *calendar.PostRecord) []byte {
	b := make([]byte, 0, 64)
	b = append(b, metaTag, byte(p.Kind))
	b = binary.AppendUvarint(b, uint64(len(p.Status)))
	b = append(b, p.Status...)
	b = binary.AppendVarint(b, p.Author)
	b = appendTime(b, p.Date)
	b = appendTime(b, p.Start)
	b = appendTime(b, p.End)
	var flags byte
	if p.Featured {
		flags |= 1
	}
	if p.HideFromListings {
		flags |= 2
	}
	b = append(b, flags)
	b = binary.AppendVarint(b, p.PostParent)
	for _, k := range linkKinds {
		ids := p.Links(k)
		b = binary.AppendUvarint(b, uint64(len(ids)))
		for _, id := range ids {
			b = binary.AppendVarint(b, id)
		}
	}
	return b
}

func appendTime(b []byte, t time.Time) []byte {
	b = binary.AppendVarint(b, t.Unix())
	return binary.AppendUvarint(b, uint64(t.Nanosecond()))
}

// decodeMeta returns post id with the fields encodeMeta stored; every other
// field is zero.
func decodeMeta(id int64, b []byte) (*calendar.PostRecord, error) {
	d := metaDecoder{b: b}
	if d.byte() != metaTag {
		return nil, fmt.Errorf("redisstore: meta of post %d: %w: unknown tag", id, storage.ErrBadRecord)
	}
	p := &calendar.PostRecord{ID: id, Kind: calendar.Kind(d.byte())}
	p.Status = calendar.Status(d.bytes(int(d.uvarint())))
	p.Author = d.varint()
	p.Date, p.Start, p.End = d.time(), d.time(), d.time()
	flags := d.byte()
	p.Featured, p.HideFromListings = flags&1 != 0, flags&2 != 0
	p.PostParent = d.varint()
	for _, k := range linkKinds {
		n := d.uvarint()
		if n > uint64(len(d.b)) {
			d.bad = true
			break
		}
		if n > 0 {
			ids := make([]int64, n)
			for i := range ids {
				ids[i] = d.varint()
			}
			p.SetLinks(k, ids)
		}
	}
	if d.bad || len(d.b) != 0 {
		return nil, fmt.Errorf("redisstore: meta of post %d: %w", id, storage.ErrBadRecord)
	}
	return p, nil
}

// metaDecoder reads what encodeMeta wrote; a short or malformed input sets
// bad instead of panicking.
type metaDecoder struct {
	b   []byte
	bad bool
}

func (d *metaDecoder) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *metaDecoder) bytes(n int) string {
	if n < 0 || n > len(d.b) {
		d.bad = true
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *metaDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *metaDecoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *metaDecoder) time() time.Time {
	sec, nsec := d.varint(), d.uvarint()
	if nsec >= 1e9 {
		d.bad = true
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}
