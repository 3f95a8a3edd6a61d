package ical

import (
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// eventWriter writes events as VEVENTs: single events, series (one VEVENT
// carrying RRULE/RDATE/EXDATE lines after DTEND, series.go) and detached
// occurrences (a VEVENT with the series' UID and a RECURRENCE-ID). write is
// the one place that decides which properties a VEVENT has.
type eventWriter struct {
	l     *lineWriter
	cfg   *exportConfig
	lang  string
	zones map[string]*zoneSpan
	num   []byte
	// grouped: the feed holds series with their detached occurrences, so
	// a detached occurrence is written as an override of its series. A
	// one-event feed writes it as a VEVENT of its own.
	grouped bool
}

func (e *eventWriter) write(ev *calendar.Event) {
	l := e.l
	l.prop("BEGIN", "VEVENT")
	l.start("UID")
	override := e.grouped && ev.Series != nil && ev.Series.Detached
	if override {
		l.text(seriesUID(e.cfg, ev))
	} else {
		l.text(uidOf(e.cfg, ev))
	}
	l.end()
	l.prop("DTSTAMP", ev.Modified.UTC().Format(utcLayout))
	e.times(ev)
	if override {
		e.recurrenceID(ev)
	} else if len(ev.Recurrence) > 0 {
		e.rule(ev)
	}
	l.textProp("SUMMARY", e.lang, ev.Title)
	l.textProp("DESCRIPTION", e.lang, ev.Description)
	website := ev.Website
	if website == "" {
		website = e.cfg.siteURL + "/event/" + ev.Slug + "/"
	}
	l.prop("URL", website)
	if len(ev.Venues) > 0 {
		v := &ev.Venues[0]
		l.textProp("LOCATION", e.lang, location(v))
		if v.GeoLat != nil && v.GeoLng != nil {
			e.num = strconv.AppendFloat(e.num[:0], *v.GeoLat, 'f', -1, 64)
			e.num = append(e.num, ';')
			e.num = strconv.AppendFloat(e.num, *v.GeoLng, 'f', -1, 64)
			l.prop("GEO", string(e.num))
		}
	}
	if len(ev.Organizers) > 0 {
		o := &ev.Organizers[0]
		l.start("ORGANIZER")
		if o.Name != "" {
			l.param("CN", o.Name)
		}
		switch {
		case o.Email != "":
			l.raw("mailto:" + o.Email)
		case o.Website != "":
			l.raw(o.Website)
		default:
			l.raw(e.cfg.siteURL + "/organizer/" + o.Slug + "/")
		}
		l.end()
	}
	if len(ev.Categories) > 0 {
		l.start("CATEGORIES")
		if e.lang != "" {
			l.param("LANGUAGE", e.lang)
		}
		for i := range ev.Categories {
			if i == 0 {
				l.line = append(l.line, ':')
			} else {
				l.line = append(l.line, ',')
			}
			l.appendText(ev.Categories[i].Name)
		}
		l.end()
	}
	l.prop("STATUS", statusOf(ev.Status))
	l.prop("CREATED", ev.Date.UTC().Format(utcLayout))
	l.prop("LAST-MODIFIED", ev.Modified.UTC().Format(utcLayout))
	l.prop("SEQUENCE", strconv.FormatInt(max(ev.Version-1, 0), 10))
	l.prop("END", "VEVENT")
}

// times writes DTSTART and DTEND: dates for all-day events (DTEND is the day
// after the last), else local times with the TZID of a VTIMEZONE of the
// feed — or UTC when the feed has none covering them. Events in UTC get a
// VTIMEZONE "UTC" too: a bare UTC time would be read back in the calendar's
// X-WR-TIMEZONE, which is how Google's feeds mean it.
//
// A local time the zone repeats (clocks going back) is written in UTC too:
// RFC 5545 reads it as its first occurrence, but readers differ (ical.js
// takes the second, and a zone like Europe/Dublin, whose winter time is the
// database's "daylight" time, trips up others), while UTC means the same
// instant to all of them.
func (e *eventWriter) times(ev *calendar.Event) {
	l := e.l
	if ev.AllDay {
		y, m, d := ev.End.Date()
		for _, p := range [...]struct {
			name string
			t    time.Time
		}{{"DTSTART", ev.Start}, {"DTEND", time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)}} {
			l.start(p.name)
			l.param("VALUE", "DATE")
			l.raw(p.t.Format(dateLayout))
			l.end()
		}
		return
	}
	z := e.zones[ev.TimeZone]
	zoned := z != nil && z.covers(ev.Start, ev.End)
	for _, p := range [...]struct {
		name string
		t    time.Time
	}{{"DTSTART", ev.Start}, {"DTEND", ev.End}} {
		if !zoned || repeated(p.t, z.loc) {
			l.prop(p.name, p.t.UTC().Format(utcLayout))
			continue
		}
		l.start(p.name)
		l.param("TZID", ev.TimeZone)
		l.raw(p.t.In(z.loc).Format(localLayout))
		l.end()
	}
}

// repeated reports whether the wall-clock time of t in loc also names
// another instant: the time lies in an hour the zone repeats.
func repeated(t time.Time, loc *time.Location) bool {
	w := t.In(loc)
	start, end := w.ZoneBounds()
	wall := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, time.UTC)
	for _, edge := range [...]time.Time{start.Add(-time.Second), end} {
		if edge.IsZero() || edge.Equal(time.Time{}.Add(-time.Second)) {
			continue
		}
		_, off := edge.In(loc).Zone()
		other := wall.Add(-time.Duration(off) * time.Second)
		if !other.Equal(t) && other.In(loc).Format(localLayout) == w.Format(localLayout) {
			return true
		}
	}
	return false
}

// uidOf is the UID the event was imported with, else its global id,
// "<host>?id=<id>" as the REST interface gives it.
func uidOf(c *exportConfig, ev *calendar.Event) string {
	if ev.UID != "" {
		return ev.UID
	}
	return c.uidHost + "?id=" + strconv.FormatInt(ev.ID, 10)
}

// location is the venue's name and address on one line.
func location(v *calendar.Venue) string {
	parts := make([]string, 0, 6)
	for _, s := range [...]string{v.Name, v.Address, v.City, v.DisplayStateProvince(), v.Zip, v.Country} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// statusOf maps a post status to a VEVENT STATUS: drafts and posts awaiting
// review are tentative, trashed ones cancelled, the rest confirmed.
func statusOf(st calendar.Status) string {
	switch st {
	case calendar.StatusDraft, calendar.StatusPending:
		return "TENTATIVE"
	case calendar.StatusTrash:
		return "CANCELLED"
	}
	return "CONFIRMED"
}
