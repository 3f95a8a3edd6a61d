package calendar

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"iter"
)

// ChangeFeed is the in-process reading of a calendar's change log. Service
// implements it (when its Repository is a ChangeLog); it is an interface of
// its own, beside Calendar, so that existing Calendar implementations keep
// compiling. Editors, administrators and System may read changes; anyone
// else is refused (unauthenticated or forbidden).
type ChangeFeed interface {
	// Changes returns at most limit changes after the cursor since, the
	// cursor to continue from and whether more changes are waiting. An
	// empty since returns no change and the current cursor (where a new
	// reader starts). A cursor from before the retention fails with
	// ErrChangesExpired (CodeGone, reason rest_changes_expired).
	Changes(ctx context.Context, since string, limit int) (*ChangePage, error)
	// WatchChanges yields every change after since as it is committed,
	// waiting for new ones, until ctx ends (then the sequence just stops)
	// or an error occurs (yielded once, then the sequence stops).
	WatchChanges(ctx context.Context, since string) iter.Seq2[Change, error]
}

var _ ChangeFeed = (*Service)(nil)

// ChangePage is one page of changes.
type ChangePage struct {
	Changes []Change
	// Next is the cursor after the last change of the page (since itself
	// when the page is empty).
	Next string
	// More reports that changes after Next exist already.
	More bool
}

// DefaultChangesLimit is the page size of Changes when the caller names none.
const DefaultChangesLimit = 100

// ChangeCursor returns the opaque cursor that stands for "after change
// seq". Clients treat it as a token; only this package reads it.
func ChangeCursor(seq int64) string {
	var b [9]byte
	b[0] = 1 // the cursor's format
	binary.BigEndian.PutUint64(b[1:], uint64(seq))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// ParseChangeCursor returns the seq a cursor from ChangeCursor stands for.
func ParseChangeCursor(cursor string) (int64, error) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(b) != 9 || b[0] != 1 || int64(binary.BigEndian.Uint64(b[1:])) < 0 {
		return 0, newParamError("since", "since is not a change cursor this calendar gave out")
	}
	return int64(binary.BigEndian.Uint64(b[1:])), nil
}

func newParamError(name, msg string) *Error {
	return &Error{Code: CodeInvalid, Reason: "rest_invalid_param", Message: "Invalid parameter(s): " + name,
		Params: map[string]string{name: msg}}
}

// changeLog returns the repository's log after checking the caller.
func (s *Service) changeLog(ctx context.Context) (ChangeLog, error) {
	if c := callerFrom(ctx); !c.canEditOthers() {
		return nil, c.deny("Sorry, you are not allowed to read the changes of this calendar.")
	}
	l, ok := s.repo.(ChangeLog)
	if !ok {
		return nil, &Error{Code: CodeInternal, Reason: "rest_changes_unsupported", Message: "This calendar's storage keeps no change log."}
	}
	return l, nil
}

func (s *Service) changesErr(ctx context.Context, err error) error {
	if errors.Is(err, ErrChangesExpired) {
		return ErrChangesExpired
	}
	return s.storageErr(ctx, "changes", err)
}

// Changes implements ChangeFeed.
func (s *Service) Changes(ctx context.Context, since string, limit int) (*ChangePage, error) {
	l, err := s.changeLog(ctx)
	if err != nil {
		return nil, err
	}
	if limit < 0 {
		return nil, newParamError("per_page", "per_page must be a positive integer")
	}
	if limit == 0 {
		limit = DefaultChangesLimit
	}
	if since == "" {
		last, err := l.LastChangeSeq(ctx)
		if err != nil {
			return nil, s.changesErr(ctx, err)
		}
		return &ChangePage{Changes: []Change{}, Next: ChangeCursor(last)}, nil
	}
	after, err := ParseChangeCursor(since)
	if err != nil {
		return nil, err
	}
	// One more than asked tells whether more are waiting.
	cs, err := l.ChangesAfter(ctx, after, limit+1)
	if err != nil {
		return nil, s.changesErr(ctx, err)
	}
	page := &ChangePage{Changes: cs, Next: since}
	if len(cs) > limit {
		page.Changes, page.More = cs[:limit], true
	}
	if n := len(page.Changes); n > 0 {
		page.Next = ChangeCursor(page.Changes[n-1].Seq)
	}
	return page, nil
}

// WatchChanges implements ChangeFeed.
func (s *Service) WatchChanges(ctx context.Context, since string) iter.Seq2[Change, error] {
	return func(yield func(Change, error) bool) {
		l, err := s.changeLog(ctx)
		if err != nil {
			yield(Change{}, err)
			return
		}
		var after int64
		if since == "" {
			after, err = l.LastChangeSeq(ctx)
		} else {
			after, err = ParseChangeCursor(since)
		}
		for err == nil {
			var cs []Change
			cs, err = l.ChangesAfter(ctx, after, DefaultChangesLimit)
			if err != nil {
				break
			}
			for _, c := range cs {
				if !yield(c, nil) {
					return
				}
				after = c.Seq
			}
			if len(cs) == 0 {
				err = l.WaitChanges(ctx, after)
			}
		}
		if ctx.Err() != nil {
			return
		}
		yield(Change{}, s.changesErr(ctx, err))
	}
}
