// Package calendar is the domain core of eventcal: the five kinds of record
// (events, venues, organizers, event categories and event tags), the rules that
// govern them (statuses, permissions, visibility, dates and time zones, slugs,
// languages, deletes, validation) and the Calendar service that enforces those
// rules on top of any Repository.
//
// The package imports only the standard library. Storage drivers
// (memstore, boltstore, redisstore) implement Repository; the httpadapter
// package translates HTTP requests into Calendar calls. Business rules live
// here and nowhere else, so an in-process caller and an HTTP client get exactly
// the same behaviour.
//
// # Two audiences
//
// Applications use New (with Option values such as WithSiteZone), the
// Calendar interface it implements, the inputs (EventInput, VenueInput,
// OrganizerInput, TermInput, Opt, Some, At, and Status for their status),
// WriteOptions (ValidateOnly checks a write without making it), the
// queries (EventQuery, …),
// the views (Event, Venue, Organizer, Term and their pages), Ref (ByID,
// BySlug), principals (WithPrincipal, System, Anonymous) and errors (Error,
// Code and the Err* sentinels, matched with errors.Is).
//
// Storage drivers use the rest: Repository and what it speaks — PostRecord,
// TermRecord, Text, PostQuery, Visibility, TimeRange, Write, Step and the
// Op* constants, WriteResult, StepError, NameKey, SlugCandidate. They stay
// in this package, beside the Calendar that consumes them, so that a driver
// and the domain can never disagree on a type; applications never need them
// unless they write a driver (see storage/storagetest for the contract's
// proof).
//
// The caller of every operation is the Principal carried by the context (see
// WithPrincipal). A context without a principal is anonymous, so a handler
// that forgets to attach its user gets no rights; trusted code (tools, jobs,
// tests) says so explicitly with the System principal.
//
// Every write is one atomic Repository.Apply: an event and the venues,
// organizers and terms it creates by name are stored together or not at
// all, names are reused or reserved by the store (never a process-local
// lock), an update without a pinned version retries through concurrent
// changes until its context ends, and array arguments are bounded
// (WithMaxItems), so one request's work stays proportional to what it names.
package calendar
