package calendar

import (
	"errors"
	"slices"
	"sort"
	"strings"
)

// Code classifies an error. The HTTP adapter maps each code to a status code
// in one place; in-process callers test for them with errors.Is against the
// sentinel errors below.
type Code string

// Error codes.
const (
	CodeNotFound           Code = "not_found"
	CodeInvalid            Code = "invalid"
	CodeForbidden          Code = "forbidden"
	CodeUnauthenticated    Code = "unauthenticated"
	CodeGone               Code = "gone"
	CodeConflict           Code = "conflict"
	CodePreconditionFailed Code = "precondition_failed"
	CodeUnavailable        Code = "unavailable"
	CodeInternal           Code = "internal"
)

// Sentinel errors, one per code, for errors.Is. Any *Error with the same code
// matches its sentinel.
var (
	ErrNotFound           = &Error{Code: CodeNotFound, Message: "not found"}
	ErrInvalid            = &Error{Code: CodeInvalid, Message: "invalid argument"}
	ErrForbidden          = &Error{Code: CodeForbidden, Message: "forbidden"}
	ErrUnauthenticated    = &Error{Code: CodeUnauthenticated, Message: "authentication required"}
	ErrGone               = &Error{Code: CodeGone, Message: "gone"}
	ErrConflict           = &Error{Code: CodeConflict, Message: "conflict"}
	ErrPreconditionFailed = &Error{Code: CodePreconditionFailed, Message: "version mismatch"}
	ErrUnavailable        = &Error{Code: CodeUnavailable, Message: "storage unavailable"}
	ErrInternal           = &Error{Code: CodeInternal, Message: "internal error"}
)

// Error is the error value of every Calendar operation.
//
// Reason is the machine-readable code existing REST clients know
// ("rest_forbidden", "event-not-accessible", "rest_invalid_param", …); the
// adapter sends it as the "code" of its error body.
type Error struct {
	Code    Code
	Reason  string
	Message string
	// Params names every invalid argument with a message (Code invalid).
	Params map[string]string
	// Details carries a specific reason per argument where one exists.
	Details map[string]ParamDetail
	// Missing lists required arguments that were not given.
	Missing []string
	// TermID is the existing term's id for Reason "term_exists".
	TermID int64
	// Err is the underlying cause, never shown to remote callers.
	Err error
}

// ParamDetail is a specific reason an argument was refused.
type ParamDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error returns the message followed by the missing and invalid arguments
// and the underlying cause (for logs; the HTTP adapter never sends it).
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	if len(e.Missing) > 0 {
		b.WriteString(": missing ")
		b.WriteString(strings.Join(e.Missing, ", "))
	}
	if len(e.Params) > 0 {
		names := make([]string, 0, len(e.Params))
		for k := range e.Params {
			names = append(names, k)
		}
		sort.Strings(names)
		for i, k := range names {
			if i == 0 {
				b.WriteString(": ")
			} else {
				b.WriteString("; ")
			}
			b.WriteString(k + ": " + e.Params[k])
		}
	}
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrNotFound) and friends work for any *Error with
// the same Code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && (t.Reason == "" || t.Reason == e.Reason)
}

// CodeOf returns the code of err, CodeInternal for an error that is not an
// *Error, and "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

func newError(code Code, reason, msg string) *Error {
	return &Error{Code: code, Reason: reason, Message: msg}
}

// Validation collects every bad argument of one call so that one error names
// them all.
type Validation struct {
	params  map[string]string
	details map[string]ParamDetail
	missing []string
}

// Add records that argument name is invalid.
func (v *Validation) Add(name, msg string) {
	if v.params == nil {
		v.params = map[string]string{}
	}
	if _, dup := v.params[name]; !dup {
		v.params[name] = msg
	}
}

// AddDetail records an invalid argument with a specific reason code.
func (v *Validation) AddDetail(name, code, msg string) {
	v.Add(name, msg)
	if v.details == nil {
		v.details = map[string]ParamDetail{}
	}
	v.details[name] = ParamDetail{Code: code, Message: msg}
}

// AddAll records every argument of m (name → message) as invalid.
func (v *Validation) AddAll(m map[string]string) {
	for name, msg := range m {
		v.Add(name, msg)
	}
}

// Missing records that a required argument was not given.
func (v *Validation) Missing(name string) { v.missing = append(v.missing, name) }

// Has reports whether argument name has been recorded as bad.
func (v *Validation) Has(name string) bool { _, ok := v.params[name]; return ok }

// Err returns nil when nothing was recorded, else the *Error naming every bad
// argument. Missing arguments take precedence, as in the original interface;
// an argument that was sent with a bad value is invalid, never missing.
func (v *Validation) Err() error {
	v.missing = slices.DeleteFunc(v.missing, v.Has)
	if len(v.missing) > 0 {
		return &Error{Code: CodeInvalid, Reason: "rest_missing_callback_param",
			Message: "Missing parameter(s): " + strings.Join(v.missing, ", "),
			Missing: v.missing, Params: v.params, Details: v.details}
	}
	if len(v.params) == 0 {
		return nil
	}
	names := make([]string, 0, len(v.params))
	for k := range v.params {
		names = append(names, k)
	}
	sort.Strings(names)
	return &Error{Code: CodeInvalid, Reason: "rest_invalid_param",
		Message: "Invalid parameter(s): " + strings.Join(names, ", "),
		Params:  v.params, Details: v.details}
}

// invalidParam is a one-argument validation error.
// noSuchRecord is the error for an id or slug that names no record of the
// kind asked for. The REST interface answers it as an invalid argument (the
// original's 400), so its Code is CodeInvalid; for Go callers it also
// matches ErrNotFound, which is what it means.
func noSuchRecord(name, msg string) error {
	err := invalidParam(name, msg).(*Error)
	err.Err = ErrNotFound
	return err
}

func invalidParam(name, msg string) error {
	var v Validation
	v.Add(name, msg)
	return v.Err()
}
