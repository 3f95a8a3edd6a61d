package calendar

import (
	"context"
	"log/slog"
	"time"
)

// ImageResolver tells the calendar about the images an embedding application
// knows by id. The calendar never fetches a URL.
type ImageResolver interface {
	// ResolveImage returns the image with that id; ok is false when there is none.
	ResolveImage(ctx context.Context, id int64) (img *Image, ok bool, err error)
}

// Option configures a Service.
type Option func(*settings)

type settings struct {
	siteZone    *time.Location
	defaultLang Lang
	maxPerPage  int
	users       UserDirectory
	images      ImageResolver
	now         func() time.Time
	logger      *slog.Logger
	countTTL    time.Duration
	// defaultAuthor is the author of posts System creates without naming one.
	defaultAuthor int64
	// maxItems bounds the items of one array argument.
	maxItems int
	// horizonMonths and maxOccurrences bound the occurrences of a series.
	horizonMonths  int
	maxOccurrences int
}

// DefaultSeriesHorizonMonths is how far ahead of now the occurrences of an
// open-ended series are materialised unless WithSeriesHorizon says otherwise.
const DefaultSeriesHorizonMonths = 24

// DefaultMaxOccurrences is the most occurrences one series may have unless
// WithMaxOccurrences says otherwise.
const DefaultMaxOccurrences = 1000

// WithSeriesHorizon sets how many months after now the occurrences of a
// recurring event are materialised (default DefaultSeriesHorizonMonths). A
// rule with COUNT or UNTIL inside the horizon is materialised whole; later
// occurrences of an open-ended rule come with ExtendSeries.
func WithSeriesHorizon(months int) Option { return func(s *settings) { s.horizonMonths = months } }

// WithMaxOccurrences sets the most occurrences a series may have within the
// horizon, and the largest COUNT (default DefaultMaxOccurrences); a rule that
// makes more is refused with a 400 naming recurrence.
func WithMaxOccurrences(n int) Option { return func(s *settings) { s.maxOccurrences = n } }

// DefaultMaxPerPage is the largest page size unless WithMaxPerPage says otherwise.
const DefaultMaxPerPage = 50

// DefaultPerPage is the page size of a list that names none.
const DefaultPerPage = 9

// WithSiteZone sets the site time zone (default UTC): the zone of list date
// filters, of venue/organizer dates and of events without their own zone.
func WithSiteZone(loc *time.Location) Option { return func(s *settings) { s.siteZone = loc } }

// WithDefaultLanguage sets the language of operations that name none (default "en").
func WithDefaultLanguage(l Lang) Option { return func(s *settings) { s.defaultLang = l } }

// WithMaxPerPage sets the largest page size (default 50); larger requests are clamped.
func WithMaxPerPage(n int) Option { return func(s *settings) { s.maxPerPage = n } }

// WithUsers sets the user directory that authors on write must be found in.
// Without one, any positive author id is accepted.
func WithUsers(d UserDirectory) Option { return func(s *settings) { s.users = d } }

// WithImages sets the resolver of image ids. Without one, only image URLs are accepted.
func WithImages(r ImageResolver) Option { return func(s *settings) { s.images = r } }

// WithClock sets the source of "now" (default time.Now), so tests control it.
func WithClock(now func() time.Time) Option { return func(s *settings) { s.now = now } }

// WithTermCountTTL sets how long the number of published events per term
// (the "count" of categories and tags) may be served from the cache (default
// DefaultTermCountTTL). Writes made through this Service update the cache at
// once; the TTL bounds how stale a count may be after writes by other
// processes sharing the store. Zero or less turns the cache off.
func WithTermCountTTL(d time.Duration) Option { return func(s *settings) { s.countTTL = d } }

// DefaultAuthor is the author of posts created by the System principal
// without an author, unless WithDefaultAuthor says otherwise.
const DefaultAuthor = 1

// WithDefaultAuthor sets the user id that posts created as System get when
// the write names no author (default DefaultAuthor), so author 0 never appears.
func WithDefaultAuthor(id int64) Option { return func(s *settings) { s.defaultAuthor = id } }

// DefaultMaxItems is the most items an array argument may hold unless
// WithMaxItems says otherwise.
const DefaultMaxItems = 100

// WithMaxItems sets the most items one array argument may hold (default
// DefaultMaxItems): categories, tags, venue, organizer and cost of event
// writes, and the list filters (ids, slugs, statuses; comma-separated values
// count one each). More is refused with a 400 naming the argument, before any
// storage work, so one request cannot make the calendar create or look up
// thousands of records.
func WithMaxItems(n int) Option { return func(s *settings) { s.maxItems = n } }

// WithLogger sets the logger for unexpected storage errors (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(s *settings) { s.logger = l } }
