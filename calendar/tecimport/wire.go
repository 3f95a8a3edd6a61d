package tecimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The types below are the original plugin's read representations as a
// migration needs them. WordPress sites differ in small ways (numbers sent
// as strings, "1"/"0" for booleans, null for blanked fields), so the field
// types accept every form a site is known to send and refuse the rest: a
// record that does not decode is reported and skipped.

// flexInt is an integer sent as a number or a string of digits.
type flexInt int64

func (f *flexInt) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			*f = 0
			return nil
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		if fl, ferr := strconv.ParseFloat(s, 64); ferr == nil && fl == float64(int64(fl)) {
			*f = flexInt(fl)
			return nil
		}
		return fmt.Errorf("%s is not an integer", b)
	}
	*f = flexInt(n)
	return nil
}

// flexBool is a boolean sent as true/false, 1/0 or their strings (also
// yes/no); null (a blanked field) reads as unset.
type flexBool struct {
	Set   bool
	Value bool
}

func (f *flexBool) UnmarshalJSON(b []byte) error {
	s := strings.ToLower(strings.Trim(string(bytes.TrimSpace(b)), `"`))
	switch s {
	case "null":
		*f = flexBool{}
	case "true", "1", "yes", "on":
		*f = flexBool{true, true}
	case "false", "0", "no", "off", "":
		*f = flexBool{true, false}
	default:
		return fmt.Errorf("%s is not a boolean", b)
	}
	return nil
}

// flexFloat is a number sent as a number or a numeric string; empty is unset.
type flexFloat struct {
	Set   bool
	Value float64
}

func (f *flexFloat) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(strings.Trim(string(bytes.TrimSpace(b)), `"`))
	if s == "" || s == "null" {
		*f = flexFloat{}
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("%s is not a number", b)
	}
	*f = flexFloat{true, v}
	return nil
}

// flexString is text; a number is taken as its digits, null and false as "".
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexString(s)
	case string(b) == "null" || string(b) == "false":
		*f = ""
	case len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9'):
		*f = flexString(b)
	default:
		return fmt.Errorf("%s is not text", b)
	}
	return nil
}

// slugText is a slug: text only (a number is a broken record, since WordPress
// always sends slugs as strings).
type slugText string

func (s *slugText) UnmarshalJSON(b []byte) error {
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("slug %s is not text", b)
	}
	*s = slugText(v)
	return nil
}

// sourceImage is an image object or false.
type sourceImage struct {
	URL string
	ID  int64
}

func (i *sourceImage) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch string(b) {
	case "false", "null", `""`, "[]":
		*i = sourceImage{}
		return nil
	}
	if len(b) > 0 && b[0] == '"' { // a bare URL
		return json.Unmarshal(b, &i.URL)
	}
	var o struct {
		URL flexString `json:"url"`
		ID  flexInt    `json:"id"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return fmt.Errorf("image: %w", err)
	}
	i.URL, i.ID = string(o.URL), int64(o.ID)
	return nil
}

// sourcePost holds what events, venues and organizers share.
type sourcePost struct {
	ID          flexInt     `json:"id"`
	GlobalID    flexString  `json:"global_id"`
	Author      flexInt     `json:"author"`
	Status      flexString  `json:"status"`
	Date        flexString  `json:"date"`
	DateUTC     flexString  `json:"date_utc"`
	Modified    flexString  `json:"modified"`
	ModifiedUTC flexString  `json:"modified_utc"`
	URL         flexString  `json:"url"`
	Description flexString  `json:"description"`
	Excerpt     flexString  `json:"excerpt"`
	Slug        slugText    `json:"slug"`
	Image       sourceImage `json:"image"`
}

// sourceEvent is the original's event representation.
type sourceEvent struct {
	sourcePost
	Title            flexString                 `json:"title"`
	AllDay           flexBool                   `json:"all_day"`
	StartDate        flexString                 `json:"start_date"`
	EndDate          flexString                 `json:"end_date"`
	UTCStartDate     flexString                 `json:"utc_start_date"`
	UTCEndDate       flexString                 `json:"utc_end_date"`
	TimeZone         flexString                 `json:"timezone"`
	Cost             flexString                 `json:"cost"`
	CostDetails      costDetails                `json:"cost_details"`
	Website          flexString                 `json:"website"`
	ShowMap          flexBool                   `json:"show_map"`
	ShowMapLink      flexBool                   `json:"show_map_link"`
	HideFromListings flexBool                   `json:"hide_from_listings"`
	Sticky           flexBool                   `json:"sticky"`
	Featured         flexBool                   `json:"featured"`
	Categories       []sourceTerm               `json:"categories"`
	Tags             []sourceTerm               `json:"tags"`
	Venue            oneOrMany[sourceVenue]     `json:"venue"`
	Organizer        oneOrMany[sourceOrganizer] `json:"organizer"`
}

type costDetails struct {
	CurrencySymbol   flexString   `json:"currency_symbol"`
	CurrencyCode     flexString   `json:"currency_code"`
	CurrencyPosition flexString   `json:"currency_position"`
	Values           []flexString `json:"values"`
}

func (c *costDetails) UnmarshalJSON(b []byte) error {
	type plain costDetails
	b = bytes.TrimSpace(b)
	if string(b) == "null" || string(b) == "[]" || string(b) == "false" {
		*c = costDetails{}
		return nil
	}
	return json.Unmarshal(b, (*plain)(c))
}

// oneOrMany is a field sent as one object, a list of them, or [] for none
// (the event's venue).
type oneOrMany[T any] []T

func (o *oneOrMany[T]) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null" || string(b) == "false" || string(b) == `""`:
		*o = nil
		return nil
	case len(b) > 0 && b[0] == '[':
		var many []T
		if err := json.Unmarshal(b, &many); err != nil {
			return err
		}
		*o = many
		return nil
	}
	var one T
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*o = []T{one}
	return nil
}

// sourceVenue is the original's venue representation (also embedded in events).
type sourceVenue struct {
	sourcePost
	Venue         flexString `json:"venue"`
	Address       flexString `json:"address"`
	City          flexString `json:"city"`
	Country       flexString `json:"country"`
	Province      flexString `json:"province"`
	State         flexString `json:"state"`
	Zip           flexString `json:"zip"`
	Phone         flexString `json:"phone"`
	Website       flexString `json:"website"`
	StateProvince flexString `json:"stateprovince"`
	GeoLat        flexFloat  `json:"geo_lat"`
	GeoLng        flexFloat  `json:"geo_lng"`
	ShowMap       flexBool   `json:"show_map"`
	ShowMapLink   flexBool   `json:"show_map_link"`
}

// sourceOrganizer is the original's organizer representation.
type sourceOrganizer struct {
	sourcePost
	Organizer flexString `json:"organizer"`
	Phone     flexString `json:"phone"`
	Website   flexString `json:"website"`
	Email     flexString `json:"email"`
}

// sourceTerm is a category or tag, in the endpoint or the embedded form.
type sourceTerm struct {
	ID          flexInt    `json:"id"`
	Name        flexString `json:"name"`
	Slug        slugText   `json:"slug"`
	Taxonomy    flexString `json:"taxonomy"`
	Description flexString `json:"description"`
	Parent      flexInt    `json:"parent"`
}

// wpTime is the original's date-time form.
const wpTime = "2006-01-02 15:04:05"

// parseUTC reads a "YYYY-MM-DD HH:MM:SS" UTC date; WordPress's zero date
// and anything unreadable are errors.
func parseUTC(field, s string) (time.Time, error) {
	return parseIn(field, s, time.UTC)
}

func parseIn(field, s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	t, err := time.ParseInLocation(wpTime, s, loc)
	if err != nil {
		t, err = time.Parse(time.RFC3339, s)
	}
	if err != nil || t.Year() < 1 {
		return time.Time{}, fmt.Errorf("%s %q is not a date", field, s)
	}
	return t.UTC(), nil
}
