package calendar

import "context"

func organizerCommon(in OrganizerInput) commonInput {
	return commonInput{nameArg: "organizer", Name: in.Name, Description: in.Description, Excerpt: in.Excerpt,
		Slug: in.Slug, Status: in.Status, Author: in.Author, Date: in.Date, DateUTC: in.DateUTC,
		Image: in.Image, Website: in.Website}
}

// applyOrganizerFields validates and writes the organizer-only fields.
func applyOrganizerFields(v *Validation, rec *PostRecord, in OrganizerInput) {
	if in.Phone.Set {
		rec.Phone = checkShort(v, "phone", in.Phone.Value)
	}
	if in.Email.Set {
		rec.Email = checkEmail(v, "email", in.Email.Value)
	}
}

// CreateOrganizer creates an organizer. A non-trashed organizer with the same
// name (case-insensitive) is returned instead of creating a copy.
func (s *Service) CreateOrganizer(ctx context.Context, in OrganizerInput, opt WriteOptions) (*Organizer, error) {
	rec, err := s.createPlace(ctx, KindOrganizer, organizerCommon(in), func(rec *PostRecord, v *Validation) { applyOrganizerFields(v, rec, in) }, opt)
	if err != nil {
		return nil, dropValidated(err)
	}
	return s.placeView(ctx, opt.Lang).organizer(rec), nil
}

// GetOrganizer reads one organizer by id or slug.
func (s *Service) GetOrganizer(ctx context.Context, ref Ref, opt ReadOptions) (*Organizer, error) {
	rec, err := s.getPlace(ctx, KindOrganizer, ref, opt)
	if err != nil {
		return nil, err
	}
	return s.placeView(ctx, opt.Lang).organizer(rec), nil
}

// UpdateOrganizer changes the fields that are set in in.
func (s *Service) UpdateOrganizer(ctx context.Context, ref Ref, in OrganizerInput, opt WriteOptions) (*Organizer, error) {
	rec, err := s.updatePlace(ctx, KindOrganizer, ref, organizerCommon(in), func(rec *PostRecord, v *Validation) { applyOrganizerFields(v, rec, in) }, opt)
	if err != nil {
		return nil, dropValidated(err)
	}
	return s.placeView(ctx, opt.Lang).organizer(rec), nil
}

// DeleteOrganizer trashes an organizer, or removes it for good with opt.Force.
func (s *Service) DeleteOrganizer(ctx context.Context, ref Ref, opt DeleteOptions) (*Organizer, error) {
	rec, err := s.deletePost(ctx, KindOrganizer, ref, opt)
	if err != nil {
		return nil, err
	}
	return s.placeView(ctx, opt.Lang).organizer(rec), nil
}

// ListOrganizers returns one page of organizers.
func (s *Service) ListOrganizers(ctx context.Context, q OrganizerQuery) (*OrganizerPage, error) {
	res, err := s.listPlaces(ctx, KindOrganizer, placeQuery(q))
	if err != nil {
		return nil, err
	}
	out := &OrganizerPage{Organizers: make([]Organizer, 0, len(res.recs)), Total: res.total, TotalPages: totalPages(res.total, res.perPage), Page: res.page, PerPage: res.perPage}
	for _, p := range res.recs {
		out.Organizers = append(out.Organizers, *res.r.organizer(p))
	}
	return out, nil
}
