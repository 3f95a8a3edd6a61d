// Package backup writes a whole calendar — every record, every language,
// every status, trashed records included — as newline-delimited JSON, and
// reads such a file back into an empty store of any driver. It is the way
// to move a calendar between memstore, boltstore and redisstore, and a
// portable backup that does not depend on a driver's file or key layout.
//
// A backup is one JSON value per line:
//
//	{"format":"eventcal-backup","version":1,"created":"…","cursor":""}
//	{"kind":"category","id":3,"version":1,"slug":"music","lang":"en","name":{"en":"Music"}}
//	{"kind":"venue","id":12,…}
//	{"kind":"event","id":40,…,"venues":[12],"categories":[3]}
//	{"end_of_backup":true,"records":3}
//
// The header names the format and its version; cursor is the position in
// the calendar's change log at which the export started (empty for a store
// without one). Then come the terms (categories,
// tags), venues, organizers and events, each line a record in the fields of
// this package (not the domain types' JSON tags, so renaming a field in Go
// never changes a backup). The last line counts the records, so a cut-off
// file is recognised.
//
// Export streams: it reads the store a page at a time and its memory does
// not grow with the calendar. It runs online — writers are not stopped — so
// a record written during the export may be missing, or be in it twice (read
// before and after the change; Import keeps the later line); a record not
// written while the export runs is in it exactly once. Import refuses a store that holds
// any record, keeps every id, slug, UID, status, author and date, and
// writes in batches of atomic multi-record writes. Versions restart at 1 in
// the new store (the repository contract creates records at version 1), so
// clients' ETags change once. A backup holds event passwords: keep it as
// private as the store itself.
package backup

import (
	"errors"
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// FormatName is the "format" of a backup's header line.
const FormatName = "eventcal-backup"

// FormatVersion is the version Export writes and the newest Import reads.
const FormatVersion = 1

// Errors of Import.
var (
	// ErrNotEmpty: the target store holds records; a backup is only
	// imported into an empty store.
	ErrNotEmpty = errors.New("backup: the target store is not empty")
	// ErrFormat: the input is not a backup this version can read.
	ErrFormat = errors.New("backup: not an eventcal backup this version can read")
	// ErrTruncated: the input ends before its last line.
	ErrTruncated = errors.New("backup: the backup is incomplete (its last line is missing)")
)

// Header is the first line of a backup.
type Header struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// Cursor is the change-log position the export started at (a
	// calendar.ChangeCursor): replaying the changes after it brings a
	// restored copy up to date. Empty for a store without a change log.
	Cursor string `json:"cursor"`
}

// line is every other line of a backup: a record (Kind set) or the last
// line (End set). Post and term fields share it, so each line decodes once.
type line struct {
	Kind     string    `json:"kind,omitempty"`
	ID       int64     `json:"id,omitempty"`
	Version  int64     `json:"version,omitempty"`
	UID      string    `json:"uid,omitempty"`
	Slug     string    `json:"slug,omitempty"`
	Status   string    `json:"status,omitempty"`
	Author   int64     `json:"author,omitempty"`
	Date     time.Time `json:"date,omitzero"`
	Modified time.Time `json:"modified,omitzero"`
	Lang     string    `json:"lang,omitempty"`

	Title       map[string]string `json:"title,omitempty"` // event title, venue or organizer name
	Name        map[string]string `json:"name,omitempty"`  // term name
	Description map[string]string `json:"description,omitempty"`
	Excerpt     map[string]string `json:"excerpt,omitempty"`
	Parent      int64             `json:"parent,omitempty"` // term parent

	Image       string `json:"image,omitempty"`
	Website     string `json:"website,omitempty"`
	Phone       string `json:"phone,omitempty"`
	ShowMap     *bool  `json:"show_map,omitempty"`
	ShowMapLink *bool  `json:"show_map_link,omitempty"`

	Start            time.Time `json:"start,omitzero"`
	End              time.Time `json:"end,omitzero"`
	TimeZone         string    `json:"timezone,omitempty"`
	AllDay           bool      `json:"all_day,omitempty"`
	Cost             []string  `json:"cost,omitempty"`
	HideFromListings bool      `json:"hide_from_listings,omitempty"`
	Sticky           bool      `json:"sticky,omitempty"`
	Featured         bool      `json:"featured,omitempty"`
	Password         string    `json:"password,omitempty"`
	PostParent       int64     `json:"post_parent,omitempty"`
	Venues           []int64   `json:"venues,omitempty"`
	Organizers       []int64   `json:"organizers,omitempty"`
	Categories       []int64   `json:"categories,omitempty"`
	Tags             []int64   `json:"tags,omitempty"`
	Recurrence       []string  `json:"recurrence,omitempty"`
	RecurrenceID     time.Time `json:"recurrence_id,omitzero"`
	Detached         bool      `json:"detached,omitempty"`

	Address       string   `json:"address,omitempty"`
	City          string   `json:"city,omitempty"`
	Country       string   `json:"country,omitempty"`
	Province      string   `json:"province,omitempty"`
	State         string   `json:"state,omitempty"`
	Zip           string   `json:"zip,omitempty"`
	StateProvince string   `json:"stateprovince,omitempty"`
	GeoLat        *float64 `json:"geo_lat,omitempty"`
	GeoLng        *float64 `json:"geo_lng,omitempty"`
	Email         string   `json:"email,omitempty"`

	EndOfBackup bool `json:"end_of_backup,omitempty"`
	Records     int  `json:"records,omitempty"`
}

func kindOf(name string) (calendar.Kind, error) {
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer, calendar.KindCategory, calendar.KindTag} {
		if k.String() == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown kind %q", ErrFormat, name)
}

func texts(t calendar.Text) map[string]string {
	if len(t) == 0 {
		return nil
	}
	m := make(map[string]string, len(t))
	for l, s := range t {
		m[string(l)] = s
	}
	return m
}

func fromTexts(m map[string]string) calendar.Text {
	if len(m) == 0 {
		return nil
	}
	t := make(calendar.Text, len(m))
	for l, s := range m {
		t[calendar.Lang(l)] = s
	}
	return t
}

func utc(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.UTC()
}

// postLine is the line of a post.
func postLine(p *calendar.PostRecord) *line {
	return &line{
		Kind: p.Kind.String(), ID: p.ID, Version: p.Version, UID: p.UID, Slug: p.Slug, Status: string(p.Status),
		Author: p.Author, Date: utc(p.Date), Modified: utc(p.Modified), Lang: string(p.Lang),
		Title: texts(p.Title), Description: texts(p.Description), Excerpt: texts(p.Excerpt),
		Image: p.Image, Website: p.Website, Phone: p.Phone, ShowMap: p.ShowMap, ShowMapLink: p.ShowMapLink,
		Start: utc(p.Start), End: utc(p.End), TimeZone: p.TimeZone, AllDay: p.AllDay, Cost: p.Cost,
		HideFromListings: p.HideFromListings, Sticky: p.Sticky, Featured: p.Featured, Password: p.Password,
		PostParent: p.PostParent, Venues: p.VenueIDs, Organizers: p.OrganizerIDs, Categories: p.CategoryIDs, Tags: p.TagIDs,
		Recurrence: p.Recurrence, RecurrenceID: utc(p.RecurrenceID), Detached: p.Detached,
		Address: p.Address, City: p.City, Country: p.Country, Province: p.Province, State: p.State, Zip: p.Zip,
		StateProvince: p.StateProvince, GeoLat: p.GeoLat, GeoLng: p.GeoLng, Email: p.Email,
	}
}

// post is the record of a post line.
func (l *line) post(k calendar.Kind) *calendar.PostRecord {
	return &calendar.PostRecord{
		ID: l.ID, Kind: k, Status: calendar.Status(l.Status), Author: l.Author, Date: l.Date, Modified: l.Modified,
		Version: l.Version, Slug: l.Slug, Lang: calendar.Lang(l.Lang), UID: l.UID,
		Title: fromTexts(l.Title), Description: fromTexts(l.Description), Excerpt: fromTexts(l.Excerpt),
		Image: l.Image, Website: l.Website, Phone: l.Phone, ShowMap: l.ShowMap, ShowMapLink: l.ShowMapLink,
		Start: l.Start, End: l.End, TimeZone: l.TimeZone, AllDay: l.AllDay, Cost: l.Cost,
		HideFromListings: l.HideFromListings, Sticky: l.Sticky, Featured: l.Featured, Password: l.Password,
		PostParent: l.PostParent, VenueIDs: l.Venues, OrganizerIDs: l.Organizers, CategoryIDs: l.Categories, TagIDs: l.Tags,
		Recurrence: l.Recurrence, RecurrenceID: l.RecurrenceID, Detached: l.Detached,
		Address: l.Address, City: l.City, Country: l.Country, Province: l.Province, State: l.State, Zip: l.Zip,
		StateProvince: l.StateProvince, GeoLat: l.GeoLat, GeoLng: l.GeoLng, Email: l.Email,
	}
}

// termLine is the line of a term.
func termLine(t *calendar.TermRecord) *line {
	return &line{Kind: t.Taxonomy.Kind().String(), ID: t.ID, Version: t.Version, Slug: t.Slug, Lang: string(t.Lang),
		Name: texts(t.Name), Description: texts(t.Description), Parent: t.Parent}
}

// term is the record of a term line.
func (l *line) term(k calendar.Kind) *calendar.TermRecord {
	tax := calendar.TaxonomyCategory
	if k == calendar.KindTag {
		tax = calendar.TaxonomyTag
	}
	return &calendar.TermRecord{ID: l.ID, Taxonomy: tax, Version: l.Version, Slug: l.Slug, Lang: calendar.Lang(l.Lang),
		Name: fromTexts(l.Name), Description: fromTexts(l.Description), Parent: l.Parent}
}
