package calendar

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"
)

// EventUIDs is implemented by calendars that keep the external identity of
// events — the iCalendar UID an event was imported with — so that importing
// the same file twice updates the events of the first import instead of
// making new ones. *Service implements it.
type EventUIDs interface {
	// GetEventByUID reads the event carrying uid, with GetEvent's rules
	// (visibility, password); CodeNotFound when no event carries it.
	GetEventByUID(ctx context.Context, uid string, opt ReadOptions) (*Event, error)
	// CreateEventWithUID is CreateEvent for an event that carries uid for
	// good. The UID is stored in the same atomic write as the event; when
	// another event carries it already, nothing is created and the error
	// has CodeConflict.
	CreateEventWithUID(ctx context.Context, uid string, in EventInput, opt WriteOptions) (*Event, error)
}

var _ EventUIDs = (*Service)(nil)

// MaxUIDLen is the longest UID kept, in bytes.
const MaxUIDLen = 255

// GetEventByUID implements EventUIDs.
func (s *Service) GetEventByUID(ctx context.Context, uid string, opt ReadOptions) (*Event, error) {
	lang, err := s.lang(opt.Lang)
	if err != nil {
		return nil, err
	}
	if err := checkUID(uid); err != nil {
		return nil, err
	}
	rec, err := s.repo.PostByUID(ctx, KindEvent, uid)
	if errors.Is(err, ErrNotFound) {
		return nil, newError(CodeNotFound, "rest-event-not-found", "No event carries this UID.")
	}
	if err != nil {
		return nil, s.storageErr(ctx, "get event by uid", err)
	}
	c, now := callerFrom(ctx), s.now()
	if err := s.checkRead(c, rec, now, opt.Password); err != nil {
		return nil, err
	}
	return s.newRender(ctx, c, lang, now).event(rec, false)
}

// CreateEventWithUID implements EventUIDs.
func (s *Service) CreateEventWithUID(ctx context.Context, uid string, in EventInput, opt WriteOptions) (*Event, error) {
	if err := checkUID(uid); err != nil {
		return nil, err
	}
	return s.createEvent(ctx, in, opt, uid)
}

func checkUID(uid string) error {
	if uid == "" || len(uid) > MaxUIDLen || !utf8.ValidString(uid) || strings.ContainsAny(uid, "\r\n\x00") {
		return invalidParam("uid", "uid must be 1 to 255 bytes of UTF-8 on one line")
	}
	return nil
}
