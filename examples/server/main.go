// Command server runs an events calendar behind the REST adapter: the
// program a newcomer starts first.
//
//	go run ./examples/server -demo
//
// It mounts the API under /wp-json/ (namespace calendar/events/v1, alias
// tribe/events/v1, language segments such as /fr/wp-json/…), logs every
// request with log/slog and shuts down gracefully on SIGINT/SIGTERM.
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
	// Commands: import-tec, export, import (see their -h).
	if len(os.Args) > 1 {
		switch cmd := os.Args[1]; cmd {
		case "import-tec", "export", "import":
			if err := runCommand(cmd, os.Args[2:]); err != nil {
				fmt.Fprintf(os.Stderr, "server %s: %v\n", cmd, err)
				os.Exit(1)
			}
			return
		}
	}
	cfg := config{Out: os.Stdout, Log: slog.New(slog.NewTextHandler(os.Stderr, nil))}
	flag.StringVar(&cfg.Addr, "addr", "127.0.0.1:8080", "address to listen on")
	flag.StringVar(&cfg.Store, "store", "bolt", "storage: bolt (one file, durable), mem (gone at exit) or redis")
	flag.StringVar(&cfg.DB, "db", "eventcal.db", "database file of -store bolt")
	flag.StringVar(&cfg.RedisURL, "redis", "redis://127.0.0.1:6379/0", "server URL of -store redis")
	flag.StringVar(&cfg.RedisPrefix, "redis-prefix", "eventcal", "key prefix of -store redis (one calendar per prefix)")
	flag.StringVar(&cfg.UsersFile, "users", "", "user table, one \"name:password:role[:id]\" per line (default: an admin with a random password)")
	flag.BoolVar(&cfg.Demo, "demo", false, "load sample events, venues, organizers, categories and tags")
	flag.StringVar(&cfg.SiteURL, "site-url", "", "public site URL for \"url\" fields (default: the request's origin)")
	flag.StringVar(&cfg.TimeZone, "timezone", "UTC", "site time zone (IANA name)")
	flag.StringVar(&cfg.CORSOrigin, "cors-origin", "", "comma-separated origins allowed to call the API from a browser (* for any)")
	flag.Parse()
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

func run(cfg config) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := newServer(ctx, cfg)
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	cfg.Log.Info("listening", "url", "http://"+ln.Addr().String()+"/wp-json/calendar/events/v1/events", "store", cfg.Store)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	cfg.Log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
