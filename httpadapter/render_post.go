package httpadapter

import "github.com/eventcal/eventcal/calendar"

// optStr writes key: s unless s is empty (venues and organizers leave out
// every empty value, wire §3).
func optStr(e *enc, key, s string) {
	if s != "" {
		e.key(key)
		e.str(s)
	}
}

// venue writes a venue per wire §3; withLD adds json_ld (single GET).
func (l *links) venue(e *enc, v *calendar.Venue, withLD bool) {
	e.open('{')
	p := venueView(v)
	l.postHead(e, &p)
	optStr(e, "address", v.Address)
	optStr(e, "city", v.City)
	optStr(e, "country", v.Country)
	optStr(e, "province", v.Province)
	optStr(e, "state", v.State)
	optStr(e, "zip", v.Zip)
	optStr(e, "phone", v.Phone)
	optStr(e, "website", v.Website)
	optStr(e, "stateprovince", v.DisplayStateProvince())
	if v.GeoLat != nil && v.GeoLng != nil {
		e.key("geo_lat")
		e.float(*v.GeoLat)
		e.key("geo_lng")
		e.float(*v.GeoLng)
	}
	e.key("show_map")
	e.boolPtr(v.ShowMap)
	e.key("show_map_link")
	e.boolPtr(v.ShowMapLink)
	l.globalIDs(e, v.ID)
	if withLD {
		e.key("json_ld")
		l.venueLD(e, v, true)
	}
	e.close('}')
}

// organizer writes an organizer per wire §3; withLD adds json_ld (single GET).
func (l *links) organizer(e *enc, o *calendar.Organizer, withLD bool) {
	e.open('{')
	p := organizerView(o)
	l.postHead(e, &p)
	optStr(e, "phone", o.Phone)
	optStr(e, "website", o.Website)
	optStr(e, "email", o.Email)
	l.globalIDs(e, o.ID)
	if withLD {
		e.key("json_ld")
		l.organizerLD(e, o, true)
	}
	e.close('}')
}
