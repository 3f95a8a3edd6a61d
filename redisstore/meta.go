package redisstore

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
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
	return []byte(metaTval(p).String())
}

// metaTval is encodeMeta for a record whose links may hold placeholders
// (calendar.StepRef): each becomes a hole the apply script fills with the
// varint of the id that step's record got.
func metaTval(p *calendar.PostRecord) tval {
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
	// Metas written before series existed have these bits clear, which is
	// what those records are.
	if len(p.Recurrence) > 0 {
		flags |= 4
	}
	if !p.RecurrenceID.IsZero() {
		flags |= 8
	}
	if p.Detached {
		flags |= 16
	}
	b = append(b, flags)
	var out tval
	id := func(v int64) {
		if j, ok := calendar.StepOf(v); ok {
			out.lits = append(out.lits, string(b))
			out.holes = append(out.holes, "z"+strconv.Itoa(j))
			b = b[:0]
			return
		}
		b = binary.AppendVarint(b, v)
	}
	id(p.PostParent)
	for _, k := range linkKinds {
		ids := p.Links(k)
		b = binary.AppendUvarint(b, uint64(len(ids)))
		for _, v := range ids {
			id(v)
		}
	}
	out.lits = append(out.lits, string(b))
	return out
}

func appendTime(b []byte, t time.Time) []byte {
	b = binary.AppendVarint(b, t.Unix())
	return binary.AppendUvarint(b, uint64(t.Nanosecond()))
}

// decodeMeta returns post id with the fields encodeMeta stored; every other
// field is zero.
func decodeMeta(id int64, b string) (*calendar.PostRecord, error) {
	var m metaScratch
	p, err := m.decode(id, b)
	if err != nil {
		return nil, err
	}
	return p.Clone(), nil
}

// metaRule and metaRecurrenceID stand in a decoded meta for a rule and a
// recurrence id the meta only says exist: storage.MatchPost looks at no more.
var (
	metaRule         = []string{"RRULE:"}
	metaRecurrenceID = time.Unix(1, 0).UTC()
)

// metaScratch decodes metas one after the other into the same record and
// link buffers, so confirming thousands of candidates allocates nothing per
// candidate. The record it returns is valid until the next decode.
type metaScratch struct {
	p     calendar.PostRecord
	links [len(linkKinds)][]int64
}

func (m *metaScratch) decode(id int64, b string) (*calendar.PostRecord, error) {
	d := metaDecoder{b: b}
	if d.byte() != metaTag {
		return nil, fmt.Errorf("redisstore: meta of post %d: %w: unknown tag", id, storage.ErrBadRecord)
	}
	p := &m.p
	*p = calendar.PostRecord{ID: id, Kind: calendar.Kind(d.byte())}
	p.Status = calendar.Status(d.str(int(d.uvarint())))
	p.Author = d.varint()
	p.Date, p.Start, p.End = d.time(), d.time(), d.time()
	flags := d.byte()
	p.Featured, p.HideFromListings = flags&1 != 0, flags&2 != 0
	if flags&4 != 0 {
		p.Recurrence = metaRule
	}
	if flags&8 != 0 {
		p.RecurrenceID = metaRecurrenceID
	}
	p.Detached = flags&16 != 0
	p.PostParent = d.varint()
	for i, k := range linkKinds {
		n := d.uvarint()
		if n > uint64(len(d.b)) {
			d.bad = true
			break
		}
		ids := m.links[i][:0]
		for range n {
			ids = append(ids, d.varint())
		}
		m.links[i] = ids
		if n > 0 {
			p.SetLinks(k, ids)
		}
	}
	if d.bad || len(d.b) != 0 {
		return nil, fmt.Errorf("redisstore: meta of post %d: %w", id, storage.ErrBadRecord)
	}
	return p, nil
}

// metaDecoder reads what encodeMeta wrote, straight from the reply string; a
// short or malformed input sets bad instead of panicking.
type metaDecoder struct {
	b   string
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

func (d *metaDecoder) str(n int) string {
	if n < 0 || n > len(d.b) {
		d.bad = true
		return ""
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

// uvarint is binary.Uvarint on a string.
func (d *metaDecoder) uvarint() uint64 {
	var x uint64
	var s uint
	for i := 0; i < len(d.b) && i < binary.MaxVarintLen64; i++ {
		c := d.b[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				break
			}
			d.b = d.b[i+1:]
			return x | uint64(c)<<s
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	d.bad = true
	return 0
}

// varint is binary.Varint on a string.
func (d *metaDecoder) varint() int64 {
	ux := d.uvarint()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}

func (d *metaDecoder) time() time.Time {
	sec, nsec := d.varint(), d.uvarint()
	if nsec >= 1e9 {
		d.bad = true
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}

// hit is a confirmed match: its id and the instant it sorts by (Start for
// events, Date for venues and organizers).
type hit struct {
	id int64
	at time.Time
}

func hitOf(p *calendar.PostRecord) hit {
	if p.Kind == calendar.KindEvent {
		return hit{p.ID, p.Start}
	}
	return hit{p.ID, p.Date}
}

// sortHits orders hits of kind exactly as storage.ComparePosts orders the
// posts (TestMetaMatchesLikeRecord proves it): events by start then id
// ascending, venues and organizers by date then id descending.
func sortHits(kind calendar.Kind, hs []hit) {
	cmp := func(a, b hit) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		switch {
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	}
	if kind == calendar.KindEvent {
		slices.SortFunc(hs, cmp)
	} else {
		slices.SortFunc(hs, func(a, b hit) int { return cmp(b, a) })
	}
}
