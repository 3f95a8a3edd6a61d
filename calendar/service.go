package calendar

import (
	"log/slog"
	"time"
)

// Service is the Calendar implementation: every rule of the domain enforced on
// top of a Repository. Create one with New; it is safe for concurrent use.
type Service struct {
	repo   Repository
	counts termCounts
	settings
}

var _ Calendar = (*Service)(nil)

// New returns a Service storing its records in repo.
func New(repo Repository, opts ...Option) *Service {
	s := &Service{repo: repo, settings: settings{
		siteZone:      time.UTC,
		defaultLang:   "en",
		defaultAuthor: DefaultAuthor,
		maxPerPage:    DefaultMaxPerPage,
		now:           time.Now,
		countTTL:      DefaultTermCountTTL,
	}}
	for _, o := range opts {
		o(&s.settings)
	}
	s.counts.ttl = s.countTTL
	if s.siteZone == nil {
		s.siteZone = time.UTC
	}
	if s.maxPerPage <= 0 {
		s.maxPerPage = DefaultMaxPerPage
	}
	if s.maxItems <= 0 {
		s.maxItems = DefaultMaxItems
	}
	if s.horizonMonths <= 0 {
		s.horizonMonths = DefaultSeriesHorizonMonths
	}
	if s.maxOccurrences <= 0 {
		s.maxOccurrences = DefaultMaxOccurrences
	}
	if s.defaultAuthor <= 0 {
		s.defaultAuthor = DefaultAuthor
	}
	if !s.defaultLang.Valid() {
		s.defaultLang = "en"
	}
	return s
}

// SiteZone returns the site time zone.
func (s *Service) SiteZone() *time.Location { return s.siteZone }

// DefaultLanguage returns the language of operations that name none.
func (s *Service) DefaultLanguage() Lang { return s.defaultLang }

// MaxPerPage returns the largest page size.
func (s *Service) MaxPerPage() int { return s.maxPerPage }

func (s *Service) log() *slog.Logger {
	if s.logger != nil {
		return s.logger
	}
	return slog.Default()
}
