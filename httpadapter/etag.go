package httpadapter

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// ETags are `"<kind letter><id>-<version>"`: the id makes an ETag of one
// record useless as a precondition on another, the version changes on every
// write (wire §3, domain §11).

func etag(kind byte, id, version int64) string {
	b := make([]byte, 0, 24)
	b = append(b, '"', kind)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, version, 10)
	b = append(b, '"')
	return string(b)
}

// parseETag reads one of our strong ETags.
func parseETag(t string) (kind byte, id, version int64, ok bool) {
	t = strings.TrimSpace(t)
	if len(t) < 5 || t[0] != '"' || t[len(t)-1] != '"' {
		return 0, 0, 0, false
	}
	t = t[1 : len(t)-1]
	kind = t[0]
	idText, verText, found := strings.Cut(t[1:], "-")
	if !found {
		return 0, 0, 0, false
	}
	var ok1, ok2 bool
	id, ok1 = parseDigits(idText)
	version, ok2 = parseDigits(verText)
	return kind, id, version, ok1 && ok2 && id > 0 && version > 0
}

func errPrecondition() error {
	return &calendar.Error{Code: calendar.CodePreconditionFailed, Reason: "rest_precondition_failed",
		Message: "The record has changed since the version given in If-Match."}
}

// ifMatch returns the version an update or delete must find (0: no
// precondition). id is the record's id; 0 means not yet known (by-slug
// routes), in which case wantID returns the id the ETag names.
func ifMatch(r *http.Request, kind byte, id int64) (version, wantID int64, err error) {
	h := r.Header.Get("If-Match")
	if h == "" || strings.TrimSpace(h) == "*" {
		return 0, 0, nil
	}
	for _, t := range strings.Split(h, ",") {
		k, tid, ver, ok := parseETag(t)
		if !ok || k != kind || (id != 0 && tid != id) {
			continue // weak, foreign or another record's ETag never matches
		}
		return ver, tid, nil
	}
	return 0, 0, errPrecondition()
}

// notModified reports whether If-None-Match names the current ETag.
func notModified(r *http.Request, tag string) bool {
	h := r.Header.Get("If-None-Match")
	if h == "" {
		return false
	}
	for _, t := range strings.Split(h, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == tag || t == "*" {
			return true
		}
	}
	return false
}
