package storage

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// FormatVersion is the version of the record encoding. Drivers that persist
// data store it and refuse data written by a version they do not know.
const FormatVersion = 1

// recordTag prefixes every encoded record so that a future encoding can be
// told apart from this one.
const recordTag byte = 1

// ErrBadRecord is wrapped by decoding errors of corrupt or foreign data.
var ErrBadRecord = errors.New("storage: undecodable record")

// EncodePost encodes a post for storage.
func EncodePost(p *calendar.PostRecord) ([]byte, error) { return encode(p) }

// DecodePost decodes what EncodePost produced.
func DecodePost(b []byte) (*calendar.PostRecord, error) {
	p := new(calendar.PostRecord)
	if err := decode(b, p); err != nil {
		return nil, err
	}
	return p, nil
}

// EncodeTerm encodes a term for storage.
func EncodeTerm(t *calendar.TermRecord) ([]byte, error) { return encode(t) }

// DecodeTerm decodes what EncodeTerm produced.
func DecodeTerm(b []byte) (*calendar.TermRecord, error) {
	t := new(calendar.TermRecord)
	if err := decode(b, t); err != nil {
		return nil, err
	}
	return t, nil
}

func encode(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("storage: encode: %w", err)
	}
	out := make([]byte, 0, len(b)+1)
	out = append(out, recordTag)
	return append(out, b...), nil
}

func decode(b []byte, v any) error {
	if len(b) == 0 || b[0] != recordTag {
		return fmt.Errorf("%w: unknown tag", ErrBadRecord)
	}
	if err := json.Unmarshal(b[1:], v); err != nil {
		return fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	return nil
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
