package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// envPrefix starts the environment variable of every flag.
const envPrefix = "EVENTCAL_"

// envName is the environment variable of a flag: "redis-prefix" →
// EVENTCAL_REDIS_PREFIX.
func envName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parseWithEnv sets every flag of fs from its environment variable, then
// parses args: a flag on the command line wins over the environment, the
// environment over the default. An empty variable counts as unset. The
// usage text names each variable.
func parseWithEnv(fs *flag.FlagSet, args []string) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		f.Usage += " (env " + name + ")"
		v := os.Getenv(name)
		if v == "" || err != nil {
			return
		}
		if e := fs.Set(f.Name, v); e != nil {
			err = fmt.Errorf("%s=%q: %w", name, v, e)
		}
	})
	if err != nil {
		return err
	}
	return fs.Parse(args)
}
