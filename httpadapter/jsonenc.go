package httpadapter

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// enc appends JSON to a byte slice. Representations are written by hand
// because wire §3 fixes the field order and some fields change JSON type
// (venue object / array, image object / false), which struct tags cannot say,
// and because it is several times cheaper than reflection on the hot path.
type enc struct {
	b     []byte
	comma bool   // a value was written at this level: the next one needs ','
	ckey  []byte // scratch space for a renderCache key, kept with the buffer
}

func (e *enc) sep() {
	if e.comma {
		e.b = append(e.b, ',')
	}
	e.comma = true
}

func (e *enc) open(c byte) {
	e.sep()
	e.b = append(e.b, c)
	e.comma = false
}

func (e *enc) close(c byte) {
	e.b = append(e.b, c)
	e.comma = true
}

// key writes an object key; the next write is its value. k must need no
// JSON escaping (use keyString for data-derived keys).
func (e *enc) key(k string) {
	if e.comma {
		e.b = append(e.b, ',')
	}
	// Keys are literals of this package: plain ASCII needing no escaping.
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':')
	e.comma = false
}

// keyString writes a key that comes from data.
func (e *enc) keyString(k string) {
	if e.comma {
		e.b = append(e.b, ',')
	}
	e.b = appendJSONString(e.b, k)
	e.b = append(e.b, ':')
	e.comma = false
}

func (e *enc) str(s string) {
	e.sep()
	e.b = appendJSONString(e.b, s)
}

func (e *enc) int(n int64) {
	e.sep()
	e.b = strconv.AppendInt(e.b, n, 10)
}

func (e *enc) float(f float64) {
	e.sep()
	e.b = strconv.AppendFloat(e.b, f, 'f', -1, 64)
}

func (e *enc) bool(v bool) {
	e.sep()
	e.b = strconv.AppendBool(e.b, v)
}

func (e *enc) null() {
	e.sep()
	e.b = append(e.b, "null"...)
}

// boolPtr writes null for a blanked flag.
func (e *enc) boolPtr(v *bool) {
	if v == nil {
		e.null()
		return
	}
	e.bool(*v)
}

// time writes t in its own location as "YYYY-MM-DD HH:MM:SS".
func (e *enc) time(t time.Time) {
	e.sep()
	e.b = append(e.b, '"')
	e.b = appendWireTime(e.b, t)
	e.b = append(e.b, '"')
}

// wireLayout is the layout of every local date on the wire.
const wireLayout = "2006-01-02 15:04:05"

// appendWireTime appends t formatted with wireLayout. Dates are most of
// what an event body holds, and t.AppendFormat interprets its layout on
// every call (it was the writer's largest cost); this writes the digits.
func appendWireTime(b []byte, t time.Time) []byte {
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return t.AppendFormat(b, wireLayout)
	}
	h, mi, s := t.Clock()
	b = append4(b, y)
	b = append(b, '-')
	b = append2(b, int(mo))
	b = append(b, '-')
	b = append2(b, d)
	b = append(b, ' ')
	b = append2(b, h)
	b = append(b, ':')
	b = append2(b, mi)
	b = append(b, ':')
	return append2(b, s)
}

// append2 appends 0 ≤ n < 100 as two digits.
func append2(b []byte, n int) []byte {
	return append(b, byte('0'+n/10), byte('0'+n%10))
}

// append4 appends 0 ≤ n < 10000 as four digits.
func append4(b []byte, n int) []byte {
	return append(b, byte('0'+n/1000), byte('0'+n/100%10), byte('0'+n/10%10), byte('0'+n%10))
}

// localAndUTC writes t under key in its own location and under utcKey in
// UTC, the pair every post date is shown as.
func (e *enc) localAndUTC(key, utcKey string, t time.Time) {
	e.key(key)
	e.time(t)
	e.key(utcKey)
	e.time(t.UTC())
}

// timeAndDetails writes t under key and its details object under detailsKey.
func (e *enc) timeAndDetails(key, detailsKey string, t time.Time) {
	e.key(key)
	e.time(t)
	e.key(detailsKey)
	e.details(t)
}

// details writes the {year, month, …} object of wire §3.
func (e *enc) details(t time.Time) {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	e.open('{')
	e.key("year")
	e.pad(y, 4)
	e.key("month")
	e.pad(int(mo), 2)
	e.key("day")
	e.pad(d, 2)
	e.key("hour")
	e.pad(h, 2)
	e.key("minutes")
	e.pad(mi, 2)
	e.key("seconds")
	e.pad(s, 2)
	e.close('}')
}

// pad writes n as a string of at least width digits (zero-padded).
func (e *enc) pad(n, width int) {
	e.sep()
	e.b = append(e.b, '"')
	switch {
	case width == 2 && n >= 0 && n < 100:
		e.b = append2(e.b, n)
	case width == 4 && n >= 0 && n < 10000:
		e.b = append4(e.b, n)
	default:
		var digits [20]byte
		s := strconv.AppendInt(digits[:0], int64(n), 10)
		for i := len(s); i < width; i++ {
			e.b = append(e.b, '0')
		}
		e.b = append(e.b, s...)
	}
	e.b = append(e.b, '"')
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// and U+2028/U+2029 are escaped so the output is also valid JavaScript.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

// appendEscaped appends the JSON-escaped body of s, without quotes.
func appendEscaped(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}

// strs writes the concatenation of parts as one JSON string, without
// building the string first (URLs are made of several parts).
func (e *enc) strs(parts ...string) {
	e.sep()
	e.b = append(e.b, '"')
	for _, p := range parts {
		e.b = appendEscaped(e.b, p)
	}
	e.b = append(e.b, '"')
}

// timeFormat writes t formatted with layout as a JSON string (layouts
// produce no characters that need escaping).
func (e *enc) timeFormat(t time.Time, layout string) {
	e.sep()
	e.b = append(e.b, '"')
	e.b = t.AppendFormat(e.b, layout)
	e.b = append(e.b, '"')
}
