package calendar

// Opt is an optional write field of an update: Set false means "not sent,
// leave it alone"; Set true with a zero Value means "sent, clear it".
type Opt[T any] struct {
	Set   bool
	Value T
}

// Some returns a set Opt holding v.
func Some[T any](v T) Opt[T] { return Opt[T]{Set: true, Value: v} }

// EventInput holds the write fields of an event. On create, Title, StartDate
// and EndDate are required; on update every field is optional and only the
// set ones change. Dates are strings in the grammar of ParseDate.
type EventInput struct {
	Title            Opt[string]
	Description      Opt[string]
	Excerpt          Opt[string]
	Slug             Opt[string]
	Status           Opt[Status]
	Author           Opt[int64]
	Date             Opt[string] // publication date, wall clock in the event zone
	DateUTC          Opt[string] // publication date in UTC; wins over Date
	StartDate        Opt[string]
	EndDate          Opt[string]
	TimeZone         Opt[string]
	AllDay           Opt[bool]
	Image            Opt[string] // absolute http(s) URL or an image id
	Cost             Opt[[]string]
	Website          Opt[string]
	ShowMap          Opt[bool]
	ShowMapLink      Opt[bool]
	HideFromListings Opt[bool]
	Sticky           Opt[bool]
	Featured         Opt[bool]
	Categories       Opt[[]TermRef]
	Tags             Opt[[]TermRef]
	// Venues and Organizers link the event (wire argument names venue and
	// organizer); set and empty removes every link.
	Venues     Opt[[]VenueRef]
	Organizers Opt[[]OrganizerRef]
	PostParent Opt[int64]
	// Recurrence holds RFC 5545 RRULE/RDATE/EXDATE lines; set and empty
	// turns a series back into a single event.
	Recurrence Opt[[]string]
	// Scope applies to an update addressed to an occurrence (default ScopeThis).
	Scope Scope
	// Password sets (or, empty, removes) the event's password. It is not the
	// password that unlocks a protected event: that is WriteOptions.Password.
	Password Opt[string]
}

// TermRef names a category or tag on an event write: by id, or by slug or
// name (Name). A name that matches no term creates one when the caller may.
type TermRef struct {
	ID   int64
	Name string
}

// VenueRef names a venue on an event write: an existing one by ID, or the
// fields of a venue to create (or to reuse, when a venue of that name exists).
type VenueRef struct {
	ID  int64
	New *VenueInput
}

// OrganizerRef names an organizer on an event write, like VenueRef.
type OrganizerRef struct {
	ID  int64
	New *OrganizerInput
}

// VenueInput holds the write fields of a venue; Name is required on create.
type VenueInput struct {
	Name          Opt[string]
	Description   Opt[string]
	Excerpt       Opt[string]
	Slug          Opt[string]
	Status        Opt[Status]
	Author        Opt[int64]
	Date          Opt[string]
	DateUTC       Opt[string]
	Image         Opt[string]
	Address       Opt[string]
	City          Opt[string]
	Country       Opt[string]
	Province      Opt[string]
	State         Opt[string]
	Zip           Opt[string]
	Phone         Opt[string]
	StateProvince Opt[string]
	Website       Opt[string]
	ShowMap       Opt[bool]
	ShowMapLink   Opt[bool]
	// GeoLat and GeoLng are set together; a set Opt with a nil Value clears.
	GeoLat Opt[*float64]
	GeoLng Opt[*float64]
}

// OrganizerInput holds the write fields of an organizer; Name is required on create.
type OrganizerInput struct {
	Name        Opt[string]
	Description Opt[string]
	Excerpt     Opt[string]
	Slug        Opt[string]
	Status      Opt[Status]
	Author      Opt[int64]
	Date        Opt[string]
	DateUTC     Opt[string]
	Image       Opt[string]
	Phone       Opt[string]
	Website     Opt[string]
	Email       Opt[string]
}

// TermInput holds the write fields of a category or tag; Name is required on
// create. Parent is for categories only (0 = top level).
type TermInput struct {
	Name        Opt[string]
	Description Opt[string]
	Slug        Opt[string]
	Parent      Opt[int64]
}
