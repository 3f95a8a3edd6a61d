package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// FormatVersion is the version of the record encoding that EncodePost and
// EncodeTerm write. The decoders read this version and every earlier one
// (1: the domain types' own JSON tags; 2: the stored form below). Drivers
// that persist data store it and refuse data written by a version they do
// not know.
//
// The stored form is this package's own types with their own field names,
// converted field by field from and to the domain records, so renaming or
// retagging a field of calendar.PostRecord never changes what is on disk. A
// change of the stored form is a new version: a new tag, a new golden file
// in testdata, and a decoder kept for every older version.
const FormatVersion = 2

// An encoded record is one tag byte, equal to the format version that wrote
// it, followed by a JSON object whose first member is "id" (redisstore
// relies on that to cut a record around its id and slug).
const (
	tagV1 byte = 1
	tagV2 byte = 2
)

// ErrBadRecord is wrapped by decoding errors of corrupt or foreign data.
var ErrBadRecord = errors.New("storage: undecodable record")

// EncodePost encodes a post for storage in the current format.
func EncodePost(p *calendar.PostRecord) ([]byte, error) {
	sp, err := storedPostOf(p)
	if err != nil {
		return nil, err
	}
	return encode(tagV2, sp)
}

// DecodePost decodes a post written by EncodePost of any known format.
func DecodePost(b []byte) (*calendar.PostRecord, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrBadRecord)
	}
	switch b[0] {
	case tagV2:
		var sp storedPost
		if err := decode(b, &sp); err != nil {
			return nil, err
		}
		return sp.record()
	case tagV1:
		var p postV1
		if err := decode(b, &p); err != nil {
			return nil, err
		}
		return p.record()
	}
	return nil, fmt.Errorf("%w: unknown tag %d", ErrBadRecord, b[0])
}

// EncodeTerm encodes a term for storage in the current format.
func EncodeTerm(t *calendar.TermRecord) ([]byte, error) {
	st, err := storedTermOf(t)
	if err != nil {
		return nil, err
	}
	return encode(tagV2, st)
}

// DecodeTerm decodes a term written by EncodeTerm of any known format.
func DecodeTerm(b []byte) (*calendar.TermRecord, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrBadRecord)
	}
	switch b[0] {
	case tagV2:
		var st storedTerm
		if err := decode(b, &st); err != nil {
			return nil, err
		}
		return st.record()
	case tagV1:
		var t termV1
		if err := decode(b, &t); err != nil {
			return nil, err
		}
		return t.record()
	}
	return nil, fmt.Errorf("%w: unknown tag %d", ErrBadRecord, b[0])
}

// RecordFormat returns the format version an encoded record was written
// with (its tag), or 0 when b is not an encoded record.
func RecordFormat(b []byte) int {
	if len(b) == 0 || b[0] != tagV1 && b[0] != tagV2 {
		return 0
	}
	return int(b[0])
}

func encode(tag byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("storage: encode: %w", err)
	}
	out := make([]byte, 0, len(b)+1)
	out = append(out, tag)
	return append(out, b...), nil
}

func decode(b []byte, v any) error {
	if err := json.Unmarshal(b[1:], v); err != nil {
		return fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	return nil
}

// storedPost is a post as format 2 stores it. Field names are short (they
// are repeated in every record) and belong to this type alone. Every field of
// calendar.PostRecord has one here; the test TestStoredFormCarriesEveryField
// fails when one is added to the domain and not here. Member order: "id"
// first and the slug before any free text (see tagV2).
type storedPost struct {
	ID       int64     `json:"id"`
	Kind     string    `json:"k"`
	Version  int64     `json:"v"`
	Slug     string    `json:"s,omitempty"`
	Status   string    `json:"st,omitempty"`
	Author   int64     `json:"a,omitempty"`
	Date     time.Time `json:"d,omitzero"`
	Modified time.Time `json:"m,omitzero"`
	Lang     string    `json:"l,omitempty"`
	UID      string    `json:"u,omitempty"`

	Title       map[calendar.Lang]string `json:"ti,omitempty"`
	Description map[calendar.Lang]string `json:"de,omitempty"`
	Excerpt     map[calendar.Lang]string `json:"ex,omitempty"`
	Image       string                   `json:"im,omitempty"`
	Website     string                   `json:"we,omitempty"`
	Phone       string                   `json:"ph,omitempty"`
	ShowMap     *bool                    `json:"sm,omitempty"`
	ShowMapLink *bool                    `json:"sml,omitempty"`

	Start            time.Time `json:"b,omitzero"`
	End              time.Time `json:"e,omitzero"`
	TimeZone         string    `json:"tz,omitempty"`
	AllDay           bool      `json:"ad,omitempty"`
	Cost             []string  `json:"co,omitempty"`
	HideFromListings bool      `json:"hi,omitempty"`
	Sticky           bool      `json:"sk,omitempty"`
	Featured         bool      `json:"fe,omitempty"`
	Password         string    `json:"pw,omitempty"`
	PostParent       int64     `json:"pa,omitempty"`
	VenueIDs         []int64   `json:"ve,omitempty"`
	OrganizerIDs     []int64   `json:"or,omitempty"`
	CategoryIDs      []int64   `json:"ca,omitempty"`
	TagIDs           []int64   `json:"ta,omitempty"`

	Recurrence   []string  `json:"rr,omitempty"`
	RecurrenceID time.Time `json:"ri,omitzero"`
	Detached     bool      `json:"dx,omitempty"`

	Address       string   `json:"adr,omitempty"`
	City          string   `json:"ci,omitempty"`
	Country       string   `json:"cn,omitempty"`
	Province      string   `json:"pr,omitempty"`
	State         string   `json:"sa,omitempty"`
	Zip           string   `json:"zi,omitempty"`
	StateProvince string   `json:"sp,omitempty"`
	GeoLat        *float64 `json:"la,omitempty"`
	GeoLng        *float64 `json:"lg,omitempty"`

	Email string `json:"em,omitempty"`
}

// storedTerm is a term as format 2 stores it.
type storedTerm struct {
	ID          int64                    `json:"id"`
	Taxonomy    string                   `json:"tx"`
	Version     int64                    `json:"v"`
	Slug        string                   `json:"s,omitempty"`
	Lang        string                   `json:"l,omitempty"`
	Name        map[calendar.Lang]string `json:"n,omitempty"`
	Description map[calendar.Lang]string `json:"de,omitempty"`
	Parent      int64                    `json:"pa,omitempty"`
}

// The stored names of kinds and taxonomies: spelled out here rather than
// taken from the domain's values (Kind is a number from iota, Taxonomy a
// wire name), so neither can change what is stored.
var (
	kindCodes = map[calendar.Kind]string{
		calendar.KindEvent: "event", calendar.KindVenue: "venue", calendar.KindOrganizer: "organizer",
	}
	taxonomyCodes = map[calendar.Taxonomy]string{
		calendar.TaxonomyCategory: "category", calendar.TaxonomyTag: "tag",
	}
)

func codeOf[K comparable](codes map[K]string, v K, zero K, what string) (string, error) {
	if v == zero {
		return "", nil
	}
	if c, ok := codes[v]; ok {
		return c, nil
	}
	return "", fmt.Errorf("storage: encode: %s %v has no stored form", what, v)
}

func valueOf[K comparable](codes map[K]string, c string, what string) (K, error) {
	var zero K
	if c == "" {
		return zero, nil
	}
	for k, v := range codes {
		if v == c {
			return k, nil
		}
	}
	return zero, fmt.Errorf("%w: unknown %s %q", ErrBadRecord, what, c)
}

func storedPostOf(p *calendar.PostRecord) (*storedPost, error) {
	kind, err := codeOf(kindCodes, p.Kind, 0, "post kind")
	if err != nil {
		return nil, err
	}
	return &storedPost{
		ID: p.ID, Kind: kind, Version: p.Version, Slug: p.Slug, Status: string(p.Status), Author: p.Author,
		Date: p.Date, Modified: p.Modified, Lang: string(p.Lang), UID: p.UID,
		Title: p.Title, Description: p.Description, Excerpt: p.Excerpt,
		Image: p.Image, Website: p.Website, Phone: p.Phone, ShowMap: p.ShowMap, ShowMapLink: p.ShowMapLink,
		Start: p.Start, End: p.End, TimeZone: p.TimeZone, AllDay: p.AllDay, Cost: p.Cost,
		HideFromListings: p.HideFromListings, Sticky: p.Sticky, Featured: p.Featured, Password: p.Password,
		PostParent: p.PostParent, VenueIDs: p.VenueIDs, OrganizerIDs: p.OrganizerIDs,
		CategoryIDs: p.CategoryIDs, TagIDs: p.TagIDs,
		Recurrence: p.Recurrence, RecurrenceID: p.RecurrenceID, Detached: p.Detached,
		Address: p.Address, City: p.City, Country: p.Country, Province: p.Province, State: p.State,
		Zip: p.Zip, StateProvince: p.StateProvince, GeoLat: p.GeoLat, GeoLng: p.GeoLng,
		Email: p.Email,
	}, nil
}

func (s *storedPost) record() (*calendar.PostRecord, error) {
	kind, err := valueOf(kindCodes, s.Kind, "post kind")
	if err != nil {
		return nil, err
	}
	return &calendar.PostRecord{
		ID: s.ID, Kind: kind, Version: s.Version, Slug: s.Slug, Status: calendar.Status(s.Status), Author: s.Author,
		Date: utc(s.Date), Modified: utc(s.Modified), Lang: calendar.Lang(s.Lang), UID: s.UID,
		Title: s.Title, Description: s.Description, Excerpt: s.Excerpt,
		Image: s.Image, Website: s.Website, Phone: s.Phone, ShowMap: s.ShowMap, ShowMapLink: s.ShowMapLink,
		Start: utc(s.Start), End: utc(s.End), TimeZone: s.TimeZone, AllDay: s.AllDay, Cost: s.Cost,
		HideFromListings: s.HideFromListings, Sticky: s.Sticky, Featured: s.Featured, Password: s.Password,
		PostParent: s.PostParent, VenueIDs: s.VenueIDs, OrganizerIDs: s.OrganizerIDs,
		CategoryIDs: s.CategoryIDs, TagIDs: s.TagIDs,
		Recurrence: s.Recurrence, RecurrenceID: utc(s.RecurrenceID), Detached: s.Detached,
		Address: s.Address, City: s.City, Country: s.Country, Province: s.Province, State: s.State,
		Zip: s.Zip, StateProvince: s.StateProvince, GeoLat: s.GeoLat, GeoLng: s.GeoLng,
		Email: s.Email,
	}, nil
}

func storedTermOf(t *calendar.TermRecord) (*storedTerm, error) {
	tax, err := codeOf(taxonomyCodes, t.Taxonomy, "", "taxonomy")
	if err != nil {
		return nil, err
	}
	return &storedTerm{
		ID: t.ID, Taxonomy: tax, Version: t.Version, Slug: t.Slug, Lang: string(t.Lang),
		Name: t.Name, Description: t.Description, Parent: t.Parent,
	}, nil
}

func (s *storedTerm) record() (*calendar.TermRecord, error) {
	tax, err := valueOf(taxonomyCodes, s.Taxonomy, "taxonomy")
	if err != nil {
		return nil, err
	}
	return &calendar.TermRecord{
		ID: s.ID, Taxonomy: tax, Version: s.Version, Slug: s.Slug, Lang: calendar.Lang(s.Lang),
		Name: s.Name, Description: s.Description, Parent: s.Parent,
	}, nil
}

// utc returns t in UTC, the zero instant as the zero Time: records hold UTC
// instants, and a decoded "Z" time must compare equal to the one stored.
func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

// IDKey returns the 8-byte big-endian form of an id, which sorts like the id.
func IDKey(id int64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(id))
	return b[:]
}

// ParseIDKey reverses IDKey.
func ParseIDKey(b []byte) int64 { return int64(binary.BigEndian.Uint64(b)) }

// TimeKey returns an 8-byte key that sorts like the instant t: Unix
// nanoseconds with the sign bit flipped, big-endian. Instants before 1678 or
// after 2262 are clamped.
func TimeKey(t time.Time) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(TimeScore(t))^(1<<63))
	return b[:]
}

// TimeScore returns t as Unix nanoseconds, clamped to the int64 range; Redis
// drivers use the microsecond form TimeScoreMicro for sorted-set scores.
func TimeScore(t time.Time) int64 {
	const minSec, maxSec = -9223372036, 9223372035
	s := t.Unix()
	if s < minSec {
		return -1 << 63
	}
	if s > maxSec {
		return 1<<63 - 1
	}
	return t.UnixNano()
}

// TimeScoreMicro returns t as Unix microseconds, exactly representable in a
// float64 sorted-set score for any date between years 1700 and 2250.
func TimeScoreMicro(t time.Time) float64 { return float64(t.UnixMicro()) }

// TimeAndIDKey is TimeKey(t) followed by IDKey(id): an index key that orders
// records by instant, then id, and is unique per record.
func TimeAndIDKey(t time.Time, id int64) []byte {
	return append(TimeKey(t), IDKey(id)...)
}
