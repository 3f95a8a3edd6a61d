package httpadapter

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/eventcal/eventcal/calendar"
)

// httpError is a refusal made by the adapter itself, before any calendar
// operation (no route, body too large, bad media type, …).
type httpError struct {
	status  int
	code    string
	message string
}

func (e *httpError) Error() string { return e.code + ": " + e.message }

func errNoRoute(method, path string) error {
	return &httpError{http.StatusNotFound, "rest_no_route",
		fmt.Sprintf("No route was found matching the URL and request method (%s %s).", method, path)}
}

// errorData is the "data" member of an error body.
type errorData struct {
	Status  int                             `json:"status"`
	Params  any                             `json:"params,omitempty"`
	Details map[string]calendar.ParamDetail `json:"details,omitempty"`
	TermID  int64                           `json:"term_id,omitempty"`
}

type errorBody struct {
	Code    string    `json:"code"`
	Message string    `json:"message"`
	Data    errorData `json:"data"`
}

var codeStatus = map[calendar.Code]struct {
	status int
	reason string
}{
	calendar.CodeInvalid:            {http.StatusBadRequest, "rest_invalid_param"},
	calendar.CodeNotFound:           {http.StatusNotFound, "rest_not_found"},
	calendar.CodeForbidden:          {http.StatusForbidden, "rest_forbidden"},
	calendar.CodeUnauthenticated:    {http.StatusUnauthorized, "rest_forbidden"},
	calendar.CodeGone:               {http.StatusGone, "rest_gone"},
	calendar.CodeConflict:           {http.StatusConflict, "rest_conflict"},
	calendar.CodePreconditionFailed: {http.StatusPreconditionFailed, "rest_precondition_failed"},
	calendar.CodeUnavailable:        {http.StatusServiceUnavailable, "rest_storage_unavailable"},
}

// errorResponse maps any error to its status and body: the one place where
// calendar error codes become HTTP (wire §5). Unexpected errors are logged
// with their details and answered with a fixed message.
func errorResponse(log *slog.Logger, r *http.Request, err error) (int, errorBody) {
	var he *httpError
	if errors.As(err, &he) {
		return he.status, errorBody{Code: he.code, Message: he.message, Data: errorData{Status: he.status}}
	}
	var ce *calendar.Error
	if errors.As(err, &ce) {
		if m, ok := codeStatus[ce.Code]; ok {
			b := errorBody{Code: ce.Reason, Message: ce.Message, Data: errorData{Status: m.status}}
			if b.Code == "" {
				b.Code = m.reason
			}
			switch ce.Code {
			case calendar.CodeUnavailable:
				// The message of a storage failure may carry driver text.
				log.WarnContext(r.Context(), "storage unavailable", "method", r.Method, "path", r.URL.Path, "err", err)
				b.Message = "The calendar storage is unavailable at the moment; try again later."
				return m.status, b
			case calendar.CodeInvalid:
				if len(ce.Missing) > 0 {
					b.Data.Params = ce.Missing
				} else if len(ce.Params) > 0 {
					b.Data.Params = ce.Params
				}
				if len(ce.Details) > 0 {
					b.Data.Details = ce.Details
				}
			}
			b.Data.TermID = ce.TermID
			if b.Message == "" {
				b.Message = http.StatusText(m.status)
			}
			return m.status, b
		}
	}
	log.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	return http.StatusInternalServerError, errorBody{Code: "rest_internal_error",
		Message: "An internal error occurred.", Data: errorData{Status: http.StatusInternalServerError}}
}

// writeError sends the error body of err.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, body := errorResponse(h.log, r, err)
	b, mErr := json.Marshal(body)
	if mErr != nil { // cannot happen: the body holds only strings, ints and maps of them
		b = []byte(`{"code":"rest_internal_error","message":"An internal error occurred.","data":{"status":500}}`)
		status = http.StatusInternalServerError
	}
	hd := w.Header()
	hd.Set("Content-Type", contentTypeJSON)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Del("ETag")
	if status == http.StatusUnauthorized {
		h.challenge(hd)
	}
	w.WriteHeader(status)
	w.Write(b)
}

const contentTypeJSON = "application/json; charset=UTF-8"
