package calendar

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ParseZone accepts an IANA zone name or a UTC offset "UTC+H", "UTC-H",
// "UTC+H:MM", "UTC-HH:MM" (also "UTC"), and returns the location; the location
// of an offset zone is named like the input normalised (e.g. "UTC+5:30").
// Anything else is an error.
//
// Offsets: "UTC" may be written in any case, the hour is 1 or 2 digits, the
// minutes exactly 2 digits (00-59), and the offset at most 14:00 either way
// (the widest in use, Kiribati's UTC+14). The normal form drops leading zeros
// and ":00" ("UTC+05:00" is "UTC+5", "UTC-03:30" is "UTC-3:30"); a zero offset
// ("UTC+0", "UTC-00:00") is time.UTC, named "UTC". IANA names are
// case-sensitive as in the tz database. "Local" and the empty string, which
// time.LoadLocation would map to the process's zone and UTC, are errors: the
// calendar never depends on the process's zone. Loaded IANA locations are
// cached; the set of valid names is finite, so the cache is bounded.
func ParseZone(name string) (*time.Location, error) {
	if name == "" {
		return nil, errors.New("time zone is empty")
	}
	if len(name) >= 3 && strings.EqualFold(name[:3], "UTC") && (len(name) == 3 || name[3] == '+' || name[3] == '-') {
		return zoneParseOffset(name)
	}
	if name == "Local" {
		return nil, errors.New(`time zone "Local" is not allowed (name an IANA zone)`)
	}
	if loc, ok := zoneCache.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %s (want an IANA name like Europe/Berlin or an offset like UTC+5:30)", dateQuote(name))
	}
	zoneCache.Store(name, loc)
	return loc, nil
}

// zoneCache maps IANA names to loaded locations, because time.LoadLocation
// reads and parses a tzdata file on every call.
var zoneCache sync.Map

// zoneMaxOffset is the widest offset accepted, in minutes.
const zoneMaxOffset = 14 * 60

func zoneParseOffset(name string) (*time.Location, error) {
	bad := func(why string) error {
		return fmt.Errorf("invalid time zone offset %s: %s (want UTC+H, UTC-H, UTC+H:MM or UTC-HH:MM)", dateQuote(name), why)
	}
	if len(name) == 3 {
		return time.UTC, nil
	}
	p := &dateScanner{s: name, i: 4}
	sign := 1
	if name[3] == '-' {
		sign = -1
	}
	hours, _, ok := p.digits(1, 2)
	if !ok {
		return nil, bad("the hour must be 1 or 2 digits")
	}
	minutes := 0
	if p.accept(':') {
		n, _, ok := p.digits(2, 2)
		if !ok {
			return nil, bad("the minutes must be 2 digits")
		}
		if n > 59 {
			return nil, bad("the minutes must be 00-59")
		}
		minutes = n
	}
	if !p.done() {
		return nil, bad("unexpected " + strconv.Quote(p.rest()))
	}
	total := hours*60 + minutes
	if total > zoneMaxOffset {
		return nil, bad("the offset must be at most 14:00")
	}
	if total == 0 {
		return time.UTC, nil
	}
	norm := "UTC+"
	if sign < 0 {
		norm = "UTC-"
	}
	norm += strconv.Itoa(hours)
	if minutes != 0 {
		norm += fmt.Sprintf(":%02d", minutes)
	}
	return time.FixedZone(norm, sign*total*60), nil
}
