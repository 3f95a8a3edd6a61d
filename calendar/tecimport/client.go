package tecimport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Namespace is the REST namespace of the original plugin.
const Namespace = "tribe/events/v1"

// ErrCredentials is wrapped by the error of a request the site refused
// (401 or 403) although credentials were given.
var ErrCredentials = errors.New("the site refused the credentials")

// ErrNotFound is wrapped when no REST interface of the original plugin is
// found at the address given.
var ErrNotFound = errors.New("no tribe/events/v1 REST interface found")

// HTTPError is an answer outside 2xx that was not retried (or still failed
// after the last try).
type HTTPError struct {
	URL     string
	Status  int
	Code    string // the WordPress error code ("rest_forbidden", …), if any
	Message string
}

// Error names the URL, the status and WordPress's code and message.
func (e *HTTPError) Error() string {
	s := fmt.Sprintf("GET %s: HTTP %d", e.URL, e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// SiteInfo is what the site's REST index says about it.
type SiteInfo struct {
	Name string
	URL  string
	// TimeZone is the site's zone name (WordPress timezone_string); empty
	// when the site is set to a bare UTC offset (see GMTOffset).
	TimeZone  string
	GMTOffset float64
	// API is the namespace URL the client reads from.
	API string
}

// Client reads a site through the original REST interface. Make one with
// Connect; it is safe for concurrent use.
type Client struct {
	cfg       *config
	api       *url.URL // pretty: the namespace URL; rest_route: the site URL
	restRoute bool
	perPage   atomic.Int64 // page size that works; 0: the site's default
	info      SiteInfo

	requests, retries atomic.Int64
	// onRetry, when set, hears about every retried request.
	onRetry func(u string, err error, attempt int, wait time.Duration)
}

// Connect finds the REST interface of the original plugin from a site URL
// ("https://example.com"), the REST root ("https://example.com/wp-json/")
// or the namespace itself (".../wp-json/tribe/events/v1"), also for sites
// without pretty permalinks ("/?rest_route=/"). A bare host gets https://.
func Connect(ctx context.Context, from string, opts ...Option) (*Client, error) {
	return connect(ctx, from, newConfig(opts))
}

func connect(ctx context.Context, from string, cfg *config) (*Client, error) {
	if !strings.Contains(from, "://") {
		from = "https://" + from
	}
	u, err := url.Parse(from)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("tecimport: %q is not an http(s) URL", from)
	}
	u.Fragment = ""
	c := &Client{cfg: cfg}
	c.perPage.Store(int64(cfg.perPage))
	root, err := c.findRoot(ctx, u)
	if err != nil {
		return nil, err
	}
	var index struct {
		Name           string   `json:"name"`
		URL            string   `json:"url"`
		GMTOffset      any      `json:"gmt_offset"`
		TimeZoneString string   `json:"timezone_string"`
		Namespaces     []string `json:"namespaces"`
	}
	body, _, err := c.get(ctx, root.String())
	if err == nil {
		err = json.Unmarshal(body, &index)
	}
	if err != nil {
		if errors.Is(err, ErrCredentials) || ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("tecimport: %w at %s: %v", ErrNotFound, from, err)
	}
	if !slices.Contains(index.Namespaces, Namespace) {
		return nil, fmt.Errorf("tecimport: %w at %s: the site's REST index lists no %s (is The Events Calendar active?)", ErrNotFound, root, Namespace)
	}
	c.info = SiteInfo{Name: index.Name, URL: index.URL, TimeZone: index.TimeZoneString}
	switch off := index.GMTOffset.(type) {
	case float64:
		c.info.GMTOffset = off
	case string:
		c.info.GMTOffset, _ = strconv.ParseFloat(off, 64)
	}
	if c.restRoute {
		c.api = root
	} else {
		c.api = root.JoinPath(Namespace)
	}
	c.info.API = c.endpoint("", nil)
	return c, nil
}

// findRoot works out the REST root from what the user gave.
func (c *Client) findRoot(ctx context.Context, u *url.URL) (*url.URL, error) {
	if rr := u.Query().Get("rest_route"); rr != "" {
		c.restRoute = true
		r := *u
		r.RawQuery = url.Values{"rest_route": {"/"}}.Encode()
		return &r, nil
	}
	if i := strings.Index(u.Path, "/"+Namespace); i >= 0 {
		r := *u
		r.Path, r.RawPath, r.RawQuery = u.Path[:i]+"/", "", ""
		return &r, nil
	}
	if p := strings.TrimSuffix(u.Path, "/"); strings.HasSuffix(p, "/wp-json") {
		r := *u
		r.Path, r.RawPath, r.RawQuery = p+"/", "", ""
		return &r, nil
	}
	// A site URL: WordPress announces its REST root in a Link header.
	if _, hdr, err := c.get(ctx, u.String()); err == nil {
		for _, l := range hdr.Values("Link") {
			for _, part := range strings.Split(l, ",") {
				target, params, ok := strings.Cut(strings.TrimSpace(part), ";")
				if !ok || !strings.Contains(params, `rel="https://api.w.org/"`) {
					continue
				}
				r, err := u.Parse(strings.Trim(strings.TrimSpace(target), "<>"))
				if err != nil {
					continue
				}
				if r.Query().Get("rest_route") != "" {
					c.restRoute = true
				}
				return r, nil
			}
		}
	} else if errors.Is(err, ErrCredentials) || ctx.Err() != nil {
		return nil, err
	}
	r := *u
	r.Path, r.RawPath, r.RawQuery = strings.TrimSuffix(u.Path, "/")+"/wp-json/", "", ""
	return &r, nil
}

// Site returns what the site's REST index said about it.
func (c *Client) Site() SiteInfo { return c.info }

// Requests returns the number of HTTP requests made and how many of them were retries.
func (c *Client) Requests() (total, retries int64) { return c.requests.Load(), c.retries.Load() }

// endpoint is the URL of a route of the namespace ("/events") with args.
func (c *Client) endpoint(route string, args url.Values) string {
	u := *c.api
	q := url.Values{}
	for k, v := range args {
		q[k] = v
	}
	if c.restRoute {
		q.Set("rest_route", "/"+Namespace+route)
	} else {
		u.Path = strings.TrimSuffix(u.Path, "/") + route
		u.RawPath = ""
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// sameSite reports whether next is on the scheme and host the client reads,
// so credentials never travel to a host a site's link names.
func (c *Client) sameSite(next string) bool {
	u, err := url.Parse(next)
	return err == nil && u.Scheme == c.api.Scheme && u.Host == c.api.Host
}

// wpError is WordPress's error body.
type wpError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Data    struct {
		Params map[string]any `json:"params"`
	} `json:"data"`
}

// get fetches u, retrying network errors, 408, 425, 429 and 5xx with
// exponential backoff and jitter.
func (c *Client) get(ctx context.Context, u string) ([]byte, http.Header, error) {
	for attempt := 1; ; attempt++ {
		body, hdr, status, err := c.once(ctx, u)
		if err == nil && status >= 200 && status < 300 {
			return body, hdr, nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, nil, ctxErr
		}
		var wait time.Duration
		if err == nil {
			var we wpError
			_ = json.Unmarshal(body, &we)
			herr := &HTTPError{URL: u, Status: status, Code: we.Code, Message: we.Message}
			switch status {
			case http.StatusUnauthorized, http.StatusForbidden:
				if c.cfg.user != "" && (status == http.StatusUnauthorized || authCode(we.Code)) {
					return nil, nil, fmt.Errorf("tecimport: %w of user %q (%v); check the user name and the application password (WordPress: Users → Profile → Application Passwords)",
						ErrCredentials, c.cfg.user, herr)
				}
				return nil, nil, herr
			case http.StatusRequestTimeout, http.StatusTooEarly, http.StatusTooManyRequests,
				http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
				err = herr
				if s, perr := strconv.Atoi(hdr.Get("Retry-After")); perr == nil && s >= 0 {
					wait = min(time.Duration(s)*time.Second, c.cfg.maxBackoff)
				}
			default:
				return nil, nil, herr
			}
		}
		if attempt >= c.cfg.attempts {
			return nil, nil, fmt.Errorf("tecimport: giving up after %d tries: %w", attempt, err)
		}
		if wait == 0 {
			wait = c.backoff(attempt)
		}
		c.retries.Add(1)
		if c.onRetry != nil {
			c.onRetry(u, err, attempt, wait)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, nil, ctx.Err()
		case <-t.C:
		}
	}
}

// authCode reports whether a 403 code says the credentials themselves were refused.
func authCode(code string) bool {
	switch code {
	case "incorrect_password", "invalid_username", "invalid_email", "rest_cookie_invalid_nonce", "application_passwords_disabled", "rest_not_logged_in":
		return true
	}
	return false
}

// backoff is the pause before try attempt+1: doubling from the first pause,
// up to the largest, with ±50% jitter so many clients do not retry in step.
func (c *Client) backoff(attempt int) time.Duration {
	d := c.cfg.backoff << min(attempt-1, 20)
	if d <= 0 || d > c.cfg.maxBackoff {
		d = c.cfg.maxBackoff
	}
	return d/2 + time.Duration(rand.Int64N(int64(d)+1))
}

// maxBody bounds one answer; a list page of 100 events is far smaller.
const maxBody = 256 << 20

func (c *Client) once(ctx context.Context, u string) ([]byte, http.Header, int, error) {
	c.requests.Add(1)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, nil, 0, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "eventcal-tecimport/1")
	if c.cfg.user != "" {
		req.SetBasicAuth(c.cfg.user, c.cfg.password)
	}
	resp, err := c.cfg.httpClient.Do(req)
	if err != nil {
		return nil, nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, nil, 0, fmt.Errorf("reading the answer: %w", err)
	}
	if len(body) > maxBody {
		return nil, nil, 0, fmt.Errorf("answer larger than %d bytes", maxBody)
	}
	return body, resp.Header, resp.StatusCode, nil
}

// Page is one page of a list.
type Page struct {
	Number     int
	URL        string
	Items      []json.RawMessage
	Total      int
	TotalPages int
}

// PageError is a page that could not be read; the pages after it are still read.
type PageError struct {
	Collection string
	Number     int
	URL        string
	Err        error
}

// Error names the list and the page.
func (e *PageError) Error() string {
	return fmt.Sprintf("%s page %d could not be read: %v", e.Collection, e.Number, e.Err)
}

// Unwrap returns why the page could not be read.
func (e *PageError) Unwrap() error { return e.Err }

// fatal reports whether err must stop a whole run: refused credentials or
// the caller's context.
func fatal(err error) bool {
	return errors.Is(err, ErrCredentials) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Pages reads the list collection ("events", "venues", "organizers",
// "categories" or "tags") with args, page after page, following
// next_rest_url. A page that cannot be read is yielded as a *PageError and
// the next page is tried; a fatal error (refused credentials, a cancelled
// context) is yielded last.
func (c *Client) Pages(ctx context.Context, collection string, args url.Values) iter.Seq2[*Page, error] {
	return func(yield func(*Page, error) bool) {
		number, totalPages := 1, 0
		u := c.listURL(collection, args, 1)
		for {
			body, _, err := c.get(ctx, u)
			var herr *HTTPError
			if number == 1 && errors.As(err, &herr) && herr.Status == http.StatusBadRequest && perPageRefused(herr) {
				if c.lowerPerPage() {
					u = c.listURL(collection, args, 1)
					continue
				}
			}
			if number > 1 && errors.As(err, &herr) && herr.Status == http.StatusNotFound && strings.HasSuffix(herr.Code, "-archive-page-not-found") {
				return // the list shrank while we read it
			}
			var p *Page
			var next string
			if err == nil {
				p, next, err = decodePage(collection, body)
			}
			if err != nil {
				if fatal(err) {
					yield(nil, err)
					return
				}
				if !yield(nil, &PageError{Collection: collection, Number: number, URL: u, Err: err}) {
					return
				}
				if number >= totalPages {
					return
				}
				number++
				u = c.listURL(collection, args, number)
				continue
			}
			p.Number, p.URL = number, u
			totalPages = p.TotalPages
			if !yield(p, nil) {
				return
			}
			if len(p.Items) == 0 || number >= p.TotalPages && next == "" {
				return
			}
			number++
			if next == "" || next == u || !c.sameSite(next) {
				next = c.listURL(collection, args, number)
			}
			u = next
		}
	}
}

func (c *Client) listURL(collection string, args url.Values, page int) string {
	q := url.Values{}
	for k, v := range args {
		q[k] = v
	}
	if n := c.perPage.Load(); n > 0 {
		q.Set("per_page", strconv.FormatInt(n, 10))
	}
	if page > 1 {
		q.Set("page", strconv.Itoa(page))
	}
	return c.endpoint("/"+collection, q)
}

// lowerPerPage steps the page size down (asked → 50 → the site's default);
// false when there is nothing lower to try.
func (c *Client) lowerPerPage() bool {
	switch n := c.perPage.Load(); {
	case n > 50:
		c.perPage.Store(50)
	case n > 0:
		c.perPage.Store(0)
	default:
		return false
	}
	return true
}

func perPageRefused(e *HTTPError) bool {
	return strings.Contains(e.Message, "per_page")
}

// decodePage reads a list body: {<collection>: [...], next_rest_url, total, total_pages}.
func decodePage(collection string, body []byte) (*Page, string, error) {
	var env map[string]json.RawMessage
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, "", fmt.Errorf("the list is not JSON: %w", err)
	}
	p := &Page{}
	raw, ok := env[collection]
	if !ok {
		return nil, "", fmt.Errorf("the list has no %q", collection)
	}
	if err := json.Unmarshal(raw, &p.Items); err != nil {
		return nil, "", fmt.Errorf("%q is not a list: %w", collection, err)
	}
	var total, pages flexInt
	_ = json.Unmarshal(env["total"], &total)
	_ = json.Unmarshal(env["total_pages"], &pages)
	p.Total, p.TotalPages = int(total), int(pages)
	var next string
	_ = json.Unmarshal(env["next_rest_url"], &next)
	return p, next, nil
}

// Get reads one record of collection by id (its JSON as the site sends it).
func (c *Client) Get(ctx context.Context, collection string, id int64) (json.RawMessage, error) {
	body, _, err := c.get(ctx, c.endpoint("/"+collection+"/"+strconv.FormatInt(id, 10), nil))
	if err != nil {
		return nil, err
	}
	return body, nil
}
