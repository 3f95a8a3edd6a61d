package webhooks

import (
	"strconv"
	"strings"
	"time"
)

// Kind names the kind of record a change is about.
type Kind string

// The five kinds of record.
const (
	KindEvent     Kind = "event"
	KindVenue     Kind = "venue"
	KindOrganizer Kind = "organizer"
	KindCategory  Kind = "category"
	KindTag       Kind = "tag"
)

// Kinds lists every kind, in the order event types are documented.
var Kinds = []Kind{KindEvent, KindVenue, KindOrganizer, KindCategory, KindTag}

// collection is the REST collection of a kind, for rest_url.
func (k Kind) collection() string {
	switch k {
	case KindCategory:
		return "categories"
	default:
		return string(k) + "s"
	}
}

// Action names what a write did to a record.
type Action string

// The five actions.
const (
	ActionCreated  Action = "created"
	ActionUpdated  Action = "updated"
	ActionTrashed  Action = "trashed"
	ActionRestored Action = "restored"
	ActionDeleted  Action = "deleted"
)

// Actions lists every action.
var Actions = []Action{ActionCreated, ActionUpdated, ActionTrashed, ActionRestored, ActionDeleted}

// Change is one entry of a calendar's change log: one record touched by one
// committed write. It carries no field values; receivers fetch the record
// (rest_url) when they need it.
//
// A ChangeSource must provide every field but Series, which is set only for
// occurrences of a recurring event.
type Change struct {
	// Seq orders the log: strictly increasing, without gaps, in commit order,
	// starting at 1. It is the cursor a subscription advances.
	Seq uint64
	// Time is when the write committed.
	Time time.Time
	// Kind and ID name the record.
	Kind Kind
	ID   int64
	// Action is what the write did.
	Action Action
	// Version is the record's version after the write.
	Version int64
	// Series is the id of the recurring event this occurrence belongs to, 0
	// for anything else.
	Series int64
}

// Type is the event type of the change as subscriptions name it:
// "event.updated", "tag.deleted", ….
func (c Change) Type() string { return string(c.Kind) + "." + string(c.Action) }

// TypeAll subscribes to every event type.
const TypeAll = "*"

// EventTypes lists every event type a subscription may name, besides TypeAll.
func EventTypes() []string {
	out := make([]string, 0, len(Kinds)*len(Actions))
	for _, k := range Kinds {
		for _, a := range Actions {
			out = append(out, string(k)+"."+string(a))
		}
	}
	return out
}

// validEventType reports whether t is TypeAll or one of EventTypes.
func validEventType(t string) bool {
	if t == TypeAll {
		return true
	}
	k, a, ok := strings.Cut(t, ".")
	if !ok {
		return false
	}
	kindOK, actionOK := false, false
	for _, v := range Kinds {
		kindOK = kindOK || string(v) == k
	}
	for _, v := range Actions {
		actionOK = actionOK || string(v) == a
	}
	return kindOK && actionOK
}

// MessageID is the webhook-id of change seq delivered to subscription sub:
// the same on every attempt, so receivers can drop duplicates.
func MessageID(sub int64, seq uint64) string {
	b := make([]byte, 0, 32)
	b = append(b, "msg_"...)
	b = strconv.AppendInt(b, sub, 10)
	b = append(b, '_')
	b = strconv.AppendUint(b, seq, 10)
	return string(b)
}
