package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

// fail turns a go-redis error into the error the Repository contract asks for:
// ctx.Err() when the caller's context ended, an error wrapping
// calendar.ErrUnavailable when Redis cannot serve (connection refused or
// dropped, timeouts, LOADING, CLUSTERDOWN, …), and a plain wrapped error for
// what can only be a bug (a script error, a wrong type).
func fail(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	var rerr redis.Error
	if errors.As(err, &rerr) && !transient(rerr.Error()) {
		return fmt.Errorf("redisstore: %s: %w", op, err)
	}
	return &calendar.Error{Code: calendar.CodeUnavailable, Message: "redisstore: " + op + ": redis unavailable", Err: err}
}

// transient reports whether a server error reply means "cannot serve now"
// rather than "this request is wrong".
func transient(msg string) bool {
	for _, p := range []string{"LOADING", "BUSY", "CLUSTERDOWN", "TRYAGAIN", "MASTERDOWN", "READONLY",
		"NOREPLICAS", "MOVED", "ASK", "OOM", "MISCONF", "NOAUTH"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

func notFound(what string, id int64) error {
	return fmt.Errorf("redisstore: %s %d: %w", what, id, calendar.ErrNotFound)
}

func conflict(format string, args ...any) error {
	return fmt.Errorf("redisstore: "+format+": %w", append(args, calendar.ErrConflict)...)
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("redisstore: "+format+": %w", append(args, calendar.ErrInvalid)...)
}
