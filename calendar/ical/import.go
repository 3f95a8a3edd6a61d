package ical

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// DefaultMaxBytes is the largest stream Import reads unless WithMaxBytes
// says otherwise (10 MiB).
const DefaultMaxBytes = 10 << 20

// DefaultMaxEvents is the most VEVENTs Import accepts unless WithMaxEvents
// says otherwise.
const DefaultMaxEvents = 10000

// ImportOption configures Import.
type ImportOption func(*importConfig)

type importConfig struct {
	maxBytes  int64
	maxEvents int
	lang      calendar.Lang
	siteZone  *time.Location
}

// WithMaxBytes sets the largest stream accepted (default DefaultMaxBytes);
// a longer one is refused with ErrTooLarge before anything is written.
func WithMaxBytes(n int64) ImportOption { return func(c *importConfig) { c.maxBytes = n } }

// WithMaxEvents sets the most VEVENTs accepted (default DefaultMaxEvents); a
// stream with more is refused with ErrTooManyEvents before anything is written.
func WithMaxEvents(n int) ImportOption { return func(c *importConfig) { c.maxEvents = n } }

// WithLanguage sets the language the texts are written in (default: the
// calendar's default language).
func WithLanguage(l calendar.Lang) ImportOption { return func(c *importConfig) { c.lang = l } }

// WithImportSiteZone sets the zone of floating times when the stream has no
// X-WR-TIMEZONE (default: the calendar's site zone, as for WithSiteZone).
func WithImportSiteZone(loc *time.Location) ImportOption {
	return func(c *importConfig) { c.siteZone = loc }
}

// Report says what Import did.
type Report struct {
	Created   int    `json:"created"`
	Updated   int    `json:"updated"`
	Unchanged int    `json:"unchanged"`
	Skipped   []Skip `json:"skipped"`
}

// Skip is a VEVENT Import did not write, and why.
type Skip struct {
	UID    string `json:"uid"`
	Reason string `json:"reason"`
}

// Import reads an iCalendar stream and creates or updates one event per
// VEVENT, as the caller on ctx (with the rights of CreateEvent and
// UpdateEvent). cal must keep UIDs (calendar.EventUIDs; *calendar.Service
// does): an event is found again by the UID it was imported with, so
// importing a file twice creates nothing the second time. An existing event
// is updated only when the VEVENT differs from it and is newer
// (LAST-MODIFIED after the event's last change; without LAST-MODIFIED, a
// SEQUENCE above the event's, or else a DTSTAMP after its last change);
// otherwise it counts as unchanged. STATUS:CANCELLED trashes an existing
// event and is not imported otherwise.
//
// Each VEVENT is one atomic write (the event with the venue, organizer and
// categories it names); one that cannot be read or written is skipped with
// its reason, and the others go on. A VEVENT with RRULE, RDATE or EXDATE
// becomes a series (its lines kept as the series' recurrence, which the
// calendar validates); a VEVENT with a RECURRENCE-ID updates, and so
// detaches, the occurrence of the series with its UID that has that
// recurrence id (recurring.go). Overrides are read after every series of
// the stream, wherever they stand in it.
//
// Errors: ErrNotICalendar, ErrTooLarge and ErrTooManyEvents (nothing
// written), ctx's error and storage errors (the report says what was done
// before).
func Import(ctx context.Context, cal calendar.Calendar, r io.Reader, opts ...ImportOption) (*Report, error) {
	cfg := importConfig{maxBytes: DefaultMaxBytes, maxEvents: DefaultMaxEvents}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.siteZone == nil {
		if z, ok := cal.(interface{ SiteZone() *time.Location }); ok {
			cfg.siteZone = z.SiteZone()
		}
		if cfg.siteZone == nil {
			cfg.siteZone = time.UTC
		}
	}
	uids, ok := cal.(calendar.EventUIDs)
	if !ok {
		return nil, errors.New("ical: the calendar does not keep event UIDs (calendar.EventUIDs)")
	}
	data, err := io.ReadAll(io.LimitReader(r, cfg.maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > cfg.maxBytes {
		return nil, ErrTooLarge
	}
	root, err := readCalendar(data, cfg.maxEvents)
	if err != nil {
		return nil, err
	}
	im := &importer{cal: cal, uids: uids, cfg: &cfg, rep: &Report{Skipped: []Skip{}}}
	im.floating = cfg.siteZone
	var hints []string
	if p := root.first("X-WR-TIMEZONE"); p != nil {
		if loc := namedZone(p.value); loc != nil {
			im.wrZone = loc
			im.floating = loc
			hints = append(hints, loc.String())
		}
	}
	hints = append(hints, cfg.siteZone.String())
	im.zones = newZoneResolver(root, hints...)
	// Series first, then the overrides, which need their series stored.
	for _, overrides := range [...]bool{false, true} {
		for _, c := range root.children {
			if c.name != "VEVENT" || (c.first("RECURRENCE-ID") != nil) != overrides {
				continue
			}
			if err := ctx.Err(); err != nil {
				return im.rep, err
			}
			if err := im.event(ctx, c); err != nil {
				return im.rep, err
			}
		}
	}
	return im.rep, nil
}

type importer struct {
	cal      calendar.Calendar
	uids     calendar.EventUIDs
	cfg      *importConfig
	rep      *Report
	zones    *zoneResolver
	wrZone   *time.Location             // X-WR-TIMEZONE, when known
	floating *time.Location             // zone of floating times
	occ      map[int64][]calendar.Event // occurrences of a series, read once per import
}

// vevent is a VEVENT mapped onto the calendar, with what deciding between
// create, update and unchanged needs.
type vevent struct {
	uid        string
	in         calendar.EventInput
	cancelled  bool
	recurrence []string // RRULE/RDATE/EXDATE lines, as the series' recurrence
	rid        *prop    // RECURRENCE-ID: an override of an occurrence

	// The content, to compare with an existing event.
	start, end time.Time // instants; for all-day events, midnight UTC of the first and last day
	allDay     bool
	zone       string // the event zone to store; "" for the site zone
	venue      string
	orgName    string
	orgEmail   string
	categories []string

	lastMod, stamp time.Time
	seq            int // -1: none
}

func (im *importer) skip(uid, reason string) {
	im.rep.Skipped = append(im.rep.Skipped, Skip{UID: uid, Reason: reason})
}

// event imports one VEVENT; only errors that stop the whole import are returned.
func (im *importer) event(ctx context.Context, c *component) error {
	uid := ""
	if p := c.first("UID"); p != nil {
		uid = strings.TrimSpace(p.value)
	}
	if c.bad != "" {
		im.skip(uid, c.bad)
		return nil
	}
	v, err := im.mapEvent(c)
	if err != nil {
		im.skip(uid, err.Error())
		return nil
	}
	if v.rid != nil {
		return im.override(ctx, v)
	}
	opt := calendar.ReadOptions{Lang: im.cfg.lang}
	existing, err := im.uids.GetEventByUID(ctx, v.uid, opt)
	if calendar.CodeOf(err) == calendar.CodeNotFound {
		if v.cancelled {
			im.skip(v.uid, "cancelled (STATUS:CANCELLED)")
			return nil
		}
		_, err = im.uids.CreateEventWithUID(ctx, v.uid, v.in, calendar.WriteOptions{Lang: im.cfg.lang})
		if calendar.CodeOf(err) == calendar.CodeConflict {
			// Another import made it meanwhile: update that one.
			existing, err = im.uids.GetEventByUID(ctx, v.uid, opt)
		} else {
			return im.outcome(v.uid, err, &im.rep.Created)
		}
	}
	if err != nil {
		return im.outcome(v.uid, err, nil)
	}
	ref := calendar.ByID(existing.ID)
	if v.cancelled {
		if existing.Status == calendar.StatusTrash {
			im.rep.Unchanged++
			return nil
		}
		_, err := im.cal.DeleteEvent(ctx, ref, calendar.DeleteOptions{Lang: im.cfg.lang, IfVersion: existing.Version})
		return im.outcome(v.uid, err, &im.rep.Updated)
	}
	if v.recurrence == nil && len(existing.Recurrence) > 0 {
		// The rule is gone from the file: the series becomes a single event.
		v.in.Recurrence = calendar.Some([]string{})
	}
	if v.same(existing, im.cfg.siteZone) || !v.newer(existing) {
		im.rep.Unchanged++
		return nil
	}
	_, err = im.cal.UpdateEvent(ctx, ref, v.in, calendar.WriteOptions{Lang: im.cfg.lang, IfVersion: existing.Version})
	return im.outcome(v.uid, err, &im.rep.Updated)
}

// outcome counts a write, or records why it was refused. Storage failures
// and cancellation stop the import.
func (im *importer) outcome(uid string, err error, count *int) error {
	switch {
	case err == nil:
		if count != nil {
			*count++
		}
		return nil
	case calendar.CodeOf(err) == calendar.CodeUnavailable, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	var ce *calendar.Error
	if errors.As(err, &ce) {
		msg := ce.Message
		for name, m := range ce.Params {
			if !strings.HasPrefix(m, name+":") {
				m = name + ": " + m
			}
			msg += " " + m
		}
		if len(ce.Missing) > 0 {
			msg += " missing: " + strings.Join(ce.Missing, ", ")
		}
		im.skip(uid, strings.TrimSpace(msg))
		return nil
	}
	return err
}

// mapEvent maps a VEVENT onto an event write (ical.md §2).
func (im *importer) mapEvent(c *component) (*vevent, error) {
	v := &vevent{seq: -1}
	if p := c.first("UID"); p != nil {
		v.uid = strings.TrimSpace(p.value)
	}
	summary := ""
	if p := c.first("SUMMARY"); p != nil {
		summary = strings.TrimSpace(p.value)
	}
	if v.uid == "" {
		// No UID (RFC 5545 requires one): one made of the start and the
		// summary keeps a second import of the file idempotent.
		raw := ""
		if p := c.first("DTSTART"); p != nil {
			raw = p.raw
		}
		sum := sha256.Sum256([]byte(raw + "\x00" + summary))
		v.uid = "eventcal-import-" + hex.EncodeToString(sum[:16])
	}
	if len(v.uid) > calendar.MaxUIDLen {
		return nil, fmt.Errorf("UID longer than %d bytes", calendar.MaxUIDLen)
	}
	if summary == "" {
		return nil, errors.New("SUMMARY is missing or empty (an event needs a title)")
	}
	// Every field the mapping covers is set, empty when the VEVENT lacks
	// it, so that an update makes the event what the file says.
	v.in.Title = calendar.Some(summary)
	v.in.Description = calendar.Some("")
	if p := c.first("DESCRIPTION"); p != nil {
		v.in.Description = calendar.Some(p.value)
	}
	v.in.Website = calendar.Some("")
	v.in.Venues = calendar.Some([]calendar.VenueRef{})
	v.in.Organizers = calendar.Some([]calendar.OrganizerRef{})
	v.in.Categories = calendar.Some([]calendar.TermRef{})
	if err := im.mapTimes(c, v); err != nil {
		return nil, err
	}
	if v.rid = c.first("RECURRENCE-ID"); v.rid == nil {
		v.recurrence = im.recurrenceLines(c)
		if v.recurrence != nil {
			v.in.Recurrence = calendar.Some(v.recurrence)
		}
	}
	if p := c.first("URL"); p != nil {
		if u, err := url.Parse(strings.TrimSpace(p.raw)); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			v.in.Website = calendar.Some(u.String())
		}
	}
	if p := c.first("LOCATION"); p != nil && strings.TrimSpace(p.value) != "" {
		v.venue = strings.TrimSpace(p.value)
		nv := &calendar.VenueInput{Name: calendar.Some(v.venue)}
		if g := c.first("GEO"); g != nil {
			if lat, lng, ok := parseGeo(g.raw); ok {
				nv.GeoLat, nv.GeoLng = calendar.Some(&lat), calendar.Some(&lng)
			}
		}
		v.in.Venues = calendar.Some([]calendar.VenueRef{{New: nv}})
	}
	if p := c.first("ORGANIZER"); p != nil {
		addr := strings.TrimSpace(p.raw)
		no := &calendar.OrganizerInput{}
		if rest, ok := cutPrefixFold(addr, "mailto:"); ok && rest != "" {
			v.orgEmail = rest
			no.Email = calendar.Some(rest)
		} else if u, err := url.Parse(addr); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
			no.Website = calendar.Some(addr)
		}
		v.orgName = strings.TrimSpace(p.param("CN"))
		if v.orgName == "" {
			v.orgName = v.orgEmail
		}
		if v.orgName != "" {
			no.Name = calendar.Some(v.orgName)
			v.in.Organizers = calendar.Some([]calendar.OrganizerRef{{New: no}})
		}
	}
	var cats []calendar.TermRef
	for _, p := range c.all("CATEGORIES") {
		for _, name := range splitText(p.raw) {
			if name = strings.TrimSpace(name); name != "" && !slices.Contains(v.categories, name) {
				v.categories = append(v.categories, name)
				cats = append(cats, calendar.TermRef{Name: name})
			}
		}
	}
	if len(cats) > 0 {
		v.in.Categories = calendar.Some(cats)
	}
	if p := c.first("STATUS"); p != nil && strings.EqualFold(strings.TrimSpace(p.value), "CANCELLED") {
		v.cancelled = true
	}
	if p := c.first("SEQUENCE"); p != nil {
		if n, err := strconv.Atoi(strings.TrimSpace(p.raw)); err == nil && n >= 0 {
			v.seq = n
		}
	}
	for _, f := range [...]struct {
		name string
		dst  *time.Time
	}{{"LAST-MODIFIED", &v.lastMod}, {"DTSTAMP", &v.stamp}} {
		if p := c.first(f.name); p != nil && strings.HasSuffix(strings.TrimSpace(p.raw), "Z") {
			if t, err := parseWall(p.raw); err == nil {
				*f.dst = t
			}
		}
	}
	return v, nil
}

// icalTime is a DTSTART or DTEND read from a stream.
type icalTime struct {
	date    bool
	wall    time.Time // the value as written, read as UTC
	utc     bool      // "Z": wall is the instant
	zone    zoneRef   // with TZID
	zoned   bool
	tzLabel string
}

func (im *importer) readTime(p *prop) (icalTime, error) {
	var t icalTime
	raw := strings.TrimSpace(p.raw)
	t.date = strings.EqualFold(p.param("VALUE"), "DATE") || len(raw) == len(dateLayout)
	w, err := parseWall(raw)
	if err != nil || t.date && len(raw) != len(dateLayout) {
		return t, fmt.Errorf("%s %q is not a date or date-time", p.name, p.raw)
	}
	t.wall = w
	if t.date {
		return t, nil
	}
	t.utc = strings.HasSuffix(raw, "Z")
	if tzid := p.param("TZID"); tzid != "" && !t.utc {
		z, err := im.zones.resolve(tzid, w.Year())
		if err != nil {
			return t, fmt.Errorf("%s: %w", p.name, err)
		}
		t.zone, t.zoned, t.tzLabel = z, true, tzid
	}
	return t, nil
}

// instant is the instant t names; floating times are read in loc.
func (t icalTime) instant(loc *time.Location) time.Time {
	switch {
	case t.utc:
		return t.wall
	case t.zoned && t.zone.rules != nil:
		return t.zone.rules.instant(t.wall)
	case t.zoned:
		loc = t.zone.loc
	}
	// The calendar's own reading of wall clocks (repeated hour: first
	// occurrence; skipped hour: moved forward), as RFC 5545 wants.
	at, err := calendar.ParseDate(t.wall.Format("2006-01-02 15:04:05"), loc, time.Time{})
	if err != nil {
		return t.wall
	}
	return at
}

// mapTimes sets the dates, all_day and timezone of the write.
func (im *importer) mapTimes(c *component, v *vevent) error {
	ds := c.first("DTSTART")
	if ds == nil {
		return errors.New("DTSTART is missing")
	}
	start, err := im.readTime(ds)
	if err != nil {
		return err
	}
	var end *icalTime
	if de := c.first("DTEND"); de != nil {
		e, err := im.readTime(de)
		if err != nil {
			return err
		}
		end = &e
	}
	var dur time.Duration
	var durDays int
	hasDur := false
	if du := c.first("DURATION"); du != nil && end == nil {
		if durDays, dur, err = parseDuration(du.raw); err != nil {
			return err
		}
		hasDur = true
	}

	if start.date {
		v.allDay = true
		first := start.wall
		last := first
		switch {
		case end != nil:
			last = time.Date(end.wall.Year(), end.wall.Month(), end.wall.Day()-1, 0, 0, 0, 0, time.UTC)
		case hasDur:
			days := durDays + int(dur/(24*time.Hour))
			last = first.AddDate(0, 0, max(days, 1)-1)
		}
		if last.Before(first) {
			last = first // DTEND on or before DTSTART: one day
		}
		v.start, v.end = first, last
		v.in.AllDay = calendar.Some(true)
		v.in.StartDate = calendar.Some(first.Format("2006-01-02"))
		v.in.EndDate = calendar.Some(last.Format("2006-01-02"))
		if im.wrZone != nil {
			v.zone = im.wrZone.String()
			v.in.TimeZone = calendar.Some(v.zone)
		}
		return nil
	}

	// The event's zone: its DTSTART's, else DTEND's, else X-WR-TIMEZONE,
	// else (floating) the site zone.
	var loc *time.Location
	switch {
	case start.zoned && start.zone.loc != nil:
		loc = start.zone.loc
	case start.zoned: // a VTIMEZONE matching no IANA zone: an offset zone, below
	case end != nil && end.zoned && end.zone.loc != nil && start.utc:
		loc = end.zone.loc
	case im.wrZone != nil:
		loc = im.wrZone
	case start.utc:
		loc = time.UTC
	}
	v.start = start.instant(im.floating)
	switch {
	case end != nil:
		if end.date {
			return errors.New("DTEND is a date but DTSTART a date-time")
		}
		v.end = end.instant(im.floating)
	case hasDur:
		// Days are calendar days (wall clock), the rest exact (RFC 5545 §3.3.6).
		zl := loc
		if zl == nil {
			zl = im.floating
		}
		w := v.start.In(zl)
		v.end = time.Date(w.Year(), w.Month(), w.Day()+durDays, w.Hour(), w.Minute(), w.Second(), 0, zl).Add(dur)
	default:
		v.end = v.start
	}
	if v.end.Before(v.start) {
		return errors.New("DTEND is before DTSTART")
	}
	if loc == nil && start.zoned {
		// A VTIMEZONE no IANA zone matches: keep its offset at the start.
		fixed, err := calendar.ParseZone(offsetName(start.zone.rules.offsetAt(v.start)))
		if err != nil {
			return fmt.Errorf("DTSTART: time zone %q: offset out of range", start.tzLabel)
		}
		loc = fixed
	}
	if loc != nil {
		v.zone = loc.String()
		v.in.TimeZone = calendar.Some(v.zone)
	}
	v.in.StartDate = calendar.Some(v.start.UTC().Format(time.RFC3339))
	v.in.EndDate = calendar.Some(v.end.UTC().Format(time.RFC3339))
	return nil
}

// offsetName is the calendar's name of a fixed offset: UTC+5:30.
func offsetName(sec int) string {
	sign := "+"
	if sec < 0 {
		sign, sec = "-", -sec
	}
	s := "UTC" + sign + strconv.Itoa(sec/3600)
	if m := sec / 60 % 60; m != 0 {
		s += fmt.Sprintf(":%02d", m)
	}
	return s
}

// same reports whether the existing event already shows what v would write.
func (v *vevent) same(ev *calendar.Event, site *time.Location) bool {
	if ev.Title != v.in.Title.Value || ev.Description != v.in.Description.Value || ev.AllDay != v.allDay {
		return false
	}
	if ev.Website != v.in.Website.Value || !slices.Equal(ev.Recurrence, v.recurrence) {
		return false
	}
	zone := v.zone
	if zone == "" {
		zone = site.String()
	}
	if ev.TimeZone != zone {
		return false
	}
	if v.allDay {
		if ev.Start.Format("2006-01-02") != v.start.Format("2006-01-02") || ev.End.Format("2006-01-02") != v.end.Format("2006-01-02") {
			return false
		}
	} else if !ev.Start.Equal(v.start) || !ev.End.Equal(v.end) {
		return false
	}
	venue := ""
	if len(ev.Venues) > 0 {
		venue = ev.Venues[0].Name
	}
	if venue != v.venue {
		return false
	}
	if v.orgName == "" && len(ev.Organizers) > 0 ||
		v.orgName != "" && (len(ev.Organizers) == 0 || ev.Organizers[0].Name != v.orgName || ev.Organizers[0].Email != v.orgEmail) {
		return false
	}
	var cats []string
	for _, t := range ev.Categories {
		cats = append(cats, t.Name)
	}
	return slices.Equal(slices.Sorted(slices.Values(cats)), slices.Sorted(slices.Values(v.categories)))
}

// newer reports whether v is a later version than the stored event.
func (v *vevent) newer(ev *calendar.Event) bool {
	switch {
	case !v.lastMod.IsZero():
		return v.lastMod.After(ev.Modified)
	case v.seq >= 0:
		return int64(v.seq) > ev.Version-1
	case !v.stamp.IsZero():
		return v.stamp.After(ev.Modified)
	}
	return false
}

// parseDuration reads an RFC 5545 DURATION: days (weeks are 7 days) apart
// from the exact time part.
func parseDuration(s string) (days int, d time.Duration, err error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	bad := fmt.Errorf("DURATION %q is not a duration", s)
	neg := false
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		neg, s = s[0] == '-', s[1:]
	}
	if !strings.HasPrefix(s, "P") || len(s) < 3 {
		return 0, 0, bad
	}
	s = s[1:]
	inTime := false
	for len(s) > 0 {
		if s[0] == 'T' {
			inTime, s = true, s[1:]
			continue
		}
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) || i > 6 {
			return 0, 0, bad
		}
		n, _ := strconv.Atoi(s[:i])
		switch unit := s[i]; {
		case unit == 'W' && !inTime:
			days += 7 * n
		case unit == 'D' && !inTime:
			days += n
		case unit == 'H' && inTime:
			d += time.Duration(n) * time.Hour
		case unit == 'M' && inTime:
			d += time.Duration(n) * time.Minute
		case unit == 'S' && inTime:
			d += time.Duration(n) * time.Second
		default:
			return 0, 0, bad
		}
		s = s[i+1:]
	}
	if neg {
		return 0, 0, errors.New("DURATION is negative")
	}
	return days, d, nil
}

func parseGeo(raw string) (lat, lng float64, ok bool) {
	a, b, found := strings.Cut(strings.TrimSpace(raw), ";")
	if !found {
		return 0, 0, false
	}
	lat, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	lng, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil || lat < -90 || lat > 90 || lng < -180 || lng > 180 {
		return 0, 0, false
	}
	return lat, lng, true
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
