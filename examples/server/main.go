// Command server runs an events calendar behind the REST adapter: the
// program a newcomer starts first.
//
//	go run ./examples/server -demo
//
// It mounts the API under /wp-json/ (namespace calendar/events/v1, alias
// tribe/events/v1, language segments such as /fr/wp-json/…), logs every
// request with log/slog and shuts down gracefully on SIGINT/SIGTERM. The
// HTTP server bounds every phase of a request (header, body, response,
// idle keep-alive) so slow or non-reading clients cannot hold it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	// Subcommands are the first argument; anything else runs the server.
	args := os.Args[1:]
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	var err error
	switch cmd {
	case "useradd":
		err = useradd(args[1:], os.Stdin, os.Stdout, os.Stderr)
	case "import-tec", "export", "import": // see each command's -h
		if err := runCommand(cmd, args[1:]); err != nil {
			fmt.Fprintf(os.Stderr, "server %s: %v\n", cmd, err)
			os.Exit(1)
		}
		return
	default:
		err = serve(args)
	}
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// serve parses the server's flags and runs it until SIGINT or SIGTERM.
func serve(args []string) error {
	cfg := config{Out: os.Stdout, Log: slog.New(slog.NewTextHandler(os.Stderr, nil))}
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	cfg.storeFlags(fs)
	cfg.serverFlags(fs)
	if err := parseWithEnv(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unknown command %q", fs.Arg(0))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, cfg)
}

// storeFlags defines the flags that choose the storage, shared by the
// server and its subcommands.
func (c *config) storeFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Store, "store", "bolt", "storage: bolt (one file, durable), mem (gone at exit) or redis")
	fs.StringVar(&c.DB, "db", "eventcal.db", "database file of -store bolt")
	fs.StringVar(&c.RedisURL, "redis", "redis://127.0.0.1:6379/0", "server URL of -store redis")
	fs.StringVar(&c.RedisPrefix, "redis-prefix", "eventcal", "key prefix of -store redis (one calendar per prefix)")
}

// serverFlags defines the flags of the HTTP server.
func (c *config) serverFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&c.UsersFile, "users", "", "users file, one \"name:bcrypt-hash:role:id\" per line, made by \"server useradd\" (default: beside the store, created on first start with an admin and a random password)")
	fs.StringVar(&c.ImagesFile, "images", "", "JSON file of the images known by id: {\"42\": {\"url\": …, \"width\": …, \"height\": …, \"sizes\": {…}}} (default: none; events then take image URLs only)")
	fs.BoolVar(&c.Demo, "demo", false, "load sample events, venues, organizers, categories and tags")
	fs.StringVar(&c.SiteURL, "site-url", "", "public site URL for \"url\" fields (default: the request's origin)")
	fs.StringVar(&c.TimeZone, "timezone", "UTC", "site time zone (IANA name)")
	fs.StringVar(&c.CORSOrigin, "cors-origin", "", "comma-separated origins allowed to call the API from a browser (* for any)")
	fs.DurationVar(&c.ReadHeaderTimeout, "read-header-timeout", defaultLimits.ReadHeaderTimeout, "time allowed to send the request line and headers")
	fs.DurationVar(&c.BodyTimeout, "body-timeout", defaultLimits.BodyTimeout, "time allowed to send a request body (408 after it)")
	fs.DurationVar(&c.ReadTimeout, "read-timeout", defaultLimits.ReadTimeout, "time allowed to send a whole request, headers and body")
	fs.DurationVar(&c.WriteTimeout, "write-timeout", defaultLimits.WriteTimeout, "time allowed from the end of the request headers to the end of the response")
	fs.DurationVar(&c.IdleTimeout, "idle-timeout", defaultLimits.IdleTimeout, "how long an idle keep-alive connection stays open")
	fs.IntVar(&c.MaxHeaderBytes, "max-header-bytes", defaultLimits.MaxHeaderBytes, "largest request line and headers in bytes")
	fs.StringVar(&c.MetricsPath, "metrics-path", "", "serve request metrics in the Prometheus text format at this path, e.g. /metrics (default: off)")
	fs.DurationVar(&c.ReadyTimeout, "ready-timeout", defaultReadyTimeout, "how long /readyz waits for the store")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", defaultLimits.ShutdownTimeout, "time requests in flight get to finish at shutdown")
	fs.BoolVar(&c.Webhooks, "webhooks", false, "deliver signed webhooks and serve the admin routes {ns}/webhooks (subscriptions are kept in the store)")
	fs.BoolVar(&c.WebhookAllowPrivate, "webhook-allow-private", false, "allow http:// webhook targets and loopback or private addresses (local development and tests only)")
	fs.DurationVar(&c.WebhookRefresh, "webhook-refresh", 0, "how often the subscriptions are re-read, so that instances learn of subscriptions made through another (default: the dispatcher's)")
	fs.DurationVar(&c.WebhookTimeout, "webhook-timeout", 0, "time allowed to one delivery attempt (default: the dispatcher's 10s); a lease lasts at least twice this")
	fs.DurationVar(&c.WebhookLeaseTTL, "webhook-lease-ttl", 0, "how long an instance holds a subscription without renewing; another takes over after it (default: the dispatcher's; at least twice -webhook-timeout)")
}

// run serves cfg until ctx is done, then shuts down gracefully.
func run(ctx context.Context, cfg config) error {
	srv, err := newServer(ctx, cfg)
	if err != nil {
		return err
	}
	defer srv.Close()
	// Recurring events: materialise what entered the horizon while the
	// server was down, then keep doing it every hour.
	extendSeries(ctx, srv.Calendar, cfg.Log)
	mctx, stopMaintenance := context.WithCancel(ctx)
	defer stopMaintenance()
	go maintainSeries(mctx, srv.Calendar, seriesEvery, cfg.Log)
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	hs := httpServer(cfg, srv.Handler)
	cfg.Log.Info("listening", "url", "http://"+ln.Addr().String()+"/wp-json/calendar/events/v1/events", "store", cfg.Store)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	cfg.Log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), cfg.withDefaults().ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// httpServer returns the HTTP server for h with the limits of cfg: every
// phase of a request has a deadline, so a client that trickles its headers
// or body, or never reads its answer, is cut off instead of holding a
// connection and the response it is stuck on.
func httpServer(cfg config, h http.Handler) *http.Server {
	cfg = cfg.withDefaults()
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: cfg.ReadHeaderTimeout,
		ReadTimeout:       cfg.ReadTimeout,
		WriteTimeout:      cfg.WriteTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		MaxHeaderBytes:    cfg.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(cfg.Log.Handler(), slog.LevelWarn),
	}
}

// limits are the server's time and size bounds.
type limits struct {
	ReadHeaderTimeout, BodyTimeout, ReadTimeout, WriteTimeout, IdleTimeout, ShutdownTimeout time.Duration
	MaxHeaderBytes                                                                          int
}

// defaultLimits suit an API answering small JSON documents: a body of the
// adapter's 1 MiB limit still arrives in 10 s at 100 kB/s, and a response
// blocked for 30 s is not going anywhere.
var defaultLimits = limits{
	ReadHeaderTimeout: 10 * time.Second,
	BodyTimeout:       10 * time.Second,
	ReadTimeout:       30 * time.Second,
	WriteTimeout:      30 * time.Second,
	IdleTimeout:       2 * time.Minute,
	ShutdownTimeout:   10 * time.Second,
	MaxHeaderBytes:    64 << 10,
}

// withDefaults fills unset limits, so a config built in code (tests, other
// programs) is as well bounded as one from the flags.
func (c config) withDefaults() config {
	d := defaultLimits
	for _, p := range []struct{ v, def *time.Duration }{
		{&c.ReadHeaderTimeout, &d.ReadHeaderTimeout}, {&c.BodyTimeout, &d.BodyTimeout},
		{&c.ReadTimeout, &d.ReadTimeout}, {&c.WriteTimeout, &d.WriteTimeout},
		{&c.IdleTimeout, &d.IdleTimeout}, {&c.ShutdownTimeout, &d.ShutdownTimeout},
	} {
		if *p.v <= 0 {
			*p.v = *p.def
		}
	}
	if c.MaxHeaderBytes <= 0 {
		c.MaxHeaderBytes = d.MaxHeaderBytes
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}
