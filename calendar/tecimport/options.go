package tecimport

import (
	"io"
	"net/http"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Option configures Connect and Run.
type Option func(*config)

type config struct {
	user, password string
	httpClient     *http.Client
	perPage        int
	attempts       int
	backoff        time.Duration
	maxBackoff     time.Duration
	progress       io.Writer
	progressEvery  time.Duration
	authors        func(source int64) int64
	lang           calendar.Lang
	keepIDs        keepIDs
	probeHidden    bool
	batch          int
	now            func() time.Time
}

type keepIDs uint8

const (
	keepIfEmpty keepIDs = iota
	keepAlways
	keepNever
)

func newConfig(opts []Option) *config {
	c := &config{httpClient: http.DefaultClient, perPage: 100, attempts: 8, backoff: 500 * time.Millisecond,
		maxBackoff: 30 * time.Second, progressEvery: time.Second, probeHidden: true, batch: 100, now: time.Now}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithCredentials reads as a WordPress user with an application password
// (HTTP Basic), which shows drafts, pending, private, scheduled and trashed
// records. Without it only published records are read.
func WithCredentials(user, applicationPassword string) Option {
	return func(c *config) { c.user, c.password = user, applicationPassword }
}

// WithHTTPClient sets the client of every request (default http.DefaultClient).
func WithHTTPClient(h *http.Client) Option { return func(c *config) { c.httpClient = h } }

// WithPerPage sets the page size asked first (default 100). A site that
// refuses it is asked again with 50, then with its default.
func WithPerPage(n int) Option { return func(c *config) { c.perPage = n } }

// WithRetry sets how often a request is tried (default 8) and the first and
// largest pause between tries (default 500ms and 30s; the pause doubles, with
// jitter, and a Retry-After header is honoured up to the largest pause).
func WithRetry(attempts int, first, largest time.Duration) Option {
	return func(c *config) { c.attempts, c.backoff, c.maxBackoff = max(attempts, 1), first, largest }
}

// WithProgress writes a progress line per kind at most every interval
// (default: no progress; the command passes os.Stderr and one second).
func WithProgress(w io.Writer, every time.Duration) Option {
	return func(c *config) { c.progress, c.progressEvery = w, every }
}

// WithAuthors maps the site's author ids to user ids of the calendar. The
// function returns 0 for "the importing user" (the calendar's default author
// when importing as calendar.System). The default maps every author to 0.
func WithAuthors(m func(source int64) int64) Option { return func(c *config) { c.authors = m } }

// WithSourceAuthors keeps the site's author ids as they are.
func WithSourceAuthors() Option { return WithAuthors(func(id int64) int64 { return id }) }

// WithLanguage sets the language the site's texts are stored in (default:
// the calendar's default language).
func WithLanguage(l calendar.Lang) Option { return func(c *config) { c.lang = l } }

// WithKeepIDs forces keeping the site's ids even though the calendar is not
// empty — to resume a first import that was interrupted. An id already held
// by another record is not taken: that record gets the calendar's next id
// (reported), which may in turn be the id of a site record not stored yet,
// so one foreign record can move several. Resume into a calendar that holds
// only this site's records to keep every id.
func WithKeepIDs() Option { return func(c *config) { c.keepIDs = keepAlways } }

// WithNewIDs gives every new record the calendar's next id, even in an
// empty calendar; links are mapped.
func WithNewIDs() Option { return func(c *config) { c.keepIDs = keepNever } }

// WithoutHiddenProbe skips reading, one by one, the post ids the lists did
// not show (events hidden from listings are never listed by the original).
func WithoutHiddenProbe() Option { return func(c *config) { c.probeHidden = false } }

// WithBatch sets how many records are stored per atomic write (default 100).
func WithBatch(n int) Option { return func(c *config) { c.batch = max(n, 1) } }

// WithClock sets the clock of progress rates and the summary (default time.Now).
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }
