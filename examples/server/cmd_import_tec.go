package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/tecimport"
)

// runImportTEC is `server import-tec`: move a calendar from a WordPress site
// running the original plugin into the store, or sync it again. Progress
// and problems go to stderr, the summary to stdout.
func runImportTEC(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import-tec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	storeFlags(fs, &cfg)
	from := fs.String("from", "", "the WordPress site: its URL, its REST root (…/wp-json/) or the namespace URL (…/wp-json/tribe/events/v1)")
	auth := fs.String("auth", flagDefault("EVENTCAL_TEC_AUTH", ""), "user:application-password of a site administrator, to read drafts, private, scheduled and trashed records (env EVENTCAL_TEC_AUTH, which keeps it out of the process list)")
	authors := fs.String("authors", "", `authors of the imported posts: empty = the importing user (id 1), "keep" = the site's user ids, or "12=3,15=4,*=1" (site id = calendar id, * for the rest)`)
	lang := fs.String("lang", "", "language of the site's texts (default en)")
	keepIDs := fs.Bool("keep-ids", false, "keep the site's ids although the store is not empty (to resume an interrupted first import)")
	newIDs := fs.Bool("new-ids", false, "give every record a new id even in an empty store")
	noProbe := fs.Bool("no-hidden", false, "do not look, id by id, for events hidden from listings (the site never lists them)")
	timeout := fs.Duration("timeout", 60*time.Second, "time limit of one HTTP request")
	if help, err := parseFlags(fs, args, "server import-tec -from <site URL or API root> [-auth user:app-password] [-store bolt|mem|redis] [-db FILE] [-redis URL -redis-prefix P]"); help || err != nil {
		return err
	}
	if *from == "" {
		fs.Usage()
		return fmt.Errorf("-from is required")
	}
	opts := []tecimport.Option{tecimport.WithProgress(stderr, time.Second), tecimport.WithHTTPClient(newHTTPClient(*timeout))}
	if *auth != "" {
		user, pass, ok := strings.Cut(*auth, ":")
		if !ok || user == "" {
			return fmt.Errorf("-auth wants user:application-password")
		}
		opts = append(opts, tecimport.WithCredentials(user, pass))
	}
	switch m, err := authorMap(*authors); {
	case err != nil:
		return fmt.Errorf("-authors: %w", err)
	case m != nil:
		opts = append(opts, tecimport.WithAuthors(m))
	}
	if *lang != "" {
		l := calendar.Lang(strings.ToLower(*lang))
		if !l.Valid() {
			return fmt.Errorf("-lang: %q is not a supported language", *lang)
		}
		opts = append(opts, tecimport.WithLanguage(l))
	}
	switch {
	case *keepIDs && *newIDs:
		return fmt.Errorf("-keep-ids and -new-ids exclude each other")
	case *keepIDs:
		opts = append(opts, tecimport.WithKeepIDs())
	case *newIDs:
		opts = append(opts, tecimport.WithNewIDs())
	}
	if *noProbe {
		opts = append(opts, tecimport.WithoutHiddenProbe())
	}

	srv := &server{}
	repo, err := openStore(ctx, cfg, srv)
	if err != nil {
		return err
	}
	defer srv.Close()
	cal := calendar.New(repo)
	sum, err := tecimport.Run(calendar.WithPrincipal(ctx, calendar.System), cal, *from, opts...)
	if sum != nil && sum.Site.API != "" {
		sum.WriteTo(stdout)
		if z := sum.Site.TimeZone; z != "" {
			fmt.Fprintf(stdout, "the site shows dates in %s: run the server with -timezone %s to show them the same way\n", z, z)
		}
	}
	if err != nil && strings.Contains(err.Error(), "refused the credentials") {
		return fmt.Errorf("%w (-auth)", err)
	}
	return err
}

// authorMap reads -authors: "" (nil: the importing user), "keep", or
// "site=calendar" pairs with an optional "*=calendar" for the others.
func authorMap(spec string) (func(int64) int64, error) {
	switch spec = strings.TrimSpace(spec); spec {
	case "":
		return nil, nil
	case "keep":
		return func(id int64) int64 { return id }, nil
	}
	m := map[int64]int64{}
	var rest int64
	for _, pair := range strings.Split(spec, ",") {
		from, to, ok := strings.Cut(strings.TrimSpace(pair), "=")
		dst, err := strconv.ParseInt(strings.TrimSpace(to), 10, 64)
		if !ok || err != nil || dst <= 0 {
			return nil, fmt.Errorf("%q is not site-id=user-id", pair)
		}
		if strings.TrimSpace(from) == "*" {
			rest = dst
			continue
		}
		src, err := strconv.ParseInt(strings.TrimSpace(from), 10, 64)
		if err != nil || src <= 0 {
			return nil, fmt.Errorf("%q is not site-id=user-id", pair)
		}
		m[src] = dst
	}
	return func(id int64) int64 {
		if to, ok := m[id]; ok {
			return to
		}
		return rest
	}, nil
}

// newHTTPClient is the client of the site: the default transport, a time
// limit per request.
func newHTTPClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout}
}
