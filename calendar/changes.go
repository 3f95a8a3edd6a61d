package calendar

import (
	"context"
	"time"
)

// ChangeAction says what a committed write did to one record.
type ChangeAction string

// The change actions. Trashed and restored are status transitions of a post
// into and out of the trash; every other transition is an update.
const (
	ChangeCreated  ChangeAction = "created"
	ChangeUpdated  ChangeAction = "updated"
	ChangeTrashed  ChangeAction = "trashed"
	ChangeRestored ChangeAction = "restored"
	ChangeDeleted  ChangeAction = "deleted"
)

// Change is one entry of a calendar's change log: one record touched by one
// committed write. It holds no field values; a reader that needs the record
// fetches it (and then sees only what it may see).
type Change struct {
	// Seq orders the log: strictly increasing per calendar, without gaps,
	// in commit order.
	Seq  int64
	Time time.Time // when the write committed (the driver's clock)
	Kind Kind
	ID   int64
	// Action is what the write did to the record.
	Action ChangeAction
	// Version is the record's version after the write; for a deleted record,
	// the version it had when it was deleted.
	Version int64
	// Tx identifies the write: every change of one Apply carries the same
	// Tx, which is the Seq of its first change.
	Tx int64
	// Series is the series event of an occurrence (the PostParent of an
	// event with a RecurrenceID), else 0.
	Series int64
}

// ChangeLog is what a Repository that keeps a change log offers besides the
// Repository methods. It is a separate interface so that Repository stays
// the records contract and a store without a log (a test double, an old
// driver) still serves every other operation; Calendar reports changes as
// unsupported for such a store.
//
// Every driver of this module implements it. Apply appends one change per
// record it touches (created, updated — cascades included —, trashed,
// restored, deleted) inside the same atomic write, so a write that did not
// commit leaves no change and a committed one always leaves all of its
// changes.
type ChangeLog interface {
	// ChangesAfter returns at most limit changes with Seq > after, in Seq
	// order (limit ≤ 0: a driver default). When changes after `after` were
	// already trimmed by the retention, the error wraps ErrChangesExpired.
	ChangesAfter(ctx context.Context, after int64, limit int) ([]Change, error)
	// LastChangeSeq returns the Seq of the newest change (0: none yet).
	LastChangeSeq(ctx context.Context) (int64, error)
	// TrimChanges removes the changes the retention no longer keeps at
	// instant now. Writes trim as they go; this is for maintenance (a log
	// that stopped receiving writes). It never scans the whole log.
	TrimChanges(ctx context.Context, now time.Time) error
	// WaitChanges returns nil once a change with Seq > after exists, or the
	// context's error. On a shared store (Redis) a write by another process
	// wakes it.
	WaitChanges(ctx context.Context, after int64) error
}

// ChangeRetention bounds the change log: changes older than MaxAge are
// trimmed, and so are the oldest beyond MaxCount.
type ChangeRetention struct {
	MaxAge   time.Duration
	MaxCount int
}

// The default and largest retention.
const (
	DefaultChangeMaxAge   = 30 * 24 * time.Hour
	MaxChangeCount        = 1_000_000
	DefaultChangeMaxCount = MaxChangeCount
)

// DefaultChangeRetention keeps 30 days and at most a million changes.
var DefaultChangeRetention = ChangeRetention{MaxAge: DefaultChangeMaxAge, MaxCount: DefaultChangeMaxCount}

// Normalized returns r with zero or out-of-range fields replaced by the
// defaults: MaxAge ≤ 0 means 30 days, MaxCount ≤ 0 or above MaxChangeCount
// means MaxChangeCount.
func (r ChangeRetention) Normalized() ChangeRetention {
	if r.MaxAge <= 0 {
		r.MaxAge = DefaultChangeMaxAge
	}
	if r.MaxCount <= 0 || r.MaxCount > MaxChangeCount {
		r.MaxCount = MaxChangeCount
	}
	return r
}

// ErrChangesExpired reports that a change-log cursor points before what the
// retention kept: the reader missed changes and must re-read in full.
var ErrChangesExpired = &Error{Code: CodeGone, Reason: "rest_changes_expired",
	Message: "The changes after this cursor are no longer kept; read everything again and start from a new cursor."}

// PostChange returns the change a write makes to a post going from old (nil:
// it did not exist) to now (nil: deleted): Kind, ID, Action, Version and
// Series. Drivers fill Seq, Time and Tx.
func PostChange(old, now *PostRecord) Change {
	rec := now
	if rec == nil {
		rec = old
	}
	c := Change{Kind: rec.Kind, ID: rec.ID, Version: rec.Version}
	if rec.Kind == KindEvent && !rec.RecurrenceID.IsZero() && rec.PostParent > 0 {
		c.Series = rec.PostParent
	}
	switch {
	case old == nil:
		c.Action = ChangeCreated
	case now == nil:
		c.Action = ChangeDeleted
	case old.Status != StatusTrash && now.Status == StatusTrash:
		c.Action = ChangeTrashed
	case old.Status == StatusTrash && now.Status != StatusTrash:
		c.Action = ChangeRestored
	default:
		c.Action = ChangeUpdated
	}
	return c
}

// TermChange is PostChange for terms, which have no trash.
func TermChange(old, now *TermRecord) Change {
	rec := now
	if rec == nil {
		rec = old
	}
	c := Change{Kind: rec.Taxonomy.Kind(), ID: rec.ID, Version: rec.Version, Action: ChangeUpdated}
	switch {
	case old == nil:
		c.Action = ChangeCreated
	case now == nil:
		c.Action = ChangeDeleted
	}
	return c
}
