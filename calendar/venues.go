package calendar

import "context"

func venueCommon(in VenueInput) commonInput {
	return commonInput{nameArg: "venue", Name: in.Name, Description: in.Description, Excerpt: in.Excerpt,
		Slug: in.Slug, Status: in.Status, Author: in.Author, Date: in.Date, DateUTC: in.DateUTC,
		Image: in.Image, Website: in.Website}
}

// applyVenueFields validates and writes the venue-only fields.
func applyVenueFields(v *Validation, rec *PostRecord, in VenueInput) {
	for _, f := range []struct {
		arg string
		o   Opt[string]
		dst *string
	}{
		{"address", in.Address, &rec.Address}, {"city", in.City, &rec.City}, {"country", in.Country, &rec.Country},
		{"province", in.Province, &rec.Province}, {"state", in.State, &rec.State}, {"zip", in.Zip, &rec.Zip},
		{"phone", in.Phone, &rec.Phone}, {"stateprovince", in.StateProvince, &rec.StateProvince},
	} {
		if f.o.Set {
			*f.dst = checkShort(v, f.arg, f.o.Value)
		}
	}
	setFlag(&rec.ShowMap, in.ShowMap)
	setFlag(&rec.ShowMapLink, in.ShowMapLink)
	if in.GeoLat.Set != in.GeoLng.Set || in.GeoLat.Set && (in.GeoLat.Value == nil) != (in.GeoLng.Value == nil) {
		v.Add("geo_lat", "geo_lat and geo_lng must be given together")
		return
	}
	if !in.GeoLat.Set {
		return
	}
	lat, lng := in.GeoLat.Value, in.GeoLng.Value
	if lat != nil && (*lat < -90 || *lat > 90 || *lat != *lat) {
		v.Add("geo_lat", "geo_lat must be between -90 and 90")
	}
	if lng != nil && (*lng < -180 || *lng > 180 || *lng != *lng) {
		v.Add("geo_lng", "geo_lng must be between -180 and 180")
	}
	if !v.Has("geo_lat") && !v.Has("geo_lng") {
		rec.GeoLat, rec.GeoLng = cloneFloat(lat), cloneFloat(lng)
	}
}

// CreateVenue creates a venue. A non-trashed venue with the same name
// (case-insensitive) is returned instead of creating a copy.
func (s *Service) CreateVenue(ctx context.Context, in VenueInput, opt WriteOptions) (*Venue, error) {
	rec, err := s.createPlace(ctx, KindVenue, venueCommon(in), func(rec *PostRecord, v *Validation) { applyVenueFields(v, rec, in) }, opt)
	if err != nil {
		return nil, dropValidated(err)
	}
	return s.placeView(ctx, opt.Lang).venue(rec), nil
}

// GetVenue reads one venue by id or slug.
func (s *Service) GetVenue(ctx context.Context, ref Ref, opt ReadOptions) (*Venue, error) {
	rec, err := s.getPlace(ctx, KindVenue, ref, opt)
	if err != nil {
		return nil, err
	}
	return s.placeView(ctx, opt.Lang).venue(rec), nil
}

// UpdateVenue changes the fields that are set in in.
func (s *Service) UpdateVenue(ctx context.Context, ref Ref, in VenueInput, opt WriteOptions) (*Venue, error) {
	rec, err := s.updatePlace(ctx, KindVenue, ref, venueCommon(in), func(rec *PostRecord, v *Validation) { applyVenueFields(v, rec, in) }, opt)
	if err != nil {
		return nil, dropValidated(err)
	}
	return s.placeView(ctx, opt.Lang).venue(rec), nil
}

// DeleteVenue trashes a venue, or removes it for good with opt.Force (its
// links from events go with it).
func (s *Service) DeleteVenue(ctx context.Context, ref Ref, opt DeleteOptions) (*Venue, error) {
	rec, err := s.deletePost(ctx, KindVenue, ref, opt)
	if err != nil {
		return nil, err
	}
	return s.placeView(ctx, opt.Lang).venue(rec), nil
}

// ListVenues returns one page of venues.
func (s *Service) ListVenues(ctx context.Context, q VenueQuery) (*VenuePage, error) {
	res, err := s.listPlaces(ctx, KindVenue, placeQuery(q))
	if err != nil {
		return nil, err
	}
	out := &VenuePage{Venues: make([]Venue, 0, len(res.recs)), Total: res.total, TotalPages: totalPages(res.total, res.perPage), Page: res.page, PerPage: res.perPage}
	for _, p := range res.recs {
		out.Venues = append(out.Venues, *res.r.venue(p))
	}
	return out, nil
}
