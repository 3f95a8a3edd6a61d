// Package webhooks delivers a calendar's changes to subscribers over HTTP,
// signed by the Standard Webhooks scheme, at least once and in order per
// subscription.
//
// It is HTTP client code and knows nothing about storage. A Dispatcher reads
// changes from a ChangeSource, keeps each subscription's progress in a
// SubscriptionStore and takes a per-subscription lease from a Leaser so that,
// with several app instances, one of them delivers a subscription at a time.
// The calendar's change log and its stored subscriptions implement those
// interfaces; MemoryChanges, MemorySubscriptions and MemoryLeaser implement
// them in memory for tests and small embedders.
//
// Every change is one POST with a JSON body
//
//	{"type":"event.updated","timestamp":"2026-03-13T20:00:00Z",
//	 "data":{"kind":"event","id":12,"version":3,"action":"updated","seq":42,
//	         "rest_url":"https://example.com/wp-json/calendar/events/v1/events/12","series":null}}
//
// and the headers webhook-id (the same on every attempt of one change to one
// subscription), webhook-timestamp and webhook-signature, so receivers verify
// it with any Standard Webhooks library or with Verify. A 2xx answer
// acknowledges the change; anything else, a time-out or a connection error is
// retried with exponential backoff and full jitter, and a subscription that
// has failed without interruption for DisableAfter (24 hours by default) is
// disabled.
//
// Targets are https URLs (http only with TargetPolicy.AllowHTTP). The
// connection is checked on the resolved address just before it is made, so a
// DNS name cannot lead to loopback, private, link-local, CGNAT or cloud
// metadata addresses unless TargetPolicy.AllowPrivate says so; redirects are
// never followed. Delivery runs in its own goroutines and never blocks the
// writers that append changes.
package webhooks
