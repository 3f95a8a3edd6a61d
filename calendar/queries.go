package calendar

// The list query structs carry one field per list argument of the REST
// interface (the comments give the argument where the name differs). A zero
// field means "not given". Dates are strings in the grammar of ParseDate.

// EventQuery holds the arguments of an event list.
type EventQuery struct {
	Page         int
	PerPage      int
	StartDate    string
	EndDate      string
	StartsBefore string
	StartsAfter  string
	EndsBefore   string
	EndsAfter    string
	StrictDates  bool
	Search       string
	Categories   []string // ids or slugs
	Tags         []string // ids or slugs
	Venue        []int64
	Organizer    []int64
	Featured     *bool
	Status       []string
	Geoloc       *bool
	GeolocLat    *float64
	GeolocLng    *float64
	GeolocRadius *float64 // km, default 25
	Include      []int64
	PostParent   int64
	Ticketed     *bool
	Lang         Lang // translation_language
	// Series: occurrences (default) or series records (see SeriesMode).
	Series SeriesMode
}

// VenueQuery holds the arguments of a venue list.
type VenueQuery struct {
	Page             int
	PerPage          int
	Search           string
	Event            int64
	HasEvents        *bool
	OnlyWithUpcoming bool
	Status           []string
	Lang             Lang // translation_language
}

// OrganizerQuery holds the arguments of an organizer list.
type OrganizerQuery struct {
	Page             int
	PerPage          int
	Search           string
	Event            int64
	HasEvents        *bool
	OnlyWithUpcoming bool
	Status           []string
	Lang             Lang // translation_language
}

// TermQuery holds the arguments of a category or tag list.
type TermQuery struct {
	Page      int
	PerPage   int
	Search    string
	Exclude   []string // ids or slugs
	Include   []string // ids or slugs
	Order     string   // asc (default) or desc
	OrderBy   string   // name (default), id, slug, count, parent, description, include, none
	HideEmpty *bool
	Parent    *int64 // categories only; 0 = top level
	Post      int64
	Event     int64 // alias of Post; wins
	Slug      string
	Lang      Lang // translation_language
}
