package memstore

import (
	"context"
	"fmt"

	"github.com/eventcal/eventcal/calendar"
)

// checkCtx returns ctx.Err() wrapped, so callers can test it with errors.Is.
func checkCtx(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	return nil
}

func errPostNotFound(id int64) error {
	return fmt.Errorf("memstore: post %d: %w", id, calendar.ErrNotFound)
}

func errTermNotFound(id int64) error {
	return fmt.Errorf("memstore: term %d: %w", id, calendar.ErrNotFound)
}

func errVersion(what string, id, want, have int64) error {
	return fmt.Errorf("memstore: %s %d has version %d, not %d: %w", what, id, have, want, calendar.ErrConflict)
}

// errInvalid reports a request no driver could honour (a nil record, an
// unknown kind, a kind change); Calendar never sends one.
func errInvalid(format string, args ...any) error {
	return fmt.Errorf("memstore: "+format+": %w", append(args, calendar.ErrInvalid)...)
}

func errSlugNotFound(kind, slug string) error {
	return fmt.Errorf("memstore: %s with slug %q: %w", kind, slug, calendar.ErrNotFound)
}

// errLinkMissing: a record a write links to does not exist (or is of
// another kind).
func errLinkMissing(k calendar.Kind, id int64) error {
	return fmt.Errorf("memstore: linked %s %d: %w", k, id, calendar.ErrNotFound)
}
