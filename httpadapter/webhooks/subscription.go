package webhooks

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"time"
)

// Subscription is what a SubscriptionStore keeps for one webhook target.
type Subscription struct {
	// ID identifies the subscription; it is part of every webhook-id and of
	// the lease name, so it must never be reused for another subscription.
	ID int64
	// URL is the target, checked by ValidateTarget when the subscription is
	// created or changed.
	URL string
	// Secret signs deliveries: "whsec_" and the base64 of 24 to 64 random
	// bytes (NewSecret).
	Secret string
	// Types are the event types delivered ("event.created", …, or TypeAll).
	// Changes of other types are skipped: the cursor moves past them.
	Types []string
	// Filter optionally narrows delivery to records related to some
	// categories, venues or organizers (see Matcher).
	Filter Filter
	// Disabled subscriptions are not delivered until re-enabled.
	Disabled bool
	// DisabledReason says why the Dispatcher disabled it ("" otherwise).
	DisabledReason string
	// Progress is the delivery state the Dispatcher saves.
	Progress
}

// Progress is the delivery state of a subscription. The Dispatcher reads it
// when it takes a subscription's lease and saves it as it goes; stores keep it
// as given, except that a saved Cursor never moves backwards.
type Progress struct {
	// Cursor is the Seq of the last change acknowledged or skipped: delivery
	// goes on with the change after it. A new subscription starts at the
	// log's last Seq, so it receives the changes made after its creation.
	Cursor uint64
	// FailingSince is when the current run of failed attempts began; zero
	// after a success. Kept across restarts, so the disabling limit counts
	// continuous failure, not failure within one process.
	FailingSince time.Time
	// Attempts counts failed attempts at the change after Cursor.
	Attempts int
	// LastError describes the last failed attempt ("" after a success).
	LastError string
}

// Filter narrows a subscription to records related to any of the listed
// categories, to any of the listed venues and to any of the listed
// organizers (the lists combine with AND, their ids with OR, as in event
// lists). The empty Filter lets everything through.
type Filter struct {
	Categories []int64
	Venues     []int64
	Organizers []int64
}

// IsZero reports whether the filter lets every change through.
func (f Filter) IsZero() bool {
	return len(f.Categories) == 0 && len(f.Venues) == 0 && len(f.Organizers) == 0
}

// Wants reports whether the subscription's event types include c's.
func (s Subscription) Wants(c Change) bool {
	t := c.Type()
	for _, v := range s.Types {
		if v == TypeAll || v == t {
			return true
		}
	}
	return false
}

// ErrInvalid is matched (errors.Is) by every *InvalidError.
var ErrInvalid = errors.New("webhooks: invalid argument")

// InvalidError names every invalid argument of a subscription at once, by
// the names the REST API uses ("url", "events", "secret", …).
type InvalidError struct {
	Params map[string]string // argument name → what is wrong with it
}

// Error lists the arguments and their reasons, sorted by name.
func (e *InvalidError) Error() string {
	var b strings.Builder
	b.WriteString("webhooks: invalid ")
	for i, k := range slices.Sorted(maps.Keys(e.Params)) {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(k)
		b.WriteString(": ")
		b.WriteString(e.Params[k])
	}
	return b.String()
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

func (e *InvalidError) add(param, reason string) {
	if e.Params == nil {
		e.Params = map[string]string{}
	}
	if _, dup := e.Params[param]; !dup {
		e.Params[param] = reason
	}
}

func (e *InvalidError) orNil() error {
	if len(e.Params) == 0 {
		return nil
	}
	return e
}

// Validate checks what an admin gives for a subscription: the URL under the
// policy (argument "url"), the event types ("events": at least one, each
// TypeAll or one of EventTypes) and the secret ("secret"). It returns an
// *InvalidError naming every bad argument, or nil.
func (s Subscription) Validate(p TargetPolicy) error {
	var inv InvalidError
	if err := ValidateTarget(s.URL, p); err != nil {
		var ie *InvalidError
		if errors.As(err, &ie) {
			for k, v := range ie.Params {
				inv.add(k, v)
			}
		}
	}
	if len(s.Types) == 0 {
		inv.add("events", "at least one event type is required")
	}
	for _, t := range s.Types {
		if !validEventType(t) {
			inv.add("events", "unknown event type "+quote(t))
		}
	}
	if _, err := parseSecret(s.Secret); err != nil {
		inv.add("secret", err.Error())
	}
	return inv.orNil()
}

func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return `"` + s + `"`
}
