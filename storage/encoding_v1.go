package storage

import (
	"fmt"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// postV1 and termV1 read format 1, which was json.Marshal of the domain
// records with the JSON tags they carried then. The tags are frozen here:
// format 1 is only read (files and Redis calendars written before format 2),
// never written, so these types never change.
type postV1 struct {
	ID       int64                    `json:"id"`
	Kind     uint8                    `json:"kind"` // calendar.Kind numbering of format 1: 1 event, 2 venue, 3 organizer
	Status   string                   `json:"status"`
	Author   int64                    `json:"author"`
	Date     time.Time                `json:"date"`
	Modified time.Time                `json:"modified"`
	Version  int64                    `json:"version"`
	Slug     string                   `json:"slug"`
	Lang     string                   `json:"lang"`
	UID      string                   `json:"uid"`
	Title    map[calendar.Lang]string `json:"title"`

	Description map[calendar.Lang]string `json:"description"`
	Excerpt     map[calendar.Lang]string `json:"excerpt"`
	Image       string                   `json:"image"`
	Website     string                   `json:"website"`
	Phone       string                   `json:"phone"`
	ShowMap     *bool                    `json:"show_map"`
	ShowMapLink *bool                    `json:"show_map_link"`

	Start            time.Time `json:"start"`
	End              time.Time `json:"end"`
	TimeZone         string    `json:"tz"`
	AllDay           bool      `json:"all_day"`
	Cost             []string  `json:"cost"`
	HideFromListings bool      `json:"hide"`
	Sticky           bool      `json:"sticky"`
	Featured         bool      `json:"featured"`
	Password         string    `json:"password"`
	PostParent       int64     `json:"parent"`
	VenueIDs         []int64   `json:"venues"`
	OrganizerIDs     []int64   `json:"organizers"`
	CategoryIDs      []int64   `json:"categories"`
	TagIDs           []int64   `json:"tags"`

	Address       string   `json:"address"`
	City          string   `json:"city"`
	Country       string   `json:"country"`
	Province      string   `json:"province"`
	State         string   `json:"state"`
	Zip           string   `json:"zip"`
	StateProvince string   `json:"stateprovince"`
	GeoLat        *float64 `json:"lat"`
	GeoLng        *float64 `json:"lng"`
	Email         string   `json:"email"`
}

// v1Kinds is the Kind numbering format 1 stored.
var v1Kinds = map[uint8]calendar.Kind{1: calendar.KindEvent, 2: calendar.KindVenue, 3: calendar.KindOrganizer}

func (s *postV1) record() (*calendar.PostRecord, error) {
	kind, ok := v1Kinds[s.Kind]
	if !ok {
		return nil, fmt.Errorf("%w: unknown post kind %d", ErrBadRecord, s.Kind)
	}
	return &calendar.PostRecord{
		ID: s.ID, Kind: kind, Version: s.Version, Slug: s.Slug, Status: calendar.Status(s.Status), Author: s.Author,
		Date: utc(s.Date), Modified: utc(s.Modified), Lang: calendar.Lang(s.Lang), UID: s.UID,
		Title: s.Title, Description: s.Description, Excerpt: s.Excerpt,
		Image: s.Image, Website: s.Website, Phone: s.Phone, ShowMap: s.ShowMap, ShowMapLink: s.ShowMapLink,
		Start: utc(s.Start), End: utc(s.End), TimeZone: s.TimeZone, AllDay: s.AllDay, Cost: s.Cost,
		HideFromListings: s.HideFromListings, Sticky: s.Sticky, Featured: s.Featured, Password: s.Password,
		PostParent: s.PostParent, VenueIDs: s.VenueIDs, OrganizerIDs: s.OrganizerIDs,
		CategoryIDs: s.CategoryIDs, TagIDs: s.TagIDs,
		Address: s.Address, City: s.City, Country: s.Country, Province: s.Province, State: s.State,
		Zip: s.Zip, StateProvince: s.StateProvince, GeoLat: s.GeoLat, GeoLng: s.GeoLng,
		Email: s.Email,
	}, nil
}

type termV1 struct {
	ID          int64                    `json:"id"`
	Taxonomy    string                   `json:"taxonomy"` // the wire names: tribe_events_cat, post_tag
	Version     int64                    `json:"version"`
	Slug        string                   `json:"slug"`
	Lang        string                   `json:"lang"`
	Name        map[calendar.Lang]string `json:"name"`
	Description map[calendar.Lang]string `json:"description"`
	Parent      int64                    `json:"parent"`
}

// v1Taxonomies is the taxonomy spelling format 1 stored.
var v1Taxonomies = map[string]calendar.Taxonomy{"tribe_events_cat": calendar.TaxonomyCategory, "post_tag": calendar.TaxonomyTag}

func (s *termV1) record() (*calendar.TermRecord, error) {
	tax, ok := v1Taxonomies[s.Taxonomy]
	if !ok {
		return nil, fmt.Errorf("%w: unknown taxonomy %q", ErrBadRecord, s.Taxonomy)
	}
	return &calendar.TermRecord{
		ID: s.ID, Taxonomy: tax, Version: s.Version, Slug: s.Slug, Lang: calendar.Lang(s.Lang),
		Name: s.Name, Description: s.Description, Parent: s.Parent,
	}, nil
}
