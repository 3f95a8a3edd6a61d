package ical

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Time zones of imported files. A TZID is, in order: an IANA name (or our
// UTC±H:MM), a Windows name (Outlook, Exchange: "W. Europe Standard Time")
// looked up in CLDR's table, a name ending in an IANA name
// ("/mozilla.org/20050126_1/Europe/Berlin"), or the VTIMEZONE of that TZID
// in the file matched to an IANA zone by its rules. A VTIMEZONE no IANA zone
// matches still gives exact instants: its own rules are evaluated, and the
// event keeps the offset in force at its start.

// zoneRef is a resolved time zone: an IANA (or offset) zone, or the rules
// of a VTIMEZONE that matches none.
type zoneRef struct {
	loc   *time.Location // nil: use rules
	rules *vtimezone
}

// zoneResolver resolves the TZIDs of one file, with a cache.
type zoneResolver struct {
	vtz     map[string]*vtimezone
	broken  map[string]error // VTIMEZONEs that could not be read
	hints   []string         // X-WR-TIMEZONE and the site zone: preferred among equal matches
	cache   map[string]zoneRef
	matched int // VTIMEZONEs matched by rules so far
}

// Bounds on what one file may make the matcher do: matching a VTIMEZONE
// costs a few milliseconds, and a file is untrusted input.
const (
	maxRuleMatches = 32  // VTIMEZONEs matched by rules per file
	maxObservances = 64  // STANDARD/DAYLIGHT blocks per VTIMEZONE
	maxZoneRDates  = 512 // RDATE values per VTIMEZONE
)

func newZoneResolver(root *component, hints ...string) *zoneResolver {
	z := &zoneResolver{vtz: map[string]*vtimezone{}, broken: map[string]error{}, cache: map[string]zoneRef{}, hints: hints}
	for _, c := range root.children {
		if c.name != "VTIMEZONE" {
			continue
		}
		tzid := ""
		if p := c.first("TZID"); p != nil {
			tzid = p.value
		}
		if c.bad != "" {
			z.broken[tzid] = fmt.Errorf("VTIMEZONE %q: %s", tzid, c.bad)
			continue
		}
		if v, err := parseVTimezone(c); err == nil {
			z.vtz[v.tzid] = v
		} else {
			z.broken[tzid] = err
		}
	}
	return z
}

// resolve finds the zone of tzid. The year of its first use decides which
// years the rules of a VTIMEZONE are compared over; the result holds for
// the whole file.
func (z *zoneResolver) resolve(tzid string, year int) (zoneRef, error) {
	if r, ok := z.cache[tzid]; ok {
		return r, nil
	}
	r, err := z.find(tzid, year)
	if err != nil {
		return zoneRef{}, err
	}
	z.cache[tzid] = r
	return r, nil
}

func (z *zoneResolver) find(tzid string, year int) (zoneRef, error) {
	if loc := namedZone(tzid); loc != nil {
		return zoneRef{loc: loc}, nil
	}
	v := z.vtz[tzid]
	if v == nil {
		if err := z.broken[tzid]; err != nil {
			return zoneRef{}, err
		}
		return zoneRef{}, fmt.Errorf("unknown time zone %q (no VTIMEZONE for it)", tzid)
	}
	if z.matched++; z.matched > maxRuleMatches {
		return zoneRef{}, fmt.Errorf("time zone %q: more than %d custom time zones in one file", tzid, maxRuleMatches)
	}
	if loc := v.match(min(max(year, 1900), 2100), tzid, z.hints); loc != nil {
		return zoneRef{loc: loc}, nil
	}
	return zoneRef{rules: v}, nil
}

// namedZone resolves a zone by its name alone, or returns nil.
func namedZone(name string) *time.Location {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	if loc, err := calendar.ParseZone(name); err == nil {
		return loc
	}
	if iana, ok := windowsZones[name]; ok {
		if loc, err := calendar.ParseZone(iana); err == nil {
			return loc
		}
	}
	for k, iana := range windowsZones { // Windows names are case-insensitive
		if strings.EqualFold(k, name) {
			if loc, err := calendar.ParseZone(iana); err == nil {
				return loc
			}
		}
	}
	// "/mozilla.org/20050126_1/Europe/Berlin", "/softwarestudio.org/Olson_20011030_5/America/New_York"
	for i := 0; i < len(name); i++ {
		if name[i] == '/' && strings.Contains(name[i+1:], "/") {
			if loc, err := calendar.ParseZone(name[i+1:]); err == nil && strings.Contains(loc.String(), "/") {
				return loc
			}
		}
	}
	return nil
}

// vtimezone is the rules of a VTIMEZONE component.
type vtimezone struct {
	tzid  string
	obs   []observance
	names []string
}

// observance is one STANDARD or DAYLIGHT sub-component.
type observance struct {
	start    time.Time // DTSTART, a wall clock (read as UTC)
	from, to int       // offsets in seconds
	yearly   bool      // RRULE:FREQ=YEARLY
	month    time.Month
	weekday  time.Weekday
	nth      int // BYDAY=2SU → 2, -1SU → -1; 0 with monthDay
	monthDay int
	until    time.Time // UTC; zero: none
	rdates   []time.Time
}

func parseVTimezone(c *component) (*vtimezone, error) {
	v := &vtimezone{}
	if p := c.first("TZID"); p != nil {
		v.tzid = p.value
	}
	if v.tzid == "" {
		return nil, fmt.Errorf("VTIMEZONE without TZID")
	}
	if len(c.children) > maxObservances {
		return nil, fmt.Errorf("VTIMEZONE %q has more than %d observances", v.tzid, maxObservances)
	}
	rdates := 0
	for _, sc := range c.children {
		if sc.name != "STANDARD" && sc.name != "DAYLIGHT" || sc.bad != "" {
			continue
		}
		var o observance
		var err error
		ds, from, to := sc.first("DTSTART"), sc.first("TZOFFSETFROM"), sc.first("TZOFFSETTO")
		if ds == nil || from == nil || to == nil {
			return nil, fmt.Errorf("VTIMEZONE %q: observance without DTSTART or offsets", v.tzid)
		}
		if o.start, err = parseWall(ds.raw); err != nil {
			return nil, err
		}
		if o.from, err = parseOffset(from.raw); err != nil {
			return nil, err
		}
		if o.to, err = parseOffset(to.raw); err != nil {
			return nil, err
		}
		if rr := sc.first("RRULE"); rr != nil {
			if err := o.parseRule(rr.raw); err != nil {
				return nil, fmt.Errorf("VTIMEZONE %q: %w", v.tzid, err)
			}
		}
		for _, rd := range sc.all("RDATE") {
			for _, s := range strings.Split(rd.raw, ",") {
				if rdates++; rdates > maxZoneRDates {
					return nil, fmt.Errorf("VTIMEZONE %q has more than %d RDATEs", v.tzid, maxZoneRDates)
				}
				if t, err := parseWall(s); err == nil {
					o.rdates = append(o.rdates, t)
				}
			}
		}
		if n := sc.first("TZNAME"); n != nil {
			v.names = append(v.names, n.value)
		}
		v.obs = append(v.obs, o)
	}
	if len(v.obs) == 0 {
		return nil, fmt.Errorf("VTIMEZONE %q has no observance", v.tzid)
	}
	return v, nil
}

// parseRule reads the yearly rules time zones use: BYMONTH with BYDAY
// (n-th or last weekday) or BYMONTHDAY, and UNTIL.
func (o *observance) parseRule(raw string) error {
	o.month = o.start.Month()
	for _, part := range strings.Split(strings.ToUpper(raw), ";") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "FREQ":
			if v != "YEARLY" {
				return fmt.Errorf("RRULE frequency %q in a VTIMEZONE", v)
			}
			o.yearly = true
		case "BYMONTH":
			m, err := strconv.Atoi(v)
			if err != nil || m < 1 || m > 12 {
				return fmt.Errorf("RRULE BYMONTH %q", v)
			}
			o.month = time.Month(m)
		case "BYDAY":
			if len(v) < 2 {
				return fmt.Errorf("RRULE BYDAY %q", v)
			}
			wd, ok := weekdays[v[len(v)-2:]]
			if !ok {
				return fmt.Errorf("RRULE BYDAY %q", v)
			}
			n := 1
			if num := v[:len(v)-2]; num != "" {
				var err error
				if n, err = strconv.Atoi(strings.TrimPrefix(num, "+")); err != nil || n == 0 || n < -5 || n > 5 {
					return fmt.Errorf("RRULE BYDAY %q", v)
				}
			}
			o.weekday, o.nth = wd, n
		case "BYMONTHDAY":
			d, err := strconv.Atoi(v)
			if err != nil || d < 1 || d > 31 {
				return fmt.Errorf("RRULE BYMONTHDAY %q", v)
			}
			o.monthDay = d
		case "UNTIL":
			t, err := parseWall(v)
			if err != nil {
				return fmt.Errorf("RRULE UNTIL %q", v)
			}
			o.until = t
		}
	}
	if !o.yearly {
		return fmt.Errorf("RRULE %q without FREQ=YEARLY", raw)
	}
	return nil
}

var weekdays = map[string]time.Weekday{"SU": time.Sunday, "MO": time.Monday, "TU": time.Tuesday,
	"WE": time.Wednesday, "TH": time.Thursday, "FR": time.Friday, "SA": time.Saturday}

// ruleOnset is the instant at which o's yearly rule starts it in year y.
func (o *observance) ruleOnset(y int) (time.Time, bool) {
	h, m, sec := o.start.Clock()
	var day int
	switch {
	case o.nth > 0:
		first := time.Date(y, o.month, 1, 0, 0, 0, 0, time.UTC)
		day = 1 + (int(o.weekday)-int(first.Weekday())+7)%7 + 7*(o.nth-1)
	case o.nth < 0:
		last := time.Date(y, o.month+1, 0, 0, 0, 0, 0, time.UTC)
		day = last.Day() - (int(last.Weekday())-int(o.weekday)+7)%7 + 7*(o.nth+1)
	case o.monthDay > 0:
		day = o.monthDay
	default:
		day = o.start.Day()
	}
	w := time.Date(y, o.month, day, h, m, sec, 0, time.UTC)
	if day < 1 || w.Month() != o.month || w.Before(o.start) {
		return time.Time{}, false // no fifth Sunday this year, or before the rule began
	}
	t := w.Add(-time.Duration(o.from) * time.Second)
	if !o.until.IsZero() && t.After(o.until) {
		return time.Time{}, false
	}
	return t, true
}

// offsetAt is the offset in force at instant t: that of the observance that
// began last before it, else the "from" of the earliest observance.
func (v *vtimezone) offsetAt(t time.Time) int {
	var best time.Time
	off, found := 0, false
	consider := func(on time.Time, to int) {
		if !on.After(t) && (!found || on.After(best)) {
			best, off, found = on, to, true
		}
	}
	earliest := &v.obs[0]
	for i := range v.obs {
		o := &v.obs[i]
		if o.start.Before(earliest.start) {
			earliest = o
		}
		from := time.Duration(o.from) * time.Second
		consider(o.start.Add(-from), o.to)
		for _, r := range o.rdates {
			consider(r.Add(-from), o.to)
		}
		if !o.yearly {
			continue
		}
		last := t.Year()
		if !o.until.IsZero() && o.until.Year() < last {
			last = o.until.Year()
		}
		// A rule has an onset every year but for fifth weekdays: a few
		// years back always find the latest.
		for y := last; y >= last-7 && y > o.start.Year(); y-- {
			if on, ok := o.ruleOnset(y); ok && !on.After(t) {
				consider(on, o.to)
				break
			}
		}
	}
	if found {
		return off
	}
	return earliest.from
}

// instant is the instant of wall clock w (read as UTC) in this zone: the
// first of two, in a repeated hour; moved forward by the gap, in a skipped one.
func (v *vtimezone) instant(w time.Time) time.Time {
	before := v.offsetAt(w.Add(-36 * time.Hour))
	after := v.offsetAt(w.Add(36 * time.Hour))
	for _, off := range [...]int{before, after} {
		t := w.Add(-time.Duration(off) * time.Second)
		if v.offsetAt(t) == off {
			return t
		}
	}
	return w.Add(-time.Duration(before) * time.Second) // in a gap: the offset before it
}

// match finds the IANA zone whose offsets equal the rules' over years
// y-1..y+1 (probed twice a day). Among several, it prefers a hint, then a
// zone whose city the TZID names, then one CLDR maps a Windows zone to, then
// the first by name.
func (v *vtimezone) match(y int, tzid string, hints []string) *time.Location {
	from := time.Date(y-1, 1, 1, 0, 0, 0, 0, time.UTC)
	to := time.Date(y+2, 1, 1, 0, 0, 0, 0, time.UTC)
	quick := []time.Time{time.Date(y, 1, 15, 12, 0, 0, 0, time.UTC), time.Date(y, 7, 15, 12, 0, 0, 0, time.UTC)}
	want := make([]int, len(quick))
	for i, t := range quick {
		want[i] = v.offsetAt(t)
	}
	var probes []time.Time
	var offs []int
	for t := from; t.Before(to); t = t.Add(12 * time.Hour) {
		probes = append(probes, t)
		offs = append(offs, v.offsetAt(t))
	}
	var found []*time.Location
	names := append(slices.Clone(hints), ruleCandidates...)
	seen := map[string]bool{}
next:
	for _, name := range names {
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		loc, err := calendar.ParseZone(name)
		if err != nil {
			continue
		}
		for i, t := range quick {
			if _, off := t.In(loc).Zone(); off != want[i] {
				continue next
			}
		}
		for i, t := range probes {
			if _, off := t.In(loc).Zone(); off != offs[i] {
				continue next
			}
		}
		found = append(found, loc)
	}
	if len(found) == 0 {
		return nil
	}
	primary := map[string]bool{}
	for _, z := range windowsZones {
		primary[z] = true
	}
	rank := func(loc *time.Location) int {
		name := loc.String()
		if slices.Contains(hints, name) {
			return 0
		}
		city := strings.ReplaceAll(name[strings.LastIndexByte(name, '/')+1:], "_", " ")
		if strings.Contains(strings.ToLower(tzid), strings.ToLower(city)) {
			return 1
		}
		if primary[name] {
			return 2
		}
		return 3
	}
	slices.SortStableFunc(found, func(a, b *time.Location) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a.String(), b.String())
	})
	return found[0]
}

// parseWall reads a DATE-TIME as a wall clock (a trailing Z is ignored: the
// callers know what it means) or a DATE.
func parseWall(s string) (time.Time, error) {
	s = strings.TrimSuffix(strings.TrimSpace(s), "Z")
	switch len(s) {
	case len(localLayout):
		return time.Parse(localLayout, s)
	case len(dateLayout):
		return time.Parse(dateLayout, s)
	}
	return time.Time{}, fmt.Errorf("%q is not a DATE or DATE-TIME", s)
}

// parseOffset reads a UTC-OFFSET: ±HHMM or ±HHMMSS.
func parseOffset(s string) (int, error) {
	s = strings.TrimSpace(s)
	if len(s) != 5 && len(s) != 7 || s[0] != '+' && s[0] != '-' {
		return 0, fmt.Errorf("UTC offset %q", s)
	}
	n := 0
	for i, w := range [...]int{3600, 60, 1} {
		if 1+2*i+2 > len(s) {
			break
		}
		d, err := strconv.Atoi(s[1+2*i : 3+2*i])
		if err != nil || d < 0 || i > 0 && d > 59 {
			return 0, fmt.Errorf("UTC offset %q", s)
		}
		n += d * w
	}
	if n > 18*3600 {
		return 0, fmt.Errorf("UTC offset %q", s)
	}
	if s[0] == '-' {
		n = -n
	}
	return n, nil
}
