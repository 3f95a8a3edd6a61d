package calendar

import "context"

// Temporary: the operations below are being written in a separate branch and
// replace this file when they land. They exist now so dependants compile.

var errPending = newError(CodeInternal, "rest_internal_error", "not implemented yet")

func (s *Service) ListEvents(ctx context.Context, q EventQuery) (*EventPage, error) {
	return nil, errPending
}
func (s *Service) GetEvent(ctx context.Context, ref Ref, opt ReadOptions) (*Event, error) {
	return nil, errPending
}
func (s *Service) CreateEvent(ctx context.Context, in EventInput, opt WriteOptions) (*Event, error) {
	return nil, errPending
}
func (s *Service) UpdateEvent(ctx context.Context, ref Ref, in EventInput, opt WriteOptions) (*Event, error) {
	return nil, errPending
}
func (s *Service) DeleteEvent(ctx context.Context, ref Ref, opt DeleteOptions) (*Event, error) {
	return nil, errPending
}
func (s *Service) ListVenues(ctx context.Context, q VenueQuery) (*VenuePage, error) {
	return nil, errPending
}
func (s *Service) GetVenue(ctx context.Context, ref Ref, opt ReadOptions) (*Venue, error) {
	return nil, errPending
}
func (s *Service) CreateVenue(ctx context.Context, in VenueInput, opt WriteOptions) (*Venue, error) {
	return nil, errPending
}
func (s *Service) UpdateVenue(ctx context.Context, ref Ref, in VenueInput, opt WriteOptions) (*Venue, error) {
	return nil, errPending
}
func (s *Service) DeleteVenue(ctx context.Context, ref Ref, opt DeleteOptions) (*Venue, error) {
	return nil, errPending
}
func (s *Service) ListOrganizers(ctx context.Context, q OrganizerQuery) (*OrganizerPage, error) {
	return nil, errPending
}
func (s *Service) GetOrganizer(ctx context.Context, ref Ref, opt ReadOptions) (*Organizer, error) {
	return nil, errPending
}
func (s *Service) CreateOrganizer(ctx context.Context, in OrganizerInput, opt WriteOptions) (*Organizer, error) {
	return nil, errPending
}
func (s *Service) UpdateOrganizer(ctx context.Context, ref Ref, in OrganizerInput, opt WriteOptions) (*Organizer, error) {
	return nil, errPending
}
func (s *Service) DeleteOrganizer(ctx context.Context, ref Ref, opt DeleteOptions) (*Organizer, error) {
	return nil, errPending
}
func (s *Service) ListTerms(ctx context.Context, tax Taxonomy, q TermQuery) (*TermPage, error) {
	return nil, errPending
}
func (s *Service) GetTerm(ctx context.Context, tax Taxonomy, id int64, opt ReadOptions) (*Term, error) {
	return nil, errPending
}
func (s *Service) CreateTerm(ctx context.Context, tax Taxonomy, in TermInput, opt WriteOptions) (*Term, error) {
	return nil, errPending
}
func (s *Service) UpdateTerm(ctx context.Context, tax Taxonomy, id int64, in TermInput, opt WriteOptions) (*Term, error) {
	return nil, errPending
}
func (s *Service) DeleteTerm(ctx context.Context, tax Taxonomy, id int64, opt DeleteOptions) (*Term, error) {
	return nil, errPending
}
