package ical

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Exporter makes iCalendar feeds from a calendar. Create it once with
// NewExporter and share it: it remembers when it first saw each feed
// version, which is what Last-Modified reports. It is safe for concurrent use.
type Exporter struct {
	cal  calendar.Calendar
	cfg  exportConfig
	seen firstSeen
}

// NewExporter returns an Exporter reading events from cal.
func NewExporter(cal calendar.Calendar, opts ...ExportOption) *Exporter {
	x := &Exporter{cal: cal, cfg: exportConfig{refresh: DefaultRefreshInterval, pastDays: DefaultPastDays}}
	for _, o := range opts {
		o(&x.cfg)
	}
	return x
}

// Feed is a prepared feed: its validator is known, its events are written by
// Write. A Feed is for one response; make a new one for the next.
type Feed struct {
	cal   calendar.Calendar
	cfg   exportConfig
	q     calendar.EventQuery
	one   *calendar.Event // EventFeed: the event, already read
	lang  string          // LANGUAGE parameter of texts; "" for the default language
	etag  string
	mod   time.Time
	zones map[string]*zoneSpan
	count int
}

// Feed prepares the feed of every event q matches, as the caller on ctx sees
// them in event lists. Paging arguments are ignored: the feed holds the whole
// result. Without any date argument the feed reaches back DefaultPastDays
// (see WithPastDays) and has no upper bound. Errors are those of
// calendar.Calendar.ListEvents (an invalid argument, an unknown language).
//
// Preparing reads the result once, page by page, keeping only what the
// validator and the VTIMEZONE blocks need; nothing is rendered. That is the
// price of a conditional request answered 304.
func (x *Exporter) Feed(ctx context.Context, q calendar.EventQuery, opts ...ExportOption) (*Feed, error) {
	f := x.newFeed(opts)
	f.q = withWindow(q, f.cfg.pastDays)
	f.q.Page, f.q.PerPage = 0, 0
	f.setLang(q.Lang)
	v := newValidator(&f.cfg, f.lang)
	err := f.each(ctx, func(ev *calendar.Event) error {
		f.note(ev, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	x.finish(f, v)
	return f, nil
}

// EventFeed prepares the feed of one event, read as calendar.Calendar.GetEvent
// reads it (with its errors: not found, not accessible, password protected).
func (x *Exporter) EventFeed(ctx context.Context, ref calendar.Ref, opt calendar.ReadOptions, opts ...ExportOption) (*Feed, error) {
	f := x.newFeed(opts)
	ev, err := x.cal.GetEvent(ctx, ref, opt)
	if err != nil {
		return nil, err
	}
	f.one = ev
	f.setLang(opt.Lang)
	v := newValidator(&f.cfg, f.lang)
	f.note(ev, v)
	x.finish(f, v)
	return f, nil
}

func (x *Exporter) newFeed(opts []ExportOption) *Feed {
	f := &Feed{cal: x.cal, cfg: x.cfg, zones: map[string]*zoneSpan{}}
	for _, o := range opts {
		o(&f.cfg)
	}
	f.cfg.defaults(x.cal)
	return f
}

func (f *Feed) setLang(l calendar.Lang) {
	if l != "" && l != f.cfg.defaultLang {
		f.lang = string(l)
	}
}

// note records what the validator and the VTIMEZONE blocks need of ev.
func (f *Feed) note(ev *calendar.Event, v *validator) {
	f.count++
	v.event(ev)
	if ev.AllDay {
		return
	}
	name := ev.TimeZone
	z := f.zones[name]
	if z == nil {
		z = &zoneSpan{loc: ev.Start.Location()}
		f.zones[name] = z
	}
	z.add(ev.Start, ev.End)
	if len(ev.Recurrence) > 0 {
		// A reader expands the rule with this VTIMEZONE: cover the span
		// the calendar materialises (its default horizon).
		z.add(ev.Start, f.cfg.now().AddDate(2, 0, 0))
	}
}

func (x *Exporter) finish(f *Feed, v *validator) {
	f.etag = v.tag()
	f.mod = v.mod
	if seen := x.seen.get(f.etag, f.cfg.now()); seen.After(f.mod) {
		f.mod = seen
	}
	f.mod = f.mod.UTC().Truncate(time.Second)
}

// ETag is the feed's entity tag (a quoted string): it changes whenever
// anything written in the feed would change.
func (f *Feed) ETag() string { return f.etag }

// LastModified is the later of the last change of any record in the feed
// and the moment this Exporter first saw the feed in its current version —
// the second part makes removals (an event deleted or leaving the window),
// which leave no modification time behind, move Last-Modified too.
func (f *Feed) LastModified() time.Time { return f.mod }

// Len is the number of events found while preparing the feed.
func (f *Feed) Len() int { return f.count }

// Write streams the feed to w. It reads the events again, one page at a
// time; an event that appeared since the feed was prepared in a zone (or
// beyond the span) its VTIMEZONE does not cover is written in UTC, so its
// times stay exact.
func (f *Feed) Write(ctx context.Context, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 32<<10)
	l := &lineWriter{w: bw}
	f.writeHeader(l)
	if err := bw.Flush(); err != nil {
		return err
	}
	if fl, ok := w.(interface{ Flush() }); ok {
		fl.Flush() // the first bytes leave now; the events follow as they are read
	}
	e := eventWriter{l: l, cfg: &f.cfg, lang: f.lang, zones: f.zones, grouped: f.one == nil}
	if f.one != nil {
		e.write(f.one)
	} else if err := f.each(ctx, func(ev *calendar.Event) error {
		e.write(ev)
		return l.err
	}); err != nil {
		return err
	}
	l.prop("END", "VCALENDAR")
	if err := bw.Flush(); err != nil {
		return err
	}
	return l.err
}

func (f *Feed) writeHeader(l *lineWriter) {
	l.prop("BEGIN", "VCALENDAR")
	l.prop("VERSION", "2.0")
	l.start("PRODID")
	l.text(f.cfg.prodID)
	l.end()
	l.prop("CALSCALE", "GREGORIAN")
	l.prop("METHOD", "PUBLISH")
	l.textProp("X-WR-CALNAME", "", f.cfg.name)
	l.start("X-WR-TIMEZONE")
	l.text(f.cfg.siteZone.String())
	l.end()
	if d := f.cfg.refresh; d >= time.Second {
		l.start("REFRESH-INTERVAL")
		l.param("VALUE", "DURATION")
		l.raw(formatDuration(d))
		l.end()
		l.prop("X-PUBLISHED-TTL", formatDuration(d))
	}
	names := make([]string, 0, len(f.zones))
	for n := range f.zones {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		writeVTimezone(l, n, f.zones[n])
	}
}

// each calls fn for every event of the feed in list order (start, then id).
// Series are exported as series: an occurrence in the list stands for its
// series, which comes once, followed by its detached occurrences (written as
// overrides), the first time one of its occurrences comes by. With the list
// argument series=series the list itself holds series records and detached
// occurrences.
func (f *Feed) each(ctx context.Context, fn func(*calendar.Event) error) error {
	if f.q.Series == calendar.SeriesRecords {
		return f.list(ctx, f.q, fn)
	}
	done := map[int64]bool{}
	return f.list(ctx, f.q, func(ev *calendar.Event) error {
		if ev.Series == nil {
			return fn(ev)
		}
		id := ev.Series.ID
		if done[id] {
			return nil
		}
		done[id] = true
		s, err := f.cal.GetEvent(ctx, calendar.ByID(id), calendar.ReadOptions{Lang: f.q.Lang})
		switch calendar.CodeOf(err) {
		case "":
		case calendar.CodeNotFound, calendar.CodeForbidden, calendar.CodeUnauthenticated, calendar.CodeGone:
			// The caller may read the occurrence but not its series: the
			// occurrence goes alone, as a VEVENT of its own.
			alone := *ev
			alone.Series = nil
			return fn(&alone)
		default:
			return err
		}
		if err := fn(s); err != nil {
			return err
		}
		// Its detached occurrences, whatever their dates (the rule reaches
		// them all), as the caller may read them.
		return f.list(ctx, calendar.EventQuery{PostParent: id, Series: calendar.SeriesRecords, Lang: f.q.Lang,
			Status: f.q.Status, StartDate: "1900-01-01"}, fn)
	})
}

// list calls fn for every event of q in list order, a page at a time. Pages
// are read by offset; should the result change between two pages, an event
// already passed is not repeated.
func (f *Feed) list(ctx context.Context, q calendar.EventQuery, fn func(*calendar.Event) error) error {
	q.PerPage = 1 << 30 // clamped to the calendar's largest page
	seen := false
	var lastStart time.Time
	var lastID int64
	for page := 1; ; page++ {
		q.Page = page
		p, err := f.cal.ListEvents(ctx, q)
		if err != nil {
			if page > 1 && calendar.CodeOf(err) == calendar.CodeNotFound {
				return nil // the result shrank while it was read
			}
			return err
		}
		for i := range p.Events {
			ev := &p.Events[i]
			if seen && (ev.Start.Before(lastStart) || ev.Start.Equal(lastStart) && ev.ID <= lastID) {
				continue
			}
			seen, lastStart, lastID = true, ev.Start, ev.ID
			if err := fn(ev); err != nil {
				return err
			}
		}
		if page >= p.TotalPages || len(p.Events) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// withWindow adds the feed's default window when q has no date argument.
func withWindow(q calendar.EventQuery, pastDays int) calendar.EventQuery {
	for _, d := range [...]string{q.StartDate, q.EndDate, q.StartsBefore, q.StartsAfter, q.EndsBefore, q.EndsAfter} {
		if strings.TrimSpace(d) != "" {
			return q
		}
	}
	q.StrictDates = false
	if pastDays < 0 {
		q.EndsAfter = "1000-01-01"
	} else {
		// Not strict: "ends after the end of the day n+1 days ago" is
		// "ended on that day or later".
		q.EndsAfter = "-" + strconv.Itoa(pastDays+1) + " days"
	}
	return q
}

// validator hashes what a feed's bytes depend on: the options, the language
// and, per event, the versions of the event and of every record it shows.
// Versions change on every write, so equal hashes mean equal feeds without
// rendering a line.
type validator struct {
	h   hash.Hash
	buf []byte
	mod time.Time
}

// feedFormat changes whenever the writer's output changes for the same data.
const feedFormat = "eventcal-ics-1"

func newValidator(c *exportConfig, lang string) *validator {
	v := &validator{h: sha256.New()}
	for _, s := range [...]string{feedFormat, c.name, c.prodID, c.siteURL, c.uidHost, c.siteZone.String(),
		string(c.defaultLang), lang, strconv.FormatInt(int64(c.refresh), 10)} {
		v.str(s)
	}
	return v
}

func (v *validator) str(s string) {
	v.buf = strconv.AppendInt(v.buf[:0], int64(len(s)), 10)
	v.buf = append(v.buf, ':')
	v.buf = append(v.buf, s...)
	v.h.Write(v.buf)
}

func (v *validator) ints(ns ...int64) {
	v.buf = v.buf[:0]
	for _, n := range ns {
		v.buf = strconv.AppendInt(v.buf, n, 10)
		v.buf = append(v.buf, ',')
	}
	v.h.Write(v.buf)
}

func (v *validator) event(ev *calendar.Event) {
	protected := int64(0)
	if ev.Protected {
		protected = 1
	}
	v.ints(ev.ID, ev.Version, protected, int64(len(ev.Venues)), int64(len(ev.Organizers)), int64(len(ev.Categories)))
	v.str(string(ev.Status))
	v.later(ev.Modified)
	for _, p := range ev.Venues {
		v.ints(p.ID, p.Version)
		v.str(string(p.Status))
		v.later(p.Modified)
	}
	for _, p := range ev.Organizers {
		v.ints(p.ID, p.Version)
		v.str(string(p.Status))
		v.later(p.Modified)
	}
	for _, t := range ev.Categories {
		v.ints(t.ID, t.Version)
	}
}

func (v *validator) later(t time.Time) {
	if t.After(v.mod) {
		v.mod = t
	}
}

func (v *validator) tag() string {
	sum := v.h.Sum(nil)
	return `"ics-` + hex.EncodeToString(sum[:16]) + `"`
}

// firstSeen remembers when each ETag was first computed. It is bounded: when
// full it starts over, which only makes Last-Modified later (a client then
// gets one full answer instead of a 304).
type firstSeen struct {
	mu sync.Mutex
	m  map[string]time.Time
}

const firstSeenMax = 4096

func (s *firstSeen) get(tag string, now time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.m[tag]; ok {
		return t
	}
	if s.m == nil || len(s.m) >= firstSeenMax {
		s.m = make(map[string]time.Time)
	}
	s.m[tag] = now
	return now
}

// formatDuration writes d as an RFC 5545 DURATION in whole seconds (at least 1s).
func formatDuration(d time.Duration) string {
	sec := int64(d / time.Second)
	b := []byte{'P'}
	if days := sec / 86400; days > 0 {
		b = strconv.AppendInt(b, days, 10)
		b = append(b, 'D')
		sec %= 86400
	}
	if sec > 0 {
		b = append(b, 'T')
		if h := sec / 3600; h > 0 {
			b = strconv.AppendInt(b, h, 10)
			b = append(b, 'H')
		}
		if m := sec / 60 % 60; m > 0 {
			b = strconv.AppendInt(b, m, 10)
			b = append(b, 'M')
		}
		if s := sec % 60; s > 0 {
			b = strconv.AppendInt(b, s, 10)
			b = append(b, 'S')
		}
	}
	return string(b)
}
