package redisstore

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// A tval is a value of the apply script (a key name, a member, a score, an
// encoded record) that may hold holes: parts only the script knows when it
// runs — the id of a record created or found by a step of the same write, or
// the slug a step reserved. The Go side plans the whole write; the script
// fills the holes as it decides them.
//
// Hole specs name the step j they come from:
//
//	i<j>  the id of step j's record, in decimal
//	r<j>  the slug step j reserved
//	s<j>  that slug escaped for the inside of a JSON string
//	z<j>  the id of step j's record as a zig-zag varint (encodeMeta's form)
type tval struct {
	lits  []string // len(holes)+1 literal parts around the holes
	holes []string
}

func lit(s string) tval { return tval{lits: []string{s}} }

func hole(spec string) tval { return tval{lits: []string{"", ""}, holes: []string{spec}} }

func holeID(step int) tval { return hole("i" + strconv.Itoa(step)) }

// refVal is the tval of a link: a real id, or a placeholder (StepRef) that
// the script replaces with the id of that step's record.
func refVal(ref int64) tval {
	if j, ok := calendar.StepOf(ref); ok {
		return holeID(j)
	}
	return lit(itoa(ref))
}

// cat concatenates values, merging adjacent literals.
func cat(vs ...tval) tval {
	out := tval{lits: []string{""}}
	for _, v := range vs {
		out.lits[len(out.lits)-1] += v.lits[0]
		for i, h := range v.holes {
			out.holes = append(out.holes, h)
			out.lits = append(out.lits, v.lits[i+1])
		}
	}
	return out
}

// prefixed is the key prefix+ref, a hole when ref is a placeholder.
func prefixed(prefix string, ref int64) tval { return cat(lit(prefix), refVal(ref)) }

// String is a canonical form, for comparing and map keys; NUL cannot start
// a hole spec, so distinct values have distinct forms.
func (v tval) String() string {
	if len(v.holes) == 0 {
		return v.lits[0]
	}
	var b strings.Builder
	b.WriteString(v.lits[0])
	for i, h := range v.holes {
		b.WriteString("\x00" + h + "\x00")
		b.WriteString(v.lits[i+1])
	}
	return b.String()
}

// appendArgs appends v as the script reads it: the number of holes, then
// the literals and holes alternating, starting and ending with a literal.
func (v tval) appendArgs(args []any) []any {
	args = append(args, len(v.holes), v.lits[0])
	for i, h := range v.holes {
		args = append(args, h, v.lits[i+1])
	}
	return args
}

// The sentinels of recordTval: two encodings of one record differ exactly
// where a hole is, because each hole holds a different sentinel in each.
// Numeric sentinels have 19 digits, every one different between set A and
// set B (d and d+5 mod 10), so the differing run is the whole number;
// k < sentinelHoles numbers the hole within the record.
const (
	sentinelBase  = 1_000_000_000_000_000_000 // set A: base + k
	sentinelHoles = 1_000_000
)

func sentinel(set, k int) int64 {
	a := strconv.FormatInt(sentinelBase+int64(k), 10)
	if set == 0 {
		return sentinelBase + int64(k)
	}
	b := []byte(a)
	for i, c := range b {
		b[i] = '0' + (c-'0'+5)%10
	}
	n, _ := strconv.ParseInt(string(b), 10, 64)
	return n
}

var slugSentinels = [2]string{strings.Repeat("a", 24), strings.Repeat("b", 24)}

// holeFiller replaces the hole fields of one copy of a record with the
// sentinels of one set and records which hole each sentinel stands for.
type holeFiller struct {
	set   int
	holes []string // by sentinel number k
	slug  string   // hole spec of the slug, "" when the slug is literal
}

func (f *holeFiller) id(spec string) int64 {
	f.holes = append(f.holes, spec)
	return sentinel(f.set, len(f.holes)-1)
}

// ref returns id itself, or a sentinel when it is a placeholder.
func (f *holeFiller) ref(id int64) int64 {
	if j, ok := calendar.StepOf(id); ok {
		return f.id("i" + strconv.Itoa(j))
	}
	return id
}

func (f *holeFiller) refs(ids []int64) []int64 {
	out := make([]int64, len(ids))
	for i, id := range ids {
		out[i] = f.ref(id)
	}
	return out
}

func (f *holeFiller) slugHole(spec string) string {
	f.slug = spec
	return slugSentinels[f.set]
}

// encodeWithHoles encodes a record twice, fill putting the sentinels of set
// 0 then of set 1 in place of its holes, and cuts the encoding at the bytes
// that differ. It works for any encoding that writes ids as decimal numbers
// and strings as JSON strings, and checks that every hole was found exactly
// once.
func encodeWithHoles(fill func(f *holeFiller) ([]byte, error)) (tval, error) {
	fa, fb := &holeFiller{set: 0}, &holeFiller{set: 1}
	a, err := fill(fa)
	if err != nil {
		return tval{}, err
	}
	if len(fa.holes) == 0 && fa.slug == "" {
		return lit(string(a)), nil
	}
	if len(fa.holes) >= sentinelHoles {
		return tval{}, fmt.Errorf("redisstore: a record with %d placeholder links", len(fa.holes))
	}
	b, err := fill(fb)
	if err != nil {
		return tval{}, err
	}
	if len(a) != len(b) {
		return tval{}, fmt.Errorf("redisstore: record encoding is not cut by its holes (lengths %d, %d)", len(a), len(b))
	}
	out := tval{}
	seen := make([]bool, len(fa.holes))
	slugSeen := false
	start := 0
	for i := 0; i < len(a); {
		if a[i] == b[i] {
			i++
			continue
		}
		j := i
		for j < len(a) && a[j] != b[j] {
			j++
		}
		run := a[i:j]
		var spec string
		if string(run) == slugSentinels[0] && fa.slug != "" && !slugSeen {
			spec, slugSeen = fa.slug, true
		} else {
			n, err := strconv.ParseInt(string(run), 10, 64)
			k := n - sentinelBase
			if err != nil || k < 0 || k >= int64(len(fa.holes)) || seen[k] {
				return tval{}, fmt.Errorf("redisstore: record encoding is not cut by its holes (%q)", run)
			}
			spec, seen[k] = fa.holes[k], true
		}
		out.lits = append(out.lits, string(a[start:i]))
		out.holes = append(out.holes, spec)
		start, i = j, j
	}
	out.lits = append(out.lits, string(a[start:]))
	for _, s := range seen {
		if !s {
			return tval{}, fmt.Errorf("redisstore: record encoding lost a hole")
		}
	}
	if fa.slug != "" && !slugSeen {
		return tval{}, fmt.Errorf("redisstore: record encoding lost the slug")
	}
	return out, nil
}

// fillHoles replaces the holes of v as the script would (used by tests).
func fillHoles(v tval, fill func(spec string) string) string {
	var b bytes.Buffer
	b.WriteString(v.lits[0])
	for i, h := range v.holes {
		b.WriteString(fill(h))
		b.WriteString(v.lits[i+1])
	}
	return b.String()
}
