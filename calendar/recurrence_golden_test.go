package calendar

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/teambition/rrule-go"
)

// TestRecurrenceGolden compares the expansion with an independent RFC 5545
// implementation (testdata/recurrence/README.md) on many random rules.
func TestRecurrenceGolden(t *testing.T) {
	f, err := os.Open("testdata/recurrence/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n, failed := 0, 0
	known := map[string]int{}
	for sc.Scan() {
		var c struct {
			Zone, Start, Rule, To string
			Want                  []string
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		loc, err := ParseZone(c.Zone)
		if err != nil {
			t.Fatal(err)
		}
		w, err := time.Parse("2006-01-02T15:04:05", c.Start)
		if err != nil {
			t.Fatal(err)
		}
		start := instant(w, loc)
		to, err := time.Parse("20060102T150405Z", c.To)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ParseRecurrence([]string{"RRULE:" + c.Rule}, start, loc, 1000)
		if err != nil {
			failed++
			t.Errorf("%s %s %s: %v", c.Zone, c.Start, c.Rule, err)
			continue
		}
		got, _ := r.Occurrences(to, 10000)
		gs := make([]string, len(got))
		for i, g := range got {
			gs[i] = icalUTC(g)
		}
		if !slices.Equal(gs, c.Want) {
			if why := goldenKnownDifference(r, got, c.Want); why != "" {
				known[why]++
				continue
			}
			failed++
			if failed <= 10 {
				t.Errorf("%s %s RRULE:%s\n got %v\nwant %v", c.Zone, c.Start, c.Rule, gs, c.Want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("golden file has %d cases, want at least 1000", n)
	}
	for why, k := range known {
		t.Logf("%d cases differ where rrule-temporal departs from RFC 5545: %s", k, why)
		if k > n/20 {
			t.Errorf("%d cases of %q: too many to be the known difference", k, why)
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d cases differ", failed, n)
	}
}

// goldenKnownDifference explains a difference with the golden file by one of
// the places where rrule-temporal departs from RFC 5545 (and from this
// calendar's documented rule), or returns "".
func goldenKnownDifference(r *Recurrence, got []time.Time, want []string) string {
	// A wall clock skipped by a DST change moves forward by the gap (RFC
	// 5545 §3.3.10); rrule-temporal drops such an instance or picks
	// another day when BYSETPOS or a BYMONTHDAY list is involved.
	tod := func(t time.Time) int { w := t.In(r.loc); return w.Hour()*3600 + w.Minute()*60 + w.Second() }
	for _, g := range got {
		if tod(g) != tod(r.start) {
			return "an instance on a skipped wall clock is dropped instead of moved forward"
		}
	}
	// BYDAY mixing ordinals and plain weekdays is a union (RFC 5545
	// §3.3.10: BYDAY expands for YEARLY); rrule-temporal keeps only the
	// ordinal ones in a yearly rule without BYMONTH.
	o := r.rule.opt
	if o.Freq == rrule.YEARLY && len(o.Bymonth) == 0 &&
		slices.ContainsFunc(o.Byweekday, func(w rrule.Weekday) bool { return w.N() != 0 }) &&
		slices.ContainsFunc(o.Byweekday, func(w rrule.Weekday) bool { return w.N() == 0 }) {
		return "plain weekdays are dropped from a yearly BYDAY that also has ordinals"
	}
	// A week of BYWEEKNO that straddles New Year: rrule-temporal also
	// yields its days in the neighbouring year, the engine only those in
	// the year being expanded; RFC 5545 leaves this open.
	if len(o.Byweekno) > 0 {
		diff := symmetricDiff(got, want)
		// With BYSETPOS the different set moves the position picked too.
		if len(o.Bysetpos) > 0 || len(diff) > 0 && !slices.ContainsFunc(diff, func(t time.Time) bool {
			yd := t.In(r.loc).YearDay()
			return yd > 7 && yd < 359
		}) {
			return "days of a BYWEEKNO week across New Year"
		}
	}
	// BYDAY=53MO in a yearly rule: the 53rd Monday exists only in years
	// with 53 Mondays; rrule-temporal yields the first Monday of the next
	// year in the others.
	if o.Freq == rrule.YEARLY && slices.ContainsFunc(o.Byweekday, func(w rrule.Weekday) bool { return w.N() == 53 || w.N() == -53 }) {
		return "a 53rd weekday is taken from the next year"
	}
	return ""
}

func symmetricDiff(got []time.Time, want []string) []time.Time {
	in := map[string]bool{}
	for _, g := range got {
		in[icalUTC(g)] = true
	}
	var out []time.Time
	for _, w := range want {
		if !in[w] {
			t, _ := time.Parse("20060102T150405Z", w)
			out = append(out, t)
		}
		delete(in, w)
	}
	for w := range in {
		t, _ := time.Parse("20060102T150405Z", w)
		out = append(out, t)
	}
	return out
}
