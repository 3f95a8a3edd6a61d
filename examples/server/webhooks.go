package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter"
	"github.com/eventcal/eventcal/httpadapter/webhooks"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/redisstore"
)

// startWebhooks runs the webhook dispatcher over the calendar's change log,
// with subscriptions stored in the calendar's store (and, on Redis, a
// lease per subscription so that one instance delivers it), and returns the
// admin routes' wiring. The dispatcher stops when the server closes.
func startWebhooks(cfg config, srv *server, repo calendar.Repository) (httpadapter.WebhookConfig, error) {
	log, ok := repo.(calendar.ChangeLog)
	if !ok {
		return httpadapter.WebhookConfig{}, errors.New("-webhooks: the store keeps no change log")
	}
	var docs webhooks.Documents
	var leaser webhooks.Leaser
	switch st := repo.(type) {
	case *memstore.Store:
		docs = st.Documents("webhooks")
	case *boltstore.Store:
		docs = st.Documents("webhooks")
	case *redisstore.Store:
		docs, leaser = st.Documents("webhooks"), st.NewLeaser()
	default:
		return httpadapter.WebhookConfig{}, fmt.Errorf("-webhooks: no subscription storage for %T", repo)
	}
	policy := webhooks.TargetPolicy{AllowHTTP: cfg.WebhookAllowPrivate, AllowPrivate: cfg.WebhookAllowPrivate}
	subs := webhooks.NewStoredSubscriptions(docs, policy)
	src := webhooks.NewCalendarChanges(log)
	// The instance id names the lease owner: host and pid say which
	// process delivers a subscription.
	host, _ := os.Hostname()
	opts := []webhooks.Option{webhooks.WithTargetPolicy(policy), webhooks.WithLogger(cfg.Log),
		webhooks.WithInstanceID(fmt.Sprintf("%s/%d", host, os.Getpid())), webhooks.WithMatcher(webhooks.RecordMatcher(repo))}
	if cfg.SiteURL != "" {
		opts = append(opts, webhooks.WithRESTBase(strings.TrimSuffix(cfg.SiteURL, "/")+"/wp-json/"+httpadapter.Namespace))
	}
	if leaser != nil {
		opts = append(opts, webhooks.WithLeaser(leaser))
	}
	if cfg.WebhookTimeout > 0 {
		opts = append(opts, webhooks.WithTimeout(cfg.WebhookTimeout))
	}
	if cfg.WebhookRefresh > 0 {
		opts = append(opts, webhooks.WithRefreshInterval(cfg.WebhookRefresh))
	}
	if cfg.WebhookLeaseTTL > 0 {
		opts = append(opts, webhooks.WithLeaseTTL(cfg.WebhookLeaseTTL))
	}
	d := webhooks.New(src, subs, opts...)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	srv.closers = append(srv.closers, func() error {
		cancel()
		return <-done
	})
	return httpadapter.WebhookConfig{Admin: webhooks.NewAdmin(subs), Start: src.Last, Refresh: d.Refresh}, nil
}
