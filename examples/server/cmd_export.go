package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/storage/backup"
)

// runCommand runs one of the commands of this file family (import-tec,
// export, import) with its arguments; Ctrl-C cancels it.
func runCommand(name string, args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch name {
	case "import-tec":
		return runImportTEC(ctx, args, os.Stdout, os.Stderr)
	case "export":
		return runExport(ctx, args, os.Stdout, os.Stderr)
	case "import":
		return runImport(ctx, args, os.Stdin, os.Stderr)
	}
	return fmt.Errorf("unknown command %q", name)
}

// flagDefault is the default of a store flag: its EVENTCAL_* environment
// variable when set, else the server's default.
func flagDefault(env, def string) string {
	if v, ok := os.LookupEnv(env); ok {
		return v
	}
	return def
}

// storeFlags registers the server's store flags (same names, defaults and
// environment variables) on a command's flag set.
func storeFlags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&cfg.Store, "store", flagDefault("EVENTCAL_STORE", "bolt"), "storage: bolt (one file), mem (gone at exit) or redis (env EVENTCAL_STORE)")
	fs.StringVar(&cfg.DB, "db", flagDefault("EVENTCAL_DB", "eventcal.db"), "database file of -store bolt (env EVENTCAL_DB)")
	fs.StringVar(&cfg.RedisURL, "redis", flagDefault("EVENTCAL_REDIS", "redis://127.0.0.1:6379/0"), "server URL of -store redis (env EVENTCAL_REDIS)")
	fs.StringVar(&cfg.RedisPrefix, "redis-prefix", flagDefault("EVENTCAL_REDIS_PREFIX", "eventcal"), "key prefix of -store redis (env EVENTCAL_REDIS_PREFIX)")
}

// parseFlags parses a command's flags; -h prints the usage and is no error.
func parseFlags(fs *flag.FlagSet, args []string, usage string) (help bool, err error) {
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s\n\n", usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return false, err
	}
	if fs.NArg() > 0 {
		return false, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return false, nil
}

// runExport is `server export`: the whole calendar as newline-delimited
// JSON (or, with -format bolt, a copy of the bolt file).
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	storeFlags(fs, &cfg)
	out := fs.String("o", "", "file to write (default: standard output)")
	format := fs.String("format", "ndjson", "ndjson (portable, any store) or bolt (a copy of the -store bolt file, opened like any store file)")
	if help, err := parseFlags(fs, args, "server export [-o FILE] [-format ndjson|bolt] [-store …]"); help || err != nil {
		return err
	}
	if *format != "ndjson" && *format != "bolt" {
		return fmt.Errorf("-format: %q is not ndjson or bolt", *format)
	}
	srv := &server{}
	repo, err := openStore(ctx, cfg, srv)
	if err != nil {
		return err
	}
	defer srv.Close()

	w, commit, err := output(*out, stdout)
	if err != nil {
		return err
	}
	start := time.Now()
	if *format == "bolt" {
		st, ok := repo.(*boltstore.Store)
		if !ok {
			commit(false)
			return fmt.Errorf("-format bolt needs -store bolt (this store is %s)", cfg.Store)
		}
		n, err := st.Backup(ctx, w)
		if err := commit(err == nil); err != nil {
			return err
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "copied the bolt file: %d bytes in %s\n", n, time.Since(start).Round(time.Millisecond))
		return nil
	}
	st, err := backup.Export(ctx, repo, w)
	if cerr := commit(err == nil); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "exported %d records (%s) in %s, %d bytes\n", st.Records, kinds(st), time.Since(start).Round(time.Millisecond), st.Bytes)
	return nil
}

// output opens where a command writes: standard output, or a file written
// beside its final name and renamed into place only when commit(true) is
// called, so a failed export never leaves a file that looks complete.
func output(name string, stdout io.Writer) (io.Writer, func(ok bool) error, error) {
	if name == "" || name == "-" {
		return stdout, func(bool) error { return nil }, nil
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return nil, nil, err
	}
	return f, func(ok bool) error {
		if !ok {
			f.Close()
			os.Remove(f.Name())
			return nil
		}
		if err := f.Sync(); err != nil {
			f.Close()
			os.Remove(f.Name())
			return err
		}
		if err := f.Close(); err != nil {
			os.Remove(f.Name())
			return err
		}
		return os.Rename(f.Name(), name)
	}, nil
}

// kinds describes the counts of a backup ("12 events, 3 venues, …").
func kinds(st *backup.Stats) string {
	s := ""
	for _, k := range kindOrder {
		if n := st.ByKind[k]; n > 0 {
			if s != "" {
				s += ", "
			}
			s += fmt.Sprintf("%d %s", n, plural(k.String(), n))
		}
	}
	if s == "" {
		return "empty"
	}
	return s
}
