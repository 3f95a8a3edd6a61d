package boltstore

import (
	"fmt"

	"github.com/eventcal/eventcal/calendar"
)

func errPostNotFound(id int64) error {
	return fmt.Errorf("boltstore: post %d: %w", id, calendar.ErrNotFound)
}

func errTermNotFound(id int64) error {
	return fmt.Errorf("boltstore: term %d: %w", id, calendar.ErrNotFound)
}

func errVersion(what string, id, want, have int64) error {
	return fmt.Errorf("boltstore: %s %d has version %d, not %d: %w", what, id, have, want, calendar.ErrConflict)
}

// errInvalid reports a request no driver could honour (a nil record, an
// unknown kind, a kind change); Calendar never sends one.
func errInvalid(format string, args ...any) error {
	return fmt.Errorf("boltstore: "+format+": %w", append(args, calendar.ErrInvalid)...)
}

// errLinkMissing: a record a write links to does not exist (or is of
// another kind).
func errLinkMissing(k calendar.Kind, id int64) error {
	return fmt.Errorf("boltstore: linked %s %d: %w", k, id, calendar.ErrNotFound)
}
