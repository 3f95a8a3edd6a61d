package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// seriesEvery is how often open-ended recurring events are extended.
const seriesEvery = time.Hour

// extendSeries runs the calendar's series maintenance once, as System:
// occurrences that entered the horizon since the last run are made. It is
// idempotent and safe with other processes doing the same on one store.
func extendSeries(ctx context.Context, cal calendar.Calendar, log *slog.Logger) {
	n, err := cal.ExtendSeries(calendar.WithPrincipal(ctx, calendar.System))
	switch {
	case err != nil && ctx.Err() == nil:
		log.Error("extending recurring events", "err", err)
	case n > 0:
		log.Info("extended recurring events", "occurrences", n)
	}
}

// maintainSeries extends series every interval until ctx is done (the first
// run is the caller's, at start).
func maintainSeries(ctx context.Context, cal calendar.Calendar, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			extendSeries(ctx, cal, log)
		}
	}
}
