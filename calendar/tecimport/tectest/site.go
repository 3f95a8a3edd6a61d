package tectest

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Post holds what events, venues and organizers share on the original site.
type Post struct {
	ID       int64
	Author   int64
	Status   string // publish, future, draft, pending, private or trash
	Date     time.Time
	Modified time.Time
	Slug     string // as WordPress stores it: non-ASCII percent-encoded, lower case
	// Title is the plain title (the event title, venue or organizer name);
	// the site serves it HTML-entity encoded, as WordPress formatting does.
	Title string
	// Description and Excerpt are stored as written; the site serves the
	// description wrapped in a paragraph, as WordPress formatting does.
	Description string
	Excerpt     string
	Image       *Image // nil: no featured image
}

// Image is a featured image of the media library.
type Image struct {
	ID            int64
	URL           string
	Width, Height int
}

// Event is an event of the original site.
type Event struct {
	Post
	Start, End time.Time // instants
	TimeZone   string    // IANA name or UTC±H
	AllDay     bool
	// CostText is a cost without a number ("Donation"); CostValues are
	// numeric strings shown with the currency symbol.
	CostText         string
	CostValues       []string
	CurrencySymbol   string
	CurrencyCode     string
	CurrencyPosition string // "prefix" or "postfix"
	Website          string // empty: the site shows the event page instead
	ShowMap          bool
	ShowMapLink      bool
	HideFromListings bool
	Sticky           bool
	Featured         bool
	Categories, Tags []int64
	Venues           []int64
	Organizers       []int64
}

// Venue is a venue of the original site.
type Venue struct {
	Post
	Address, City, Country, Province, State, Zip, Phone, Website string
	StateProvince                                                string // empty: derived from State or Province
	GeoLat, GeoLng                                               *float64
	ShowMap, ShowMapLink                                         bool
}

// Organizer is an organizer of the original site.
type Organizer struct {
	Post
	Phone, Website, Email string
}

// Term is a category (Taxonomy "tribe_events_cat") or tag ("post_tag").
type Term struct {
	ID          int64
	Taxonomy    string
	Name        string // plain; served HTML-entity encoded
	Slug        string
	Description string
	Parent      int64
}

// Patch changes the JSON of one record as served, wherever it appears
// (lists, single reads, embedded in events): the way to serve a broken record.
type Patch func(o *Object)

// Site is an in-memory site of the original plugin. Serve it with
// httptest.NewServer(site); it is safe for concurrent use.
type Site struct {
	// Zone is the site time zone (default UTC): the zone of publication
	// dates and of the default event window.
	Zone *time.Location
	// Now is the clock (default time.Now).
	Now func() time.Time
	// MaxPerPage is the largest page size (default 50); larger requests
	// are clamped, or refused with 400 when RejectLargePerPage is set (as
	// WordPress core does above 100).
	MaxPerPage         int
	RejectLargePerPage bool
	// PlainPermalinks serves the API only as /?rest_route=/… (a site
	// without pretty permalinks); /wp-json/ is then 404.
	PlainPermalinks bool
	// Users maps user names to application passwords; every user is an
	// administrator.
	Users map[string]string

	mu         sync.Mutex
	events     map[int64]*Event
	venues     map[int64]*Venue
	organizers map[int64]*Organizer
	terms      map[int64]*Term
	postPatch  map[int64]Patch
	termPatch  map[int64]Patch
	nextPost   int64
	nextTerm   int64

	faults   faults
	requests atomic.Int64
}

// New returns an empty site in zone (nil: UTC).
func New(zone *time.Location) *Site {
	if zone == nil {
		zone = time.UTC
	}
	return &Site{Zone: zone, MaxPerPage: 50, Users: map[string]string{},
		events: map[int64]*Event{}, venues: map[int64]*Venue{}, organizers: map[int64]*Organizer{},
		terms: map[int64]*Term{}, postPatch: map[int64]Patch{}, termPatch: map[int64]Patch{}}
}

func (s *Site) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// nextPostID returns id when positive (and moves the sequence past it), else the next id.
func (s *Site) nextPostID(id int64) int64 {
	if id <= 0 {
		s.nextPost++
		return s.nextPost
	}
	s.nextPost = max(s.nextPost, id)
	return id
}

// AddEvent stores e (ID 0: the next post id) and returns its id.
func (s *Site) AddEvent(e Event) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.ID = s.nextPostID(e.ID)
	s.events[e.ID] = cloneEvent(&e)
	return e.ID
}

// AddVenue stores v and returns its id.
func (s *Site) AddVenue(v Venue) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	v.ID = s.nextPostID(v.ID)
	c := v
	s.venues[v.ID] = &c
	return v.ID
}

// AddOrganizer stores o and returns its id.
func (s *Site) AddOrganizer(o Organizer) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	o.ID = s.nextPostID(o.ID)
	c := o
	s.organizers[o.ID] = &c
	return o.ID
}

// AddTerm stores t and returns its id; categories and tags share the term ids.
func (s *Site) AddTerm(t Term) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.ID <= 0 {
		s.nextTerm++
		t.ID = s.nextTerm
	}
	s.nextTerm = max(s.nextTerm, t.ID)
	c := t
	s.terms[t.ID] = &c
	return t.ID
}

// UpdateEvent changes event id in place; it reports whether it exists.
func (s *Site) UpdateEvent(id int64, change func(*Event)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.events[id]
	if ok {
		change(e)
	}
	return ok
}

// UpdateVenue changes venue id in place.
func (s *Site) UpdateVenue(id int64, change func(*Venue)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.venues[id]
	if ok {
		change(v)
	}
	return ok
}

// UpdateOrganizer changes organizer id in place.
func (s *Site) UpdateOrganizer(id int64, change func(*Organizer)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.organizers[id]
	if ok {
		change(o)
	}
	return ok
}

// UpdateTerm changes term id in place.
func (s *Site) UpdateTerm(id int64, change func(*Term)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.terms[id]
	if ok {
		change(t)
	}
	return ok
}

// BreakPost serves post id (event, venue or organizer) with its JSON
// changed by p; BreakTerm does the same for a term.
func (s *Site) BreakPost(id int64, p Patch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.postPatch[id] = p
}

// BreakTerm serves term id with its JSON changed by p.
func (s *Site) BreakTerm(id int64, p Patch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.termPatch[id] = p
}

// Broken reports whether post id is served broken.
func (s *Site) Broken(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.postPatch[id]
	return ok
}

// BrokenTerm reports whether term id is served broken.
func (s *Site) BrokenTerm(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.termPatch[id]
	return ok
}

// Events returns a copy of every event in id order.
func (s *Site) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Event, 0, len(s.events))
	for _, id := range slices.Sorted(maps.Keys(s.events)) {
		out = append(out, *cloneEvent(s.events[id]))
	}
	return out
}

// Venues returns a copy of every venue in id order.
func (s *Site) Venues() []Venue {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Venue, 0, len(s.venues))
	for _, id := range slices.Sorted(maps.Keys(s.venues)) {
		out = append(out, *s.venues[id])
	}
	return out
}

// Organizers returns a copy of every organizer in id order.
func (s *Site) Organizers() []Organizer {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Organizer, 0, len(s.organizers))
	for _, id := range slices.Sorted(maps.Keys(s.organizers)) {
		out = append(out, *s.organizers[id])
	}
	return out
}

// Terms returns a copy of every term of the taxonomy in id order.
func (s *Site) Terms(taxonomy string) []Term {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Term
	for _, id := range slices.Sorted(maps.Keys(s.terms)) {
		if t := s.terms[id]; t.Taxonomy == taxonomy {
			out = append(out, *t)
		}
	}
	return out
}

// Requests returns the number of requests served so far (faults included).
func (s *Site) Requests() int64 { return s.requests.Load() }

func cloneEvent(e *Event) *Event {
	c := *e
	c.CostValues = slices.Clone(e.CostValues)
	c.Categories, c.Tags = slices.Clone(e.Categories), slices.Clone(e.Tags)
	c.Venues, c.Organizers = slices.Clone(e.Venues), slices.Clone(e.Organizers)
	return &c
}
