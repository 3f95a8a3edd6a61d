package calendar

import "time"

// Event is the read view of an event in one language, with the venues,
// organizers and terms the caller may see embedded.
type Event struct {
	ID       int64
	Status   Status // effective status
	Author   int64
	Date     time.Time // publication instant
	Modified time.Time
	Version  int64
	Slug     string
	// Lang is the language the texts below are in: the one asked for,
	// or the event's own language when it has no text in the one asked for.
	Lang Lang
	// UID is the iCalendar UID the event was imported with; "" for events
	// made here (see EventUIDs).
	UID string

	Title       string
	Description string
	Excerpt     string
	Image       *Image // nil: no image

	Start    time.Time // in the event's zone (Location)
	End      time.Time
	TimeZone string // IANA name or UTC±H[:MM] as stored; the site zone when none
	AllDay   bool

	Cost       []string
	Website    string // empty when never set
	PostParent int64
	// Recurrence holds the rule lines of a series; nil on other events.
	Recurrence []string
	// Series is set on an occurrence of a series.
	Series *SeriesLink

	// Nil in the five flags below means "blanked" (password protection).
	ShowMap          *bool
	ShowMapLink      *bool
	HideFromListings *bool
	Sticky           *bool
	Featured         *bool

	Categories []Term
	Tags       []Term
	Venues     []Venue
	Organizers []Organizer

	// Protected is true when the content was blanked because the event is
	// password protected and the caller gave no valid password.
	Protected bool
	// HasPassword reports whether the event is password protected; only
	// callers who may edit the event see it set.
	HasPassword bool

	// ViewKey is set on a view read under a ViewCache (WithViewCache): it
	// identifies everything the view is made of, so two views of one
	// Calendar with equal keys are equal.
	ViewKey []byte
	// Cached is what the ViewCache held for this view's key. When it is
	// not nil the view was not built: only ID, Version and Cached are set.
	Cached any
}

// Venue is the read view of a venue in one language.
type Venue struct {
	ID       int64
	Status   Status
	Author   int64
	Date     time.Time
	Modified time.Time
	Version  int64
	Slug     string
	Lang     Lang

	Name        string
	Description string
	Excerpt     string
	Image       *Image

	Address       string
	City          string
	Country       string
	Province      string
	State         string
	Zip           string
	Phone         string
	Website       string
	StateProvince string // as stored; see DisplayStateProvince
	GeoLat        *float64
	GeoLng        *float64
	ShowMap       *bool // nil: blanked
	ShowMapLink   *bool
}

// DisplayStateProvince is the stateprovince shown on reads: the stored value,
// else the state for the United States (or no country), else the province.
func (v *Venue) DisplayStateProvince() string {
	if v.StateProvince != "" {
		return v.StateProvince
	}
	switch v.Country {
	case "", "US", "USA", "United States", "United States of America":
		return v.State
	}
	return v.Province
}

// Organizer is the read view of an organizer in one language.
type Organizer struct {
	ID       int64
	Status   Status
	Author   int64
	Date     time.Time
	Modified time.Time
	Version  int64
	Slug     string
	Lang     Lang

	Name        string
	Description string
	Excerpt     string
	Image       *Image
	Phone       string
	Website     string
	Email       string
}

// Term is the read view of a category or tag in one language.
type Term struct {
	ID          int64
	Taxonomy    Taxonomy
	Version     int64
	Slug        string
	Lang        Lang
	Name        string
	Description string
	Parent      int64
	Count       int // published events using it
}

// Image is a resolved featured image.
type Image struct {
	URL       string
	ID        int64 // 0 for a plain URL
	Extension string
	Width     int
	Height    int
	Sizes     map[string]ImageSize
}

// ImageSize is one rendition of an image.
type ImageSize struct {
	URL      string
	Width    int
	Height   int
	MimeType string
}

// EventPage is one page of an event list.
type EventPage struct {
	Events     []Event
	Total      int
	TotalPages int
	Page       int // the page returned
	PerPage    int // the page size used (after clamping)
}

// VenuePage is one page of a venue list.
type VenuePage struct {
	Venues     []Venue
	Total      int
	TotalPages int
	Page       int
	PerPage    int
}

// OrganizerPage is one page of an organizer list.
type OrganizerPage struct {
	Organizers []Organizer
	Total      int
	TotalPages int
	Page       int
	PerPage    int
}

// TermPage is one page of a category or tag list.
type TermPage struct {
	Terms      []Term
	Total      int
	TotalPages int
	Page       int
	PerPage    int
}
