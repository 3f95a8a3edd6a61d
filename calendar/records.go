package calendar

import "time"

// Text is a translatable field: one text per language.
type Text map[Lang]string

// Get returns the text in lang, else in the fallback language, else "".
func (t Text) Get(lang, fallback Lang) string {
	if s, ok := t[lang]; ok {
		return s
	}
	return t[fallback]
}

// LangOf returns the language Get(lang, fallback) reads: lang when t has a
// text in it, else fallback.
func (t Text) LangOf(lang, fallback Lang) Lang {
	if _, ok := t[lang]; ok {
		return lang
	}
	return fallback
}

// Clone returns a copy of t.
func (t Text) Clone() Text {
	if t == nil {
		return nil
	}
	c := make(Text, len(t))
	for k, v := range t {
		c[k] = v
	}
	return c
}

// PostRecord is an event, venue or organizer as the Repository stores it: every
// language, every link, the password. It is what drivers encode and index; the
// Calendar turns it into the read views (Event, Venue, Organizer).
//
// Fields that do not apply to the record's Kind stay at their zero value.
type PostRecord struct {
	ID       int64     `json:"id"`
	Kind     Kind      `json:"kind"`
	Status   Status    `json:"status"`
	Author   int64     `json:"author"`
	Date     time.Time `json:"date"`     // publication instant (UTC)
	Modified time.Time `json:"modified"` // instant of the last write (UTC)
	Version  int64     `json:"version"`
	Slug     string    `json:"slug"`
	Lang     Lang      `json:"lang"` // original language, the fallback for translations
	// UID is an external identity, unique per kind when set: the iCalendar
	// UID an event was imported with, or the global id of the record on
	// the site it was migrated from. Empty for records made here.
	UID string `json:"uid,omitempty"`

	// Title is the event title, the venue name or the organizer name.
	Title       Text   `json:"title,omitempty"`
	Description Text   `json:"description,omitempty"`
	Excerpt     Text   `json:"excerpt,omitempty"`
	Image       string `json:"image,omitempty"` // absolute URL or an image id in decimal
	Website     string `json:"website,omitempty"`
	Phone       string `json:"phone,omitempty"`
	ShowMap     *bool  `json:"show_map,omitempty"` // nil: never set (reads as true)
	ShowMapLink *bool  `json:"show_map_link,omitempty"`

	// Event fields.
	Start            time.Time `json:"start,omitempty"` // UTC instant
	End              time.Time `json:"end,omitempty"`   // UTC instant
	TimeZone         string    `json:"tz,omitempty"`    // IANA name or UTC±H[:MM]
	AllDay           bool      `json:"all_day,omitempty"`
	Cost             []string  `json:"cost,omitempty"`
	HideFromListings bool      `json:"hide,omitempty"`
	Sticky           bool      `json:"sticky,omitempty"`
	Featured         bool      `json:"featured,omitempty"`
	Password         string    `json:"password,omitempty"`
	PostParent       int64     `json:"parent,omitempty"`
	VenueIDs         []int64   `json:"venues,omitempty"`
	OrganizerIDs     []int64   `json:"organizers,omitempty"` // in the given order
	CategoryIDs      []int64   `json:"categories,omitempty"`
	TagIDs           []int64   `json:"tags,omitempty"`

	// Recurrence fields (events). A series carries its RFC 5545 lines; an
	// occurrence (PostParent = its series) carries its recurrence id, the
	// original start instant that never changes, and whether it was edited
	// on its own (Detached).
	Recurrence   []string  `json:"recurrence,omitempty"`
	RecurrenceID time.Time `json:"recurrence_id,omitempty"`
	Detached     bool      `json:"detached,omitempty"`

	// Venue fields.
	Address       string   `json:"address,omitempty"`
	City          string   `json:"city,omitempty"`
	Country       string   `json:"country,omitempty"`
	Province      string   `json:"province,omitempty"`
	State         string   `json:"state,omitempty"`
	Zip           string   `json:"zip,omitempty"`
	StateProvince string   `json:"stateprovince,omitempty"`
	GeoLat        *float64 `json:"lat,omitempty"` // both or neither
	GeoLng        *float64 `json:"lng,omitempty"`

	// Organizer fields.
	Email string `json:"email,omitempty"`
}

// EffectiveStatus is the status a reader sees at instant now: a future post
// whose publication date has passed is published.
func (p *PostRecord) EffectiveStatus(now time.Time) Status {
	if p.Status == StatusFuture && !p.Date.After(now) {
		return StatusPublish
	}
	return p.Status
}

// Clone returns a deep copy, so that drivers never share mutable state with callers.
func (p *PostRecord) Clone() *PostRecord {
	if p == nil {
		return nil
	}
	c := *p
	c.Title, c.Description, c.Excerpt = p.Title.Clone(), p.Description.Clone(), p.Excerpt.Clone()
	c.ShowMap, c.ShowMapLink = cloneBool(p.ShowMap), cloneBool(p.ShowMapLink)
	c.GeoLat, c.GeoLng = cloneFloat(p.GeoLat), cloneFloat(p.GeoLng)
	c.Cost = append([]string(nil), p.Cost...)
	c.VenueIDs = append([]int64(nil), p.VenueIDs...)
	c.OrganizerIDs = append([]int64(nil), p.OrganizerIDs...)
	c.CategoryIDs = append([]int64(nil), p.CategoryIDs...)
	c.TagIDs = append([]int64(nil), p.TagIDs...)
	c.Recurrence = append([]string(nil), p.Recurrence...)
	return &c
}

// Links returns the ids this event links to of the given kind (venue,
// organizer, category or tag); nil for other kinds.
func (p *PostRecord) Links(k Kind) []int64 {
	switch k {
	case KindVenue:
		return p.VenueIDs
	case KindOrganizer:
		return p.OrganizerIDs
	case KindCategory:
		return p.CategoryIDs
	case KindTag:
		return p.TagIDs
	}
	return nil
}

// SetLinks replaces the links of the given kind.
func (p *PostRecord) SetLinks(k Kind, ids []int64) {
	switch k {
	case KindVenue:
		p.VenueIDs = ids
	case KindOrganizer:
		p.OrganizerIDs = ids
	case KindCategory:
		p.CategoryIDs = ids
	case KindTag:
		p.TagIDs = ids
	}
}

// HasCoordinates reports whether a venue carries a position.
func (p *PostRecord) HasCoordinates() bool { return p.GeoLat != nil && p.GeoLng != nil }

// TermRecord is a category or tag as the Repository stores it.
type TermRecord struct {
	ID          int64    `json:"id"`
	Taxonomy    Taxonomy `json:"taxonomy"`
	Version     int64    `json:"version"`
	Slug        string   `json:"slug"`
	Lang        Lang     `json:"lang"`
	Name        Text     `json:"name,omitempty"`
	Description Text     `json:"description,omitempty"`
	Parent      int64    `json:"parent,omitempty"` // categories only
}

// Clone returns a deep copy.
func (t *TermRecord) Clone() *TermRecord {
	if t == nil {
		return nil
	}
	c := *t
	c.Name, c.Description = t.Name.Clone(), t.Description.Clone()
	return &c
}

func cloneBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}

func cloneFloat(f *float64) *float64 {
	if f == nil {
		return nil
	}
	v := *f
	return &v
}

// SearchText returns the texts a free-text search looks in, read in lang with
// fallback to the record's own language: for events title, description and
// excerpt; venues add address, city, province, state, stateprovince, zip and
// phone; organizers add phone, email and website.
func (p *PostRecord) SearchText(lang Lang) []string {
	out := []string{p.Title.Get(lang, p.Lang), p.Description.Get(lang, p.Lang), p.Excerpt.Get(lang, p.Lang)}
	switch p.Kind {
	case KindVenue:
		out = append(out, p.Address, p.City, p.Province, p.State, p.StateProvince, p.Zip, p.Phone)
	case KindOrganizer:
		out = append(out, p.Phone, p.Email, p.Website)
	}
	return out
}
