package webhooks_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/eventcal/eventcal/httpadapter/webhooks"
)

// A dispatcher delivering an in-memory change log to one subscriber, which
// checks each delivery with Verify.
func Example() {
	secret, _ := webhooks.NewSecret()
	got := make(chan string, 1)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := webhooks.Verify(secret, r.Header, body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
		got <- r.Header.Get("webhook-id") + " " + string(body)
	}))
	defer receiver.Close()

	// The receiver listens on 127.0.0.1 over plain http: allowed here for
	// the example only.
	policy := webhooks.TargetPolicy{AllowHTTP: true, AllowPrivate: true}
	changes := webhooks.NewMemoryChanges(nil)
	subs := webhooks.NewMemorySubscriptions(policy)
	sub, err := subs.Create(webhooks.Subscription{
		URL:      receiver.URL,
		Secret:   secret,
		Types:    []string{"event.created", "event.updated"},
		Progress: webhooks.Progress{Cursor: changes.Last()}, // only changes from now on
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	d := webhooks.New(changes, subs,
		webhooks.WithTargetPolicy(policy),
		webhooks.WithRESTBase("https://example.com/wp-json/calendar/events/v1"))
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- d.Run(ctx) }()

	changes.Append(webhooks.Change{
		Time: time.Date(2026, 3, 13, 20, 0, 0, 0, time.UTC),
		Kind: webhooks.KindEvent, ID: 12, Action: webhooks.ActionCreated, Version: 1,
	})
	fmt.Println(<-got)
	stop()
	<-done
	fmt.Println("subscription", sub.ID, "stopped")
	// Output:
	// msg_1_1 {"type":"event.created","timestamp":"2026-03-13T20:00:00Z","data":{"kind":"event","id":12,"version":1,"action":"created","seq":1,"rest_url":"https://example.com/wp-json/calendar/events/v1/events/12","series":null}}
	// subscription 1 stopped
}

// A receiver checks the signature on the body exactly as received, before
// decoding it.
func ExampleVerify() {
	secret := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	body := []byte(`{"type":"tag.deleted"}`)
	now := time.Now()
	sig, _ := webhooks.Sign(secret, "msg_3_17", now, body)

	h := http.Header{}
	h.Set("webhook-id", "msg_3_17")
	h.Set("webhook-timestamp", fmt.Sprint(now.Unix()))
	h.Set("webhook-signature", sig)
	fmt.Println(webhooks.Verify(secret, h, body))
	fmt.Println(webhooks.Verify(secret, h, []byte(`{"type":"tag.created"}`)))
	// Output:
	// <nil>
	// webhooks: no matching signature
}

// Target URLs are checked when a subscription is created or changed; the
// resolved address is checked again on every connection.
func ExampleValidateTarget() {
	for _, u := range []string{
		"https://hooks.example.com/eventcal",
		"http://hooks.example.com/eventcal",
		"https://169.254.169.254/latest/meta-data/",
		"https://admin:pw@hooks.example.com/",
	} {
		fmt.Println(webhooks.ValidateTarget(u, webhooks.TargetPolicy{}))
	}
	// Output:
	// <nil>
	// webhooks: invalid url: must be an https URL
	// webhooks: invalid url: points to a cloud metadata address
	// webhooks: invalid url: must not hold a user name or password
}
