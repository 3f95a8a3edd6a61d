package httpadapter

import (
	"errors"
	"reflect"

	"github.com/eventcal/eventcal/calendar"
)

// carryInvalid moves the arguments recorded as bad in v into the Invalid
// field of dst (a pointer to a calendar query or input struct) and empties v.
// The calendar then reports them together with the bad arguments only it can
// see, in one error, and only after its own permission checks — so a caller
// without the right gets 401/403, not 400, and a bad argument never lets a
// write through (a non-empty Invalid always fails validation).
func carryInvalid(dst any, v *calendar.Validation) {
	var ce *calendar.Error
	if !errors.As(v.Err(), &ce) {
		return
	}
	m := make(map[string]string, len(ce.Params)+len(ce.Missing))
	for name, msg := range ce.Params {
		m[name] = msg
	}
	for _, name := range ce.Missing {
		m[name] = name + " is required."
	}
	reflect.ValueOf(dst).Elem().FieldByName("Invalid").Set(reflect.ValueOf(m))
	*v = calendar.Validation{}
}
