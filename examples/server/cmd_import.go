package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/backup"
)

// kindOrder is the order in which commands report counts per kind.
var kindOrder = []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer, calendar.KindCategory, calendar.KindTag}

// plural names n records of a kind ("1 event", "2 categories").
func plural(kind string, n int) string {
	switch {
	case n == 1:
		return kind
	case kind == "category":
		return "categories"
	}
	return kind + "s"
}

// runImport is `server import`: a backup written by export, into an empty store.
func runImport(ctx context.Context, args []string, stdin io.Reader, stderr io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	storeFlags(fs, &cfg)
	in := fs.String("i", "", "backup to read (default: standard input)")
	if help, err := parseFlags(fs, args, "server import [-i FILE] [-store …]   (into an empty store)"); help || err != nil {
		return err
	}
	r := stdin
	if *in != "" && *in != "-" {
		f, err := os.Open(*in)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	srv := &server{}
	repo, err := openStore(ctx, cfg, srv)
	if err != nil {
		return err
	}
	defer srv.Close()
	start := time.Now()
	st, err := backup.Import(ctx, repo, r)
	if err != nil {
		if st != nil && st.Records > 0 {
			return fmt.Errorf("%w (%d records were stored before the error; start again with an empty store)", err, st.Records)
		}
		return err
	}
	fmt.Fprintf(stderr, "imported %d records (%s) in %s", st.Records, kinds(st), time.Since(start).Round(time.Millisecond))
	if st.Replaced > 0 {
		fmt.Fprintf(stderr, "; %d read twice (changed during the export, the later copy kept)", st.Replaced)
	}
	if st.DroppedLinks > 0 {
		fmt.Fprintf(stderr, "; %d links to records missing from the backup dropped", st.DroppedLinks)
	}
	fmt.Fprintln(stderr)
	return nil
}
