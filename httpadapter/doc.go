// Package httpadapter serves a calendar.Calendar over HTTP as the classic
// events-calendar REST API (wire.md): every route of the namespace
// calendar/events/v1 (and configured aliases such as tribe/events/v1),
// optionally behind a language segment, with the namespace index and an
// OpenAPI 3.0 document generated from the same route table the router serves.
//
// The adapter holds no business rule: it decodes arguments into the calendar
// query and input types, runs the operation as the authenticated principal
// (or calendar.Anonymous, never the trusted empty context), and renders the
// result or maps the *calendar.Error to a status code in one place.
//
// Mount it in your own mux. With WithRoot("/wp-json") the handler matches
// full paths, so Register can add it for the root and every language prefix:
//
//	h := httpadapter.New(cal, httpadapter.WithRoot("/wp-json"), httpadapter.WithLanguageSegments(true))
//	h.Register(mux) // "/wp-json/" and "/fr/wp-json/", "/de/wp-json/", …
//
// Without a root it serves paths that start at the namespace, so
// http.StripPrefix works too:
//
//	mux.Handle("/api/", http.StripPrefix("/api", httpadapter.New(cal)))
//
// Serve the mux through Guard, so that paths with empty or dot segments get
// 404 rest_no_route instead of the mux's redirect, from an http.Server with
// timeouts: the handler bounds the wait for a request body itself
// (WithBodyReadTimeout, 408 rest_request_timeout), the server's
// ReadHeaderTimeout, WriteTimeout and IdleTimeout bound the rest. Metrics
// counts requests by route pattern for Prometheus; BasicAuth checks bcrypt
// password hashes from a users file (ParseUsers, HashPassword).
package httpadapter
