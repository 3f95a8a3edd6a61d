package ical

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Import of series: the RRULE, RDATE and EXDATE lines of a VEVENT become the
// recurrence of the series written for it, as they are written (the
// calendar validates them, and its refusal is the VEVENT's skip reason); a
// VEVENT with a RECURRENCE-ID is an override, written onto the occurrence
// of the series with its UID whose recurrence id it names.

// recurrenceLines are the recurrence lines of c, nil when it has none. A
// TZID naming a zone the file maps to an IANA zone (an Outlook name, say)
// is written as that zone, since the calendar knows IANA names only; the
// times of a VTIMEZONE no IANA zone matches are written in UTC.
func (im *importer) recurrenceLines(c *component) []string {
	var lines []string
	for i := range c.props {
		p := &c.props[i]
		switch p.name {
		case "RRULE", "RDATE", "EXDATE":
		default:
			continue
		}
		value := strings.TrimSpace(p.raw)
		var b strings.Builder
		b.WriteString(p.name)
		for _, k := range slices.Sorted(maps.Keys(p.params)) {
			v := p.param(k)
			if k == "TZID" {
				if z, ok := im.ruleZone(v, value); ok && z.loc != nil {
					v = z.loc.String()
				} else if ok {
					value = inUTC(z.rules, value)
					continue
				}
			}
			b.WriteString(";" + k + "=" + v)
		}
		b.WriteString(":" + value)
		lines = append(lines, b.String())
	}
	return lines
}

// ruleZone resolves the TZID of a rule line; the year of the line's first
// value is the one VTIMEZONE rules are matched for.
func (im *importer) ruleZone(tzid, value string) (zoneRef, bool) {
	first, _, _ := strings.Cut(value, ",")
	year := 0
	if w, err := parseWall(first); err == nil {
		year = w.Year()
	}
	z, err := im.zones.resolve(tzid, year)
	return z, err == nil
}

// inUTC rewrites the local date-times of value in UTC by the rules of a
// VTIMEZONE; values it cannot read stay, for the calendar to refuse.
func inUTC(rules *vtimezone, value string) string {
	items := strings.Split(value, ",")
	for i, item := range items {
		if w, err := parseWall(item); err == nil && len(item) == len(localLayout) {
			items[i] = rules.instant(w).UTC().Format(utcLayout)
		}
	}
	return strings.Join(items, ",")
}

// override writes the VEVENT v, which has a RECURRENCE-ID, onto the
// occurrence it names: an update, which detaches the occurrence. It is
// unchanged when the occurrence is detached already and shows v (or v is
// not newer), and skipped when the series or the occurrence is not there.
func (im *importer) override(ctx context.Context, v *vevent) error {
	opt := calendar.ReadOptions{Lang: im.cfg.lang}
	series, err := im.uids.GetEventByUID(ctx, v.uid, opt)
	if calendar.CodeOf(err) == calendar.CodeNotFound {
		im.skip(v.uid, fmt.Sprintf("RECURRENCE-ID %s: no series with this UID", v.rid.raw))
		return nil
	}
	if err != nil {
		return im.outcome(v.uid, err, nil)
	}
	if len(series.Recurrence) == 0 {
		im.skip(v.uid, fmt.Sprintf("RECURRENCE-ID %s: the event with this UID is not recurring", v.rid.raw))
		return nil
	}
	at, err := im.recurrenceID(v.rid, series)
	if err != nil {
		im.skip(v.uid, err.Error())
		return nil
	}
	occs, err := im.occurrences(ctx, series)
	if err != nil {
		return im.outcome(v.uid, err, nil)
	}
	i := slices.IndexFunc(occs, func(o calendar.Event) bool { return o.Series != nil && o.Series.RecurrenceID.Equal(at) })
	if i < 0 {
		switch {
		case v.cancelled:
			im.rep.Unchanged++ // deleted already: its recurrence id is an EXDATE of the series
		case exdated(series, at):
			im.skip(v.uid, fmt.Sprintf("RECURRENCE-ID %s: that occurrence is removed by the series' EXDATE", v.rid.raw))
		default:
			im.skip(v.uid, fmt.Sprintf("RECURRENCE-ID %s: the series has no occurrence then", v.rid.raw))
		}
		return nil
	}
	occ := &occs[i]
	ref := calendar.ByID(occ.ID)
	if v.cancelled {
		// Deleting an occurrence adds its recurrence id to the series' EXDATE.
		_, err := im.cal.DeleteEvent(ctx, ref, calendar.DeleteOptions{Lang: im.cfg.lang, IfVersion: occ.Version})
		delete(im.occ, series.ID)
		return im.outcome(v.uid, err, &im.rep.Updated)
	}
	if occ.Series.Detached && (v.same(occ, im.cfg.siteZone) || !v.newer(occ)) {
		im.rep.Unchanged++
		return nil
	}
	_, err = im.cal.UpdateEvent(ctx, ref, v.in, calendar.WriteOptions{Lang: im.cfg.lang, IfVersion: occ.Version})
	delete(im.occ, series.ID)
	return im.outcome(v.uid, err, &im.rep.Updated)
}

// recurrenceID is the instant a RECURRENCE-ID names: a date is the series'
// time of day on that date, a floating time is in the series' zone.
func (im *importer) recurrenceID(p *prop, series *calendar.Event) (time.Time, error) {
	t, err := im.readTime(p)
	if err != nil {
		return time.Time{}, err
	}
	loc := series.Start.Location()
	if t.date {
		w := series.Start.In(loc)
		return time.Date(t.wall.Year(), t.wall.Month(), t.wall.Day(), w.Hour(), w.Minute(), w.Second(), 0, loc), nil
	}
	return t.instant(loc), nil
}

// occurrences lists every occurrence of series, detached and moved ones
// included, once per import unless a write changed them.
func (im *importer) occurrences(ctx context.Context, series *calendar.Event) ([]calendar.Event, error) {
	if occs, ok := im.occ[series.ID]; ok {
		return occs, nil
	}
	// A window from well before the series keeps occurrences moved earlier.
	q := calendar.EventQuery{PostParent: series.ID, PerPage: 100, Status: []string{string(series.Status)},
		StartDate: series.Start.AddDate(-10, 0, 0).UTC().Format(time.RFC3339), Lang: im.cfg.lang}
	var occs []calendar.Event
	for page := 1; ; page++ {
		q.Page = page
		p, err := im.cal.ListEvents(ctx, q)
		if err != nil {
			return nil, err
		}
		occs = append(occs, p.Events...)
		if page >= p.TotalPages {
			break
		}
	}
	if im.occ == nil {
		im.occ = map[int64][]calendar.Event{}
	}
	im.occ[series.ID] = occs
	return occs, nil
}

// exdated reports whether the rule of series yields at but its EXDATE
// lines take it out.
func exdated(series *calendar.Event, at time.Time) bool {
	var rule []string
	for _, l := range series.Recurrence {
		if !strings.HasPrefix(strings.ToUpper(l), "EXDATE") {
			rule = append(rule, l)
		}
	}
	r, err := calendar.ParseRecurrence(rule, series.Start, series.Start.Location(), calendar.DefaultMaxOccurrences)
	if err != nil {
		return false
	}
	starts, _ := r.Occurrences(at.Add(time.Second), calendar.DefaultMaxOccurrences)
	return slices.ContainsFunc(starts, at.Equal)
}
