package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/redisstore"
	"github.com/redis/go-redis/v9"
)

// config is everything the flags set.
type config struct {
	Addr, Store, DB, RedisURL, RedisPrefix   string
	UsersFile, SiteURL, TimeZone, CORSOrigin string
	Demo                                     bool
	ImagesFile                               string        // -images: image id → image catalogue (JSON); "" for none
	MetricsPath                              string        // where request metrics are served; "" for none
	ReadyTimeout                             time.Duration // how long /readyz waits for the store
	// Webhooks runs the webhook dispatcher and serves the admin routes;
	// WebhookAllowPrivate lets targets be http:// and loopback or private
	// addresses (local development and tests).
	Webhooks, WebhookAllowPrivate bool
	WebhookLeaseTTL               time.Duration // 0: the dispatcher's default
	// WebhookRefresh is how often the dispatcher re-reads the
	// subscriptions, which is how one instance learns of a subscription
	// created through another (0: the dispatcher's default).
	WebhookRefresh time.Duration
	// WebhookTimeout bounds one delivery attempt (0: the dispatcher's
	// 10 s); the lease lasts at least twice as long.
	WebhookTimeout time.Duration
	limits

	Out io.Writer    // where the generated admin password is printed
	Log *slog.Logger // request and error log
	Now func() time.Time
}

// server is the wired application: the HTTP handler and what to close.
type server struct {
	Handler  http.Handler
	Calendar *calendar.Service
	Metrics  *httpadapter.Metrics // nil unless cfg.MetricsPath is set
	repo     calendar.Repository
	closers  []func() error
}

// Close releases the store.
func (s *server) Close() error {
	var errs []error
	for i := len(s.closers) - 1; i >= 0; i-- {
		errs = append(errs, s.closers[i]())
	}
	return errors.Join(errs...)
}

// newServer builds the calendar, the users and the HTTP handler from cfg.
// Tests call it and serve the handler on their own listener.
func newServer(ctx context.Context, cfg config) (*server, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	zone, err := time.LoadLocation(cfg.TimeZone)
	if cfg.TimeZone == "" {
		zone, err = time.UTC, nil
	}
	if err != nil {
		return nil, fmt.Errorf("-timezone: %w", err)
	}
	srv := &server{}
	repo, err := openStore(ctx, cfg, srv)
	if err != nil {
		return nil, err
	}
	srv.repo = repo
	users, err := loadUsers(cfg)
	if err != nil {
		srv.Close()
		return nil, err
	}
	table, err := httpadapter.BasicAuth(users)
	if err != nil {
		srv.Close()
		return nil, err
	}
	opts := []calendar.Option{calendar.WithSiteZone(zone), calendar.WithUsers(table), calendar.WithLogger(cfg.Log)}
	if cfg.Now != nil {
		opts = append(opts, calendar.WithClock(cfg.Now))
	}
	if cfg.ImagesFile != "" {
		images, err := loadImages(cfg.ImagesFile)
		if err != nil {
			srv.Close()
			return nil, err
		}
		opts = append(opts, calendar.WithImages(images))
	}
	srv.Calendar = calendar.New(repo, opts...)
	if cfg.Demo {
		// A durable store keeps the demo data of an earlier run: load it once.
		have, err := repo.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, CountOnly: true})
		if err != nil {
			srv.Close()
			return nil, fmt.Errorf("demo data: %w", err)
		}
		if have.Total > 0 {
			cfg.Log.Info("store already holds events; -demo data not loaded again", "events", have.Total)
			cfg.Demo = false
		}
	}
	if cfg.Demo {
		if err := loadDemo(ctx, srv.Calendar, adminOf(users), zone, cfg.now()); err != nil {
			srv.Close()
			return nil, fmt.Errorf("demo data: %w", err)
		}
	}
	apiOpts := []httpadapter.Option{}
	if cfg.Webhooks {
		wc, err := startWebhooks(cfg, srv, repo)
		if err != nil {
			srv.Close()
			return nil, err
		}
		apiOpts = append(apiOpts, httpadapter.WithWebhooks(wc))
	}
	api := httpadapter.New(srv.Calendar, append(apiOpts,
		httpadapter.WithRoot("/wp-json"),
		httpadapter.WithNamespaceAliases("tribe/events/v1"),
		httpadapter.WithLanguageSegments(true),
		httpadapter.WithSiteURL(cfg.SiteURL),
		httpadapter.WithAuthenticator(table),
		httpadapter.WithCORSOrigins(strings.Split(cfg.CORSOrigin, ",")...),
		httpadapter.WithLogger(cfg.Log),
		httpadapter.WithBodyReadTimeout(cfg.withDefaults().BodyTimeout),
	)...)
	mux := http.NewServeMux()
	api.Register(mux)
	// Everything else — an unknown language segment included — gets the
	// API's JSON 404 (rest_no_route), not the mux's plain-text one.
	mux.Handle("/", api)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "eventcal: the API is at /wp-json/calendar/events/v1 (OpenAPI: /wp-json/calendar/events/v1/doc)")
	})
	mux.HandleFunc("GET /healthz", srv.healthz)
	mux.HandleFunc("GET /readyz", srv.readyz(cfg))
	if cfg.MetricsPath != "" {
		if !strings.HasPrefix(cfg.MetricsPath, "/") || strings.ContainsAny(cfg.MetricsPath, " {}") {
			srv.Close()
			return nil, fmt.Errorf("-metrics-path %q: want a plain path such as /metrics", cfg.MetricsPath)
		}
		srv.Metrics = httpadapter.NewMetrics("eventcal")
		mux.Handle("GET "+cfg.MetricsPath, srv.Metrics)
	}
	// Guard: the mux would redirect "//" and dot segments to a cleaned
	// path; the API answers them 404 rest_no_route instead.
	srv.Handler = logRequests(cfg.Log, srv.Metrics, api.Guard(mux))
	return srv, nil
}

func (c config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// openStore opens the storage the flags name.
func openStore(ctx context.Context, cfg config, srv *server) (calendar.Repository, error) {
	switch cfg.Store {
	case "", "mem":
		return memstore.New(), nil
	case "bolt":
		st, err := boltstore.Open(cfg.DB)
		if err != nil {
			return nil, fmt.Errorf("-store bolt: %w", err)
		}
		srv.closers = append(srv.closers, st.Close)
		return st, nil
	case "redis":
		opt, err := redis.ParseURL(cfg.RedisURL)
		if err != nil {
			return nil, fmt.Errorf("-redis: %w", err)
		}
		// Let request deadlines and cancellations interrupt Redis round trips.
		opt.ContextTimeoutEnabled = true
		client := redis.NewClient(opt)
		if err := client.Ping(ctx).Err(); err != nil {
			client.Close()
			return nil, fmt.Errorf("-store redis: %w", err)
		}
		st, err := redisstore.New(client, redisstore.WithPrefix(cfg.RedisPrefix))
		if err != nil {
			client.Close()
			return nil, fmt.Errorf("-store redis: %w", err)
		}
		srv.closers = append(srv.closers, client.Close)
		return st, nil
	}
	return nil, fmt.Errorf("-store: unknown store %q (want mem, bolt or redis)", cfg.Store)
}

// adminOf returns the first administrator, the author of the demo data.
func adminOf(users []httpadapter.User) calendar.Principal {
	for _, u := range users {
		if u.Role == calendar.RoleAdministrator {
			return calendar.Principal{ID: u.ID, Role: u.Role}
		}
	}
	return calendar.Principal{} // none: trusted system context
}

// statusWriter remembers the status and size of a response for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
	size   int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection (the adapter
// sets body read deadlines through it).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.size += n
	return n, err
}

// logRequests logs one line per request (never credentials or bodies) with
// the route pattern it was served on, and counts it in m when metrics are
// on.
func logRequests(log *slog.Logger, m *httpadapter.Metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		if m != nil {
			defer m.Track()()
		}
		r, route := httpadapter.RecordRoute(r)
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		took := time.Since(start)
		if m != nil {
			m.Observe(route(), r.Method, sw.status, took)
		}
		log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("route", route()), slog.String("path", r.URL.Path),
			slog.Int("status", sw.status), slog.Int("bytes", sw.size),
			slog.Duration("duration", took), slog.String("remote", r.RemoteAddr))
	})
}
