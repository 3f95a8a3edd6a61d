package webhooks

import (
	"context"
	"errors"
	"fmt"

	"github.com/eventcal/eventcal/calendar"
)

// CalendarChanges is the ChangeSource of a calendar's own change log: any
// calendar.ChangeLog, which every storage driver of this module implements
// (memstore, boltstore, redisstore). On Redis, Wait is woken by writes of
// any process sharing the calendar.
type CalendarChanges struct {
	log calendar.ChangeLog
}

var _ ChangeSource = (*CalendarChanges)(nil)

// NewCalendarChanges returns the ChangeSource reading l.
func NewCalendarChanges(l calendar.ChangeLog) *CalendarChanges { return &CalendarChanges{log: l} }

// Changes implements ChangeSource; a cursor older than the log's retention
// matches both ErrCursorExpired and calendar.ErrChangesExpired.
func (c *CalendarChanges) Changes(ctx context.Context, after uint64, limit int) ([]Change, error) {
	cs, err := c.log.ChangesAfter(ctx, int64(after), limit)
	if errors.Is(err, calendar.ErrChangesExpired) {
		return nil, fmt.Errorf("%w (%w)", ErrCursorExpired, err)
	}
	if err != nil {
		return nil, err
	}
	out := make([]Change, len(cs))
	for i, ch := range cs {
		out[i] = Change{Seq: uint64(ch.Seq), Time: ch.Time, Kind: Kind(ch.Kind.String()), ID: ch.ID,
			Action: Action(ch.Action), Version: ch.Version, Series: ch.Series}
	}
	return out, nil
}

// Wait implements ChangeSource.
func (c *CalendarChanges) Wait(ctx context.Context, after uint64) (uint64, error) {
	if err := c.log.WaitChanges(ctx, int64(after)); err != nil {
		return 0, err
	}
	return c.Last(ctx)
}

// Last returns the Seq of the log's newest change: the cursor a new
// subscription starts from.
func (c *CalendarChanges) Last(ctx context.Context) (uint64, error) {
	n, err := c.log.LastChangeSeq(ctx)
	return uint64(n), err
}
