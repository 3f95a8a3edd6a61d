package httpadapter

import (
	"errors"

	"github.com/eventcal/eventcal/calendar"
)

// The adapter keeps the arguments it could not decode (a wrong JSON type, a
// bad integer…) to itself, and reports them only after the calendar has had
// its say on the rest of the request: a caller without the right gets its
// 401/403/404, not a 400, and one 400 names every bad argument, the
// adapter's and the calendar's. A write with undecodable arguments runs with
// WriteOptions.ValidateOnly, so it is checked but never written.

// argErrors is the arguments the adapter could not decode (nil: none).
type argErrors map[string]string

// takeArgErrors empties v and returns what it recorded. A required argument
// the adapter found missing is reported as invalid, like a bad value.
func takeArgErrors(v *calendar.Validation) argErrors {
	var ce *calendar.Error
	if !errors.As(v.Err(), &ce) {
		return nil
	}
	bad := make(argErrors, len(ce.Params)+len(ce.Missing))
	for name, msg := range ce.Params {
		bad[name] = msg
	}
	for _, name := range ce.Missing {
		if _, dup := bad[name]; !dup {
			bad[name] = name + " is required."
		}
	}
	*v = calendar.Validation{}
	return bad
}

// report is the answer to a request with these bad arguments, given err,
// the outcome of the calendar call made with the rest: a refusal other than
// bad arguments stands as it is; the calendar's own bad and missing
// arguments are named with the adapter's (the adapter's message wins for an
// argument both name, and an argument sent with a bad value is never also
// "missing").
func (bad argErrors) report(err error) error {
	if len(bad) == 0 {
		return err
	}
	var v calendar.Validation
	for name, msg := range bad {
		v.Add(name, msg)
	}
	var ce *calendar.Error
	if errors.As(err, &ce) && ce.Code == calendar.CodeInvalid &&
		(ce.Reason == "rest_invalid_param" || ce.Reason == "rest_missing_callback_param") {
		for name, msg := range ce.Params {
			if d, ok := ce.Details[name]; ok && !v.Has(name) {
				v.AddDetail(name, d.Code, msg)
			} else {
				v.Add(name, msg)
			}
		}
		for _, name := range ce.Missing {
			v.Missing(name)
		}
	} else if err != nil {
		return err
	}
	return v.Err()
}

// writeOptions marks a write ValidateOnly when arguments were bad.
func (bad argErrors) writeOptions(opt calendar.WriteOptions) calendar.WriteOptions {
	if len(bad) > 0 {
		opt.ValidateOnly = true
	}
	return opt
}
