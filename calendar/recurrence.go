package calendar

import (
	"slices"
	"strings"
	"time"

	"github.com/teambition/rrule-go"
)

// The RRULE engine (rrule-go, a port of python-dateutil) is only ever given
// floating times: wall clocks labelled UTC. It therefore never sees a DST
// change (its handling of those is known to be wrong for sub-daily rules),
// and each wall clock it yields is turned into an instant here, by the same
// rule as every other wall-clock input (dateWall: a skipped clock moves
// forward by the gap, a repeated one is its first instant).

// floating returns the wall clock of t in loc, labelled UTC.
func floating(t time.Time, loc *time.Location) time.Time {
	w := t.In(loc)
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, time.UTC)
}

// instant reads a floating wall clock as a time in loc.
func instant(w time.Time, loc *time.Location) time.Time {
	return dateWall(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, loc, false)
}

// ruleIter iterates the instances of the RRULE (DTSTART aside) as floating
// wall clocks no later than bound (floating).
func (r *Recurrence) ruleIter(bound time.Time) (rrule.Next, error) {
	o := r.rule.opt
	o.Dtstart = floating(r.start, r.loc)
	o.Until = bound
	engineQuirks(&o)
	if !r.rule.until.IsZero() {
		// Two days of slack: the exact cut is made on instants.
		if u := floating(r.rule.until, r.loc).Add(48 * time.Hour); u.Before(bound) {
			o.Until = u
		}
	}
	rr, err := rrule.NewRRule(o)
	if err != nil {
		return nil, recurErr("RRULE: %v", err)
	}
	return rr.Iterator(), nil
}

// engineQuirks adjusts the options where python-dateutil (and so rrule-go)
// departs from RFC 5545; the golden test found each of these:
//   - BYDAY mixing ordinals and plain weekdays (MONTHLY;BYDAY=WE,3FR) is a
//     union in the RFC, an intersection in dateutil: plain weekdays are
//     spelled out as every ordinal.
//   - BYWEEKNO without BYDAY takes DTSTART's weekday in the RFC (missing
//     parts come from DTSTART); dateutil takes the whole week.
//   - WEEKLY: dateutil's first week starts at DTSTART, so BYSETPOS counts
//     from there; the RFC counts in the whole week. The engine starts at the
//     week's first day (WKST) and the caller drops what lies before DTSTART.
func engineQuirks(o *rrule.ROption) {
	start := o.Dtstart
	wdOf := func(t time.Time) rrule.Weekday { return allWeekdays[(int(t.Weekday())+6)%7] }
	if len(o.Byweekno) > 0 && len(o.Byweekday)+len(o.Bymonthday)+len(o.Byyearday) == 0 {
		o.Byweekday = []rrule.Weekday{wdOf(start)}
	}
	if o.Freq == rrule.MONTHLY || o.Freq == rrule.YEARLY {
		ordinal := slices.ContainsFunc(o.Byweekday, func(w rrule.Weekday) bool { return w.N() != 0 })
		plain := slices.ContainsFunc(o.Byweekday, func(w rrule.Weekday) bool { return w.N() == 0 })
		if ordinal && plain {
			most := 5
			if o.Freq == rrule.YEARLY && len(o.Bymonth) == 0 {
				most = 53
			}
			var days []rrule.Weekday
			for _, w := range o.Byweekday {
				if w.N() != 0 {
					days = append(days, w)
					continue
				}
				for n := 1; n <= most; n++ {
					days = append(days, w.Nth(n))
				}
			}
			o.Byweekday = days
		}
	}
	if o.Freq == rrule.WEEKLY {
		if len(o.Byweekday) == 0 {
			o.Byweekday = []rrule.Weekday{wdOf(start)}
		}
		back := ((int(start.Weekday())+6)%7 - o.Wkst.Day() + 7) % 7
		o.Dtstart = start.AddDate(0, 0, -back)
	}
}

var allWeekdays = [...]rrule.Weekday{rrule.MO, rrule.TU, rrule.WE, rrule.TH, rrule.FR, rrule.SA, rrule.SU}

// probe refuses a rule that yields no instance at all.
func (r *Recurrence) probe() error {
	next, err := r.ruleIter(floating(r.start, r.loc).AddDate(recurrenceProbeYears, 0, 0))
	if err != nil {
		return err
	}
	first := floating(r.start, r.loc)
	for {
		w, ok := next()
		if !ok {
			break
		}
		if w.Before(first) {
			continue // the engine started at the beginning of the week
		}
		if r.rule.until.IsZero() || !instant(w, r.loc).After(r.rule.until) {
			return nil
		}
		break
	}
	return recurErr("the rule yields no occurrence")
}

// Occurrences returns the start instants of the set in order: DTSTART (which
// RFC 5545 counts as the first instance of the rule, so COUNT includes it),
// the instances of the RRULE and the RDATE values, less the EXDATE values.
// Only starts no later than to count (zero to: no bound beyond the rule's own
// COUNT or UNTIL — give one for an open-ended rule). At most limit starts are
// returned; more reports that the set holds further ones within the bound.
func (r *Recurrence) Occurrences(to time.Time, limit int) (starts []time.Time, more bool) {
	exAt := map[int64]bool{}
	exDay := map[civilDay]bool{}
	for _, d := range r.exdates {
		if d.dateOny {
			exDay[d.day] = true
		} else {
			exAt[d.at.Unix()] = true
		}
	}
	within := func(t time.Time) bool { return to.IsZero() || !t.After(to) }
	var out []time.Time
	add := func(t time.Time) {
		if exAt[t.Unix()] || exDay[dayOf(t.In(r.loc))] || !within(t) {
			return
		}
		out = append(out, t.In(r.loc))
	}
	add(r.start)
	if r.rule != nil {
		bound := floating(r.start, r.loc).AddDate(recurrenceProbeYears, 0, 0)
		if !to.IsZero() {
			bound = floating(to, r.loc).Add(48 * time.Hour)
		}
		next, err := r.ruleIter(bound)
		if err == nil { // the rule was built once already when it was parsed
			first := floating(r.start, r.loc)
			for n := 1; len(out) <= limit; {
				w, ok := next()
				if !ok {
					break
				}
				if !w.After(first) {
					continue // DTSTART, already in, or before it (start of its week)
				}
				if r.rule.count > 0 && n >= r.rule.count {
					break
				}
				t := instant(w, r.loc)
				if !r.rule.until.IsZero() && t.After(r.rule.until) || !within(t) {
					break
				}
				n++
				add(t)
			}
		}
	}
	for _, d := range r.rdates {
		add(d.at)
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	out = slices.CompactFunc(out, func(a, b time.Time) bool { return a.Equal(b) })
	if len(out) > limit {
		return out[:limit], true
	}
	return out, false
}

// icalUTC formats an instant as an RFC 5545 UTC date-time.
func icalUTC(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// withExdate returns lines with an EXDATE for the instant t added.
func withExdate(lines []string, t time.Time) []string {
	return append(slices.Clone(lines), "EXDATE:"+icalUTC(t))
}

// rewriteRule returns lines with the RRULE's parts changed by edit (which
// gets them in order, names upper-case).
func rewriteRule(lines []string, edit func([]rulePart) []rulePart) []string {
	out := slices.Clone(lines)
	for i, line := range out {
		head, value, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.EqualFold(head, "RRULE") {
			continue
		}
		var parts []rulePart
		for _, p := range strings.Split(value, ";") {
			k, v, _ := strings.Cut(p, "=")
			parts = append(parts, rulePart{strings.ToUpper(strings.TrimSpace(k)), strings.ToUpper(strings.TrimSpace(v))})
		}
		parts = edit(parts)
		var b strings.Builder
		b.WriteString("RRULE:")
		for j, p := range parts {
			if j > 0 {
				b.WriteByte(';')
			}
			b.WriteString(p.name + "=" + p.value)
		}
		out[i] = b.String()
	}
	return out
}

// setRulePart sets (or, with value "", removes) part name.
func setRulePart(parts []rulePart, name, value string) []rulePart {
	i := slices.IndexFunc(parts, func(p rulePart) bool { return p.name == name })
	switch {
	case i >= 0 && value == "":
		return slices.Delete(parts, i, i+1)
	case i >= 0:
		parts[i].value = value
	case value != "":
		parts = append(parts, rulePart{name, value})
	}
	return parts
}
