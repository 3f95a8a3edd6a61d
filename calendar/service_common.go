package calendar

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of write fields (domain §10).
const (
	maxNameLen = 1000    // characters of a title or name
	maxTextLen = 1 << 20 // bytes of a description or excerpt
	maxCostLen = 100     // characters of one cost value
	maxPageNum = 1 << 30 // a page number beyond any real list
)

// tooMany refuses an array argument holding more than the maxItems items
// (WithMaxItems), naming it in v, and reports whether it did. Callers check
// before any storage work, so the cost of one request stays bounded.
func (s *Service) tooMany(v *Validation, arg string, n int) bool {
	if n <= s.maxItems {
		return false
	}
	v.Add(arg, fmt.Sprintf("%s holds %d items; at most %d are allowed", arg, n, s.maxItems))
	return true
}

// lang resolves the language of one operation.
func (s *Service) lang(l Lang) (Lang, error) {
	if l == "" {
		return s.defaultLang, nil
	}
	l = Lang(strings.ToLower(string(l)))
	if !l.Valid() {
		return "", invalidParam("translation_language", fmt.Sprintf("translation_language is not one of %s", langList()))
	}
	return l, nil
}

func langList() string {
	parts := make([]string, len(Languages))
	for i, l := range Languages {
		parts[i] = string(l)
	}
	return strings.Join(parts, ", ")
}

// storageErr turns a repository error into a calendar error: conflicts and
// unavailability keep their code, context errors pass through, anything else
// is internal (logged, never shown).
func (s *Service) storageErr(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	var ce *Error
	if errors.As(err, &ce) && ce.Reason != "" {
		return err // already a calendar error
	}
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, ErrUnavailable):
		return &Error{Code: CodeUnavailable, Reason: "rest_storage_unavailable", Message: "The calendar storage is unavailable; try again later.", Err: err}
	case errors.Is(err, ErrConflict):
		return &Error{Code: CodePreconditionFailed, Reason: "rest_precondition_failed", Message: "The record was changed by someone else.", Err: err}
	case errors.Is(err, ErrNotFound):
		return &Error{Code: CodeNotFound, Reason: "rest_not_found", Message: "Not found.", Err: err}
	}
	s.log().ErrorContext(ctx, "calendar: storage error", "op", op, "err", err)
	return &Error{Code: CodeInternal, Reason: "rest_internal_error", Message: "Internal error.", Err: err}
}

// paging validates page and per_page and returns the page, the size used and
// the offset.
func (s *Service) paging(v *Validation, page, perPage int) (int, int, int) {
	if page < 0 {
		v.Add("page", "page must be a positive integer")
	}
	if perPage < 0 {
		v.Add("per_page", "per_page must be a positive integer")
	}
	if page <= 0 {
		page = 1
	}
	if page > maxPageNum {
		// Any integer is a valid page; one this far is past every list,
		// and clamping keeps the offset from overflowing.
		page = maxPageNum
	}
	if perPage <= 0 {
		perPage = DefaultPerPage
	}
	if perPage > s.maxPerPage {
		perPage = s.maxPerPage
	}
	return page, perPage, (page - 1) * perPage
}

func totalPages(total, perPage int) int {
	if total == 0 {
		return 0
	}
	return (total + perPage - 1) / perPage
}

// checkName validates a required title or name that was sent.
func checkName(v *Validation, arg, s string) string {
	t := strings.TrimSpace(s)
	switch {
	case !utf8.ValidString(s):
		v.Add(arg, arg+" is not valid UTF-8")
	case t == "":
		v.Add(arg, arg+" must not be empty")
	case utf8.RuneCountInString(t) > maxNameLen:
		v.Add(arg, fmt.Sprintf("%s is longer than %d characters", arg, maxNameLen))
	}
	return t
}

// checkText validates a description or excerpt.
func checkText(v *Validation, arg, s string) {
	switch {
	case !utf8.ValidString(s):
		v.Add(arg, arg+" is not valid UTF-8")
	case len(s) > maxTextLen:
		v.Add(arg, fmt.Sprintf("%s is larger than %d bytes", arg, maxTextLen))
	}
}

// checkShort validates a short plain field (address, phone, …).
func checkShort(v *Validation, arg, s string) string {
	switch {
	case !utf8.ValidString(s):
		v.Add(arg, arg+" is not valid UTF-8")
	case utf8.RuneCountInString(s) > maxNameLen:
		v.Add(arg, fmt.Sprintf("%s is longer than %d characters", arg, maxNameLen))
	}
	return strings.TrimSpace(s)
}

// checkURL validates an absolute http(s) URL or empty.
func checkURL(v *Validation, arg, s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !isHTTPURL(s) {
		v.Add(arg, arg+" must be an absolute http or https URL")
	}
	return s
}

func isHTTPURL(s string) bool {
	if !utf8.ValidString(s) || len(s) > 2048 || strings.ContainsAny(s, " \t\r\n<>\"") {
		return false
	}
	lower := strings.ToLower(s)
	var rest string
	switch {
	case strings.HasPrefix(lower, "https://"):
		rest = s[len("https://"):]
	case strings.HasPrefix(lower, "http://"):
		rest = s[len("http://"):]
	default:
		return false
	}
	host := rest
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndex(host, "@"); i >= 0 {
		host = host[i+1:]
	}
	return host != "" && host[0] != ':'
}

// checkEmail validates empty or a plausible address.
func checkEmail(v *Validation, arg, s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	at := strings.LastIndex(s, "@")
	if at <= 0 || at == len(s)-1 || !strings.Contains(s[at+1:], ".") || strings.ContainsAny(s, " \t\r\n<>,;\"") ||
		!utf8.ValidString(s) || len(s) > 254 || strings.HasSuffix(s, ".") {
		v.Add(arg, arg+" is not a valid email address")
	}
	return s
}

// checkImage validates an image URL or an id the image resolver knows.
func (s *Service) checkImage(ctx context.Context, v *Validation, arg, val string) string {
	val = strings.TrimSpace(val)
	if val == "" || val == "0" || strings.EqualFold(val, "false") {
		return ""
	}
	if isHTTPURL(val) {
		return val
	}
	id, err := strconv.ParseInt(val, 10, 64)
	if err != nil || id <= 0 {
		v.Add(arg, arg+" must be an absolute http(s) URL or an image id")
		return ""
	}
	if s.images == nil {
		v.Add(arg, fmt.Sprintf("image %d is unknown", id))
		return ""
	}
	_, ok, err := s.images.ResolveImage(ctx, id)
	if err != nil || !ok {
		v.Add(arg, fmt.Sprintf("image %d is unknown", id))
		return ""
	}
	return strconv.FormatInt(id, 10)
}

// image resolves a stored image reference for reading.
func (s *Service) image(ctx context.Context, ref string) *Image {
	if ref == "" {
		return nil
	}
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		if s.images == nil {
			return nil
		}
		img, ok, err := s.images.ResolveImage(ctx, id)
		if err != nil || !ok || img == nil {
			return nil
		}
		c := *img
		if c.ID == 0 {
			c.ID = id
		}
		return &c
	}
	img := &Image{URL: ref}
	path := ref
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if i := strings.LastIndex(path, "."); i >= 0 && i > strings.LastIndex(path, "/") {
		img.Extension = strings.ToLower(path[i+1:])
	}
	return img
}

// checkAuthor validates an author id sent on write.
func (s *Service) checkAuthor(ctx context.Context, c caller, v *Validation, id int64) error {
	if id <= 0 {
		v.Add("author", "author must be a positive user id")
		return nil
	}
	if id != c.ID && !c.canEditOthers() {
		return c.deny("Sorry, you are not allowed to set another author.")
	}
	if s.users != nil {
		_, ok, err := s.users.LookupUser(ctx, id)
		if err != nil {
			return s.storageErr(ctx, "lookup user", err)
		}
		if !ok {
			v.Add("author", fmt.Sprintf("user %d does not exist", id))
		}
	}
	return nil
}

// checkStatus decides the status to store from the one asked (may be empty),
// per the scale-back rules; private and trash need the publish right.
func checkStatus(c caller, v *Validation, asked string, creating bool) (Status, error) {
	st := Status(asked) // exact lower-case words: PUBLISH or " draft" is no status
	if asked == "" {
		if !creating {
			return "", nil
		}
		if c.canPublish() {
			return StatusPublish, nil
		}
		return StatusDraft, nil
	}
	if !st.Valid() {
		v.Add("status", "status is not one of publish, future, draft, pending, private, trash")
		return "", nil
	}
	if c.canPublish() {
		return st, nil
	}
	switch st {
	case StatusPublish, StatusFuture:
		return StatusPending, nil
	case StatusPrivate, StatusTrash:
		return "", c.deny("Sorry, you are not allowed to set that status.")
	}
	return st, nil
}

// scheduled applies the future/publish rule to a stored status and date.
func scheduled(st Status, date, now time.Time) Status {
	switch {
	case st == StatusPublish && date.After(now):
		return StatusFuture
	case st == StatusFuture && !date.After(now):
		return StatusPublish
	}
	return st
}

// publicationDate parses date / date_utc (date_utc wins).
func (s *Service) publicationDate(v *Validation, date, dateUTC Opt[string], loc *time.Location, now time.Time) (time.Time, bool) {
	var t time.Time
	set := false
	if date.Set && strings.TrimSpace(date.Value) != "" {
		if d, err := ParseDate(date.Value, loc, now); err != nil {
			v.Add("date", err.Error())
		} else {
			t, set = d, true
		}
	}
	if dateUTC.Set && strings.TrimSpace(dateUTC.Value) != "" {
		if d, err := ParseDate(dateUTC.Value, time.UTC, now); err != nil {
			v.Add("date_utc", err.Error())
		} else {
			t, set = d, true
		}
	}
	return t.UTC().Truncate(time.Second), set
}

// searchWords splits a search string into words in FoldSearch form.
func searchWords(s string) []string {
	fields := strings.Fields(FoldSearch(s))
	if len(fields) > 32 {
		fields = fields[:32]
	}
	return fields
}

// haversineKM is the great-circle distance between two points.
func haversineKM(lat1, lng1, lat2, lng2 float64) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	dlat := (lat2 - lat1) * rad
	dlng := (lng2 - lng1) * rad
	a := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dlng/2)*math.Sin(dlng/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(a)))
}

func boolPtr(b bool) *bool { return &b }

func orTrue(b *bool) *bool {
	if b == nil {
		return boolPtr(true)
	}
	return boolPtr(*b)
}
