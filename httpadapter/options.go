package httpadapter

import (
	"log/slog"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar/ical"
)

// Namespace is the canonical namespace of the API (wire §1).
const Namespace = "calendar/events/v1"

// DefaultBodyLimit is the largest request body accepted unless WithBodyLimit
// says otherwise.
const DefaultBodyLimit = 1 << 20

// DefaultBodyReadTimeout is how long a handler waits for a request body
// unless WithBodyReadTimeout says otherwise.
const DefaultBodyReadTimeout = 10 * time.Second

// Option configures a Handler.
type Option func(*config)

type config struct {
	root       string
	aliases    []string
	langs      bool
	siteURL    string
	bodyLimit  int64
	bodyWait   time.Duration
	auth       Authenticator
	realm      string
	corsOrigin map[string]bool
	corsAny    bool
	log        *slog.Logger
	icalExport []ical.ExportOption
	icalImport []ical.ImportOption
	webhooks   *WebhookConfig
}

// WithRoot sets the API root the handler serves under, e.g. "/wp-json". The
// handler then matches full paths ("/wp-json/calendar/events/v1/events");
// use Register to add it to a mux. Default "": paths start at the namespace,
// for use behind http.StripPrefix.
func WithRoot(root string) Option {
	return func(c *config) { c.root = "/" + strings.Trim(root, "/"); c.root = strings.TrimSuffix(c.root, "/") }
}

// WithNamespaceAliases adds namespaces served exactly like calendar/events/v1,
// such as "tribe/events/v1" which existing clients hard-code.
func WithNamespaceAliases(ns ...string) Option {
	return func(c *config) {
		for _, n := range ns {
			if n = strings.Trim(n, "/"); n != "" {
				c.aliases = append(c.aliases, n)
			}
		}
	}
}

// WithLanguageSegments enables "/{lang}{root}/{ns}/…" paths, where lang is a
// supported calendar language and becomes the request language.
func WithLanguageSegments(on bool) Option { return func(c *config) { c.langs = on } }

// WithSiteURL sets the public site URL used for "url" fields and global ids
// (default: the request's scheme and host).
func WithSiteURL(u string) Option { return func(c *config) { c.siteURL = strings.TrimRight(u, "/") } }

// WithBodyLimit sets the largest request body in bytes (default 1 MiB);
// larger bodies get 413 rest_request_too_large.
func WithBodyLimit(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.bodyLimit = n
		}
	}
}

// WithAuthenticator sets how callers are identified (default: everyone is
// anonymous).
func WithAuthenticator(a Authenticator) Option { return func(c *config) { c.auth = a } }

// WithCORSOrigins allows cross-origin requests from these origins
// ("https://app.example"); "*" allows any origin. None by default.
func WithCORSOrigins(origins ...string) Option {
	return func(c *config) {
		for _, o := range origins {
			o = strings.TrimRight(strings.TrimSpace(o), "/")
			switch o {
			case "":
			case "*":
				c.corsAny = true
			default:
				c.corsOrigin[strings.ToLower(o)] = true
			}
		}
	}
}

// WithLogger sets the logger for unexpected errors (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.log = l } }

// WithBodyReadTimeout bounds the time a request may take to deliver its body,
// counted from the moment the handler starts (default
// DefaultBodyReadTimeout; 0 or less turns the bound off). A client that
// trickles its body is answered 408 rest_request_timeout and its connection
// is closed, so a slow sender cannot hold a handler forever. The bound is
// set as the connection's read deadline (http.ResponseController), so it
// needs a server that supports it (net/http's HTTP/1 and HTTP/2 servers
// do); it never loosens a shorter http.Server.ReadTimeout. Writes are not
// bounded here: set http.Server.WriteTimeout for clients that never read.
func WithBodyReadTimeout(d time.Duration) Option {
	return func(c *config) {
		if d < 0 {
			d = 0
		}
		c.bodyWait = d
	}
}

// WithRealm sets the realm named in the WWW-Authenticate challenges of 401
// answers (default DefaultRealm).
func WithRealm(realm string) Option { return func(c *config) { c.realm = realm } }
