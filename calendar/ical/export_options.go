package ical

import (
	"net/url"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// DefaultRefreshInterval is how often subscribers are asked to poll a feed
// (REFRESH-INTERVAL and X-PUBLISHED-TTL) unless WithRefreshInterval says otherwise.
const DefaultRefreshInterval = time.Hour

// DefaultPastDays is how many days back a feed without date arguments
// reaches, unless WithPastDays says otherwise.
const DefaultPastDays = 30

// DefaultProductID is the PRODID of feeds unless WithProductID says otherwise.
const DefaultProductID = "-//eventcal//eventcal//EN"

// ExportOption configures an Exporter, or one feed when given to
// Exporter.Feed or Exporter.EventFeed (where it overrides the Exporter's).
type ExportOption func(*exportConfig)

type exportConfig struct {
	name        string
	refresh     time.Duration
	pastDays    int
	prodID      string
	siteURL     string
	uidHost     string
	siteZone    *time.Location
	defaultLang calendar.Lang
	now         func() time.Time
}

// WithCalendarName sets X-WR-CALNAME, the name calendar applications show
// for a subscription (default: none).
func WithCalendarName(name string) ExportOption { return func(c *exportConfig) { c.name = name } }

// WithRefreshInterval sets how often subscribers should poll
// (REFRESH-INTERVAL and X-PUBLISHED-TTL; default one hour, whole seconds).
// Zero or less leaves both out.
func WithRefreshInterval(d time.Duration) ExportOption {
	return func(c *exportConfig) { c.refresh = d }
}

// WithPastDays sets how far back a feed reaches when the query has no date
// argument: events that ended at most n days ago (by day, in the site zone)
// and everything after them (default 30). A negative n removes the lower
// bound. Any date argument replaces this window, as in event lists.
func WithPastDays(n int) ExportOption { return func(c *exportConfig) { c.pastDays = n } }

// WithProductID sets PRODID (default DefaultProductID).
func WithProductID(id string) ExportOption { return func(c *exportConfig) { c.prodID = id } }

// WithSite sets the public site URL ("https://example.org"), from which event
// pages (URL when an event has no website) and UIDs are made: an event's UID
// is its global id "<host>?id=<id>", as the REST interface gives it. host
// overrides the URL's host for UIDs; keep both stable, since subscribers
// recognise events by UID. Default: "http://localhost".
func WithSite(siteURL, host string) ExportOption {
	return func(c *exportConfig) {
		c.siteURL = strings.TrimRight(siteURL, "/")
		c.uidHost = host
		if host == "" {
			if u, err := url.Parse(siteURL); err == nil {
				c.uidHost = u.Host
			}
		}
	}
}

// WithSiteZone sets X-WR-TIMEZONE (default: the calendar's site zone when it
// has a SiteZone method, as *calendar.Service does, else UTC).
func WithSiteZone(loc *time.Location) ExportOption { return func(c *exportConfig) { c.siteZone = loc } }

// WithDefaultLanguage sets the language texts are in without a LANGUAGE
// parameter (default: the calendar's when it has a DefaultLanguage method,
// as *calendar.Service does, else "en").
func WithDefaultLanguage(l calendar.Lang) ExportOption {
	return func(c *exportConfig) { c.defaultLang = l }
}

// WithClock sets the source of "now" for Last-Modified (default time.Now).
func WithClock(now func() time.Time) ExportOption { return func(c *exportConfig) { c.now = now } }

// defaults fills what the options left unset, asking cal where it can.
func (c *exportConfig) defaults(cal calendar.Calendar) {
	if c.siteZone == nil {
		if z, ok := cal.(interface{ SiteZone() *time.Location }); ok {
			c.siteZone = z.SiteZone()
		}
		if c.siteZone == nil {
			c.siteZone = time.UTC
		}
	}
	if c.defaultLang == "" {
		if d, ok := cal.(interface{ DefaultLanguage() calendar.Lang }); ok {
			c.defaultLang = d.DefaultLanguage()
		}
		if c.defaultLang == "" {
			c.defaultLang = "en"
		}
	}
	if c.siteURL == "" {
		c.siteURL = "http://localhost"
	}
	if c.uidHost == "" {
		c.uidHost = "localhost"
	}
	if c.prodID == "" {
		c.prodID = DefaultProductID
	}
	if c.now == nil {
		c.now = time.Now
	}
}
