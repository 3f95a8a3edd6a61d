package calendar

// The list query structs carry one field per list argument of the REST
// interface, with `schema` tags so the HTTP adapter decodes request arguments
// straight into them (github.com/gorilla/schema). A zero field means "not
// given". Dates are strings in the grammar of ParseDate.

// EventQuery holds the arguments of an event list.
type EventQuery struct {
	Page         int      `schema:"page"`
	PerPage      int      `schema:"per_page"`
	StartDate    string   `schema:"start_date"`
	EndDate      string   `schema:"end_date"`
	StartsBefore string   `schema:"starts_before"`
	StartsAfter  string   `schema:"starts_after"`
	EndsBefore   string   `schema:"ends_before"`
	EndsAfter    string   `schema:"ends_after"`
	StrictDates  bool     `schema:"strict_dates"`
	Search       string   `schema:"search"`
	Categories   []string `schema:"categories"` // ids or slugs
	Tags         []string `schema:"tags"`       // ids or slugs
	Venue        []int64  `schema:"venue"`
	Organizer    []int64  `schema:"organizer"`
	Featured     *bool    `schema:"featured"`
	Status       []string `schema:"status"`
	Geoloc       *bool    `schema:"geoloc"`
	GeolocLat    *float64 `schema:"geoloc_lat"`
	GeolocLng    *float64 `schema:"geoloc_lng"`
	GeolocRadius *float64 `schema:"geoloc_radius"` // km, default 25
	Include      []int64  `schema:"include"`
	PostParent   int64    `schema:"post_parent"`
	Ticketed     *bool    `schema:"ticketed"`
	Lang         Lang     `schema:"translation_language"`
	// Series: occurrences (default) or series records (see SeriesMode).
	Series SeriesMode `schema:"series"`
	// Invalid holds arguments the caller could not decode (name → message);
	// they are reported together with every other bad argument.
	Invalid map[string]string `schema:"-"`
}

// VenueQuery holds the arguments of a venue list.
type VenueQuery struct {
	Page             int      `schema:"page"`
	PerPage          int      `schema:"per_page"`
	Search           string   `schema:"search"`
	Event            int64    `schema:"event"`
	HasEvents        *bool    `schema:"has_events"`
	OnlyWithUpcoming bool     `schema:"only_with_upcoming"`
	Status           []string `schema:"status"`
	Lang             Lang     `schema:"translation_language"`
	// Invalid holds arguments the caller could not decode (name → message).
	Invalid map[string]string `schema:"-"`
}

// OrganizerQuery holds the arguments of an organizer list.
type OrganizerQuery struct {
	Page             int      `schema:"page"`
	PerPage          int      `schema:"per_page"`
	Search           string   `schema:"search"`
	Event            int64    `schema:"event"`
	HasEvents        *bool    `schema:"has_events"`
	OnlyWithUpcoming bool     `schema:"only_with_upcoming"`
	Status           []string `schema:"status"`
	Lang             Lang     `schema:"translation_language"`
	// Invalid holds arguments the caller could not decode (name → message).
	Invalid map[string]string `schema:"-"`
}

// TermQuery holds the arguments of a category or tag list.
type TermQuery struct {
	Page      int      `schema:"page"`
	PerPage   int      `schema:"per_page"`
	Search    string   `schema:"search"`
	Exclude   []string `schema:"exclude"` // ids or slugs
	Include   []string `schema:"include"` // ids or slugs
	Order     string   `schema:"order"`   // asc (default) or desc
	OrderBy   string   `schema:"orderby"` // name (default), id, slug, count, parent, description, include, none
	HideEmpty *bool    `schema:"hide_empty"`
	Parent    *int64   `schema:"parent"` // categories only; 0 = top level
	Post      int64    `schema:"post"`
	Event     int64    `schema:"event"` // alias of Post; wins
	Slug      string   `schema:"slug"`
	Lang      Lang     `schema:"translation_language"`
	// Invalid holds arguments the caller could not decode (name → message).
	Invalid map[string]string `schema:"-"`
}
