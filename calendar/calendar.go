package calendar

import (
	"context"
	"errors"
)

// Ref names a post by id or, when ID is 0, by slug.
type Ref struct {
	ID   int64
	Slug string
}

// ByID returns a Ref to the post with this id.
func ByID(id int64) Ref { return Ref{ID: id} }

// BySlug returns a Ref to the post with this slug.
func BySlug(slug string) Ref { return Ref{Slug: slug} }

// ReadOptions tune a single read.
type ReadOptions struct {
	Lang     Lang   // language of the texts; "" = the default language
	Password string // unlocks a password-protected event
}

// WriteOptions tune a create or update.
type WriteOptions struct {
	Lang     Lang   // language the translatable fields are written in
	Password string // unlocks a password-protected event for update
	// IfVersion, when non-zero, is the version the caller expects the record
	// to have (HTTP If-Match); on a mismatch nothing changes and the error
	// code is CodePreconditionFailed.
	IfVersion int64
	// ValidateOnly checks the caller's rights and every argument as the
	// write would, and stops there: nothing is written, and a write that
	// would be accepted returns a nil record and a nil error. A form can
	// check its input this way; the HTTP adapter uses it to report the
	// arguments it could not decode together with the calendar's own
	// findings, and only after the permission checks.
	ValidateOnly bool
}

// errValidated stops a ValidateOnly write inside the shared write paths,
// which return it up to the public method (see dropValidated).
var errValidated = errors.New("calendar: validated, not written")

// dropValidated turns the stop of a ValidateOnly write into success.
func dropValidated(err error) error {
	if errors.Is(err, errValidated) {
		return nil
	}
	return err
}

// DeleteOptions tune a delete.
type DeleteOptions struct {
	Lang      Lang
	Password  string
	IfVersion int64
	// Force removes a post for good instead of moving it to the trash.
	Force bool
}

// Calendar is every operation of the calendar. The caller is the Principal
// on ctx (none: Anonymous; trusted code passes System). *Service implements it.
type Calendar interface {
	ListEvents(ctx context.Context, q EventQuery) (*EventPage, error)
	GetEvent(ctx context.Context, ref Ref, opt ReadOptions) (*Event, error)
	CreateEvent(ctx context.Context, in EventInput, opt WriteOptions) (*Event, error)
	UpdateEvent(ctx context.Context, ref Ref, in EventInput, opt WriteOptions) (*Event, error)
	DeleteEvent(ctx context.Context, ref Ref, opt DeleteOptions) (*Event, error)

	ListVenues(ctx context.Context, q VenueQuery) (*VenuePage, error)
	GetVenue(ctx context.Context, ref Ref, opt ReadOptions) (*Venue, error)
	CreateVenue(ctx context.Context, in VenueInput, opt WriteOptions) (*Venue, error)
	UpdateVenue(ctx context.Context, ref Ref, in VenueInput, opt WriteOptions) (*Venue, error)
	DeleteVenue(ctx context.Context, ref Ref, opt DeleteOptions) (*Venue, error)

	ListOrganizers(ctx context.Context, q OrganizerQuery) (*OrganizerPage, error)
	GetOrganizer(ctx context.Context, ref Ref, opt ReadOptions) (*Organizer, error)
	CreateOrganizer(ctx context.Context, in OrganizerInput, opt WriteOptions) (*Organizer, error)
	UpdateOrganizer(ctx context.Context, ref Ref, in OrganizerInput, opt WriteOptions) (*Organizer, error)
	DeleteOrganizer(ctx context.Context, ref Ref, opt DeleteOptions) (*Organizer, error)

	// Categories and tags: tax is TaxonomyCategory or TaxonomyTag.
	ListTerms(ctx context.Context, tax Taxonomy, q TermQuery) (*TermPage, error)
	GetTerm(ctx context.Context, tax Taxonomy, id int64, opt ReadOptions) (*Term, error)
	GetTermBySlug(ctx context.Context, tax Taxonomy, slug string, opt ReadOptions) (*Term, error)
	CreateTerm(ctx context.Context, tax Taxonomy, in TermInput, opt WriteOptions) (*Term, error)
	UpdateTerm(ctx context.Context, tax Taxonomy, id int64, in TermInput, opt WriteOptions) (*Term, error)
	DeleteTerm(ctx context.Context, tax Taxonomy, id int64, opt DeleteOptions) (*Term, error)

	// ExtendSeries materialises the occurrences of open-ended recurring
	// events that entered the horizon since they were last extended, and
	// returns how many it created. It is idempotent and safe when several
	// processes call it at once; applications run it regularly (the example
	// server: at start and hourly). Only System may call it.
	ExtendSeries(ctx context.Context) (created int, err error)
}
