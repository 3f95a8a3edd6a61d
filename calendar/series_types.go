package calendar

import "time"

// Scope says which records an update of one occurrence of a series reaches.
type Scope string

const (
	// ScopeThis (also the empty Scope) detaches the addressed occurrence and
	// changes it alone.
	ScopeThis Scope = "this"
	// ScopeFollowing splits the series at the addressed occurrence: the old
	// series ends before it and a new series, taking the change, starts there.
	ScopeFollowing Scope = "following"
)

// SeriesMode says how a list treats recurring events.
type SeriesMode string

const (
	// SeriesOccurrences (also the empty SeriesMode) lists occurrences and
	// single events; series records are not listed.
	SeriesOccurrences SeriesMode = "occurrences"
	// SeriesRecords lists series records, single events and detached
	// occurrences instead of the occurrences a rule makes, for clients that
	// expand rules themselves.
	SeriesRecords SeriesMode = "series"
)

// SeriesLink is what an occurrence knows of its series.
type SeriesLink struct {
	ID int64 // the series' id
	// RecurrenceID is the occurrence's original start instant, which never
	// changes (RFC 5545 RECURRENCE-ID), in the series' zone.
	RecurrenceID time.Time
	// Detached reports whether the occurrence was edited on its own and
	// keeps its own fields.
	Detached bool
}

// StoredSeries is the restriction of a PostQuery on recurring events.
type StoredSeries uint8

const (
	// SeriesAny (the zero value) restricts nothing.
	SeriesAny StoredSeries = iota
	// SeriesHideTemplates leaves out series records (posts with a
	// Recurrence): what event lists show by default.
	SeriesHideTemplates
	// SeriesHideInstances leaves out occurrences that are not detached
	// (PostParent set, RecurrenceID set, Detached false).
	SeriesHideInstances
)
