package httpadapter

import (
	"errors"

	"github.com/eventcal/eventcal/calendar"
)

// takeInvalid empties v and returns the arguments it recorded as bad, for
// the Invalid field of a calendar query or input. The calendar then reports
// them together with the bad arguments only it can see, in one error, and
// only after its own permission checks — so a caller without the right gets
// 401/403, not 400, and a bad argument never lets a write through (a
// non-empty Invalid always fails validation). Each kind names its Invalid
// field with an accessor (postKind.invalid, postKind.qinvalid), so nothing
// reflects on the domain types.
func takeInvalid(v *calendar.Validation) map[string]string {
	var ce *calendar.Error
	if !errors.As(v.Err(), &ce) {
		return nil
	}
	m := make(map[string]string, len(ce.Params)+len(ce.Missing))
	for name, msg := range ce.Params {
		m[name] = msg
	}
	for _, name := range ce.Missing {
		m[name] = name + " is required."
	}
	*v = calendar.Validation{}
	return m
}
