package httpadapter

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

// startBodyDeadline sets the connection's read deadline for a request that
// carries a body, so that a client trickling it cannot hold the handler
// (and, once the handler has answered, the server draining the unread rest)
// longer than the configured wait. It reports whether a deadline was set.
func (h *Handler) startBodyDeadline(w http.ResponseWriter, r *http.Request) bool {
	wait := h.cfg.bodyWait
	if wait <= 0 || r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return false
	}
	if srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server); ok && srv.ReadTimeout > 0 && srv.ReadTimeout <= wait {
		return false // the server's own deadline is already the stricter one
	}
	// Without support (a recorder in tests, a wrapper hiding the
	// connection) the body is read without a bound: nothing better can be
	// done from inside a handler without racing the server on r.Body.
	return http.NewResponseController(w).SetReadDeadline(time.Now().Add(wait)) == nil
}

// readRequestBody reads the body of r like readBody, answering a body that
// did not arrive within the deadline with 408 rather than 400. Once the body
// has been read to its end, net/http lifts the read deadline itself (its
// background read watching for a vanished client starts without one), so a
// handler that works longer than the wait is not cancelled.
func (h *Handler) readRequestBody(w http.ResponseWriter, r *http.Request) (map[string]any, error) {
	var tb *timeoutBody
	if r.Body != nil && r.Body != http.NoBody {
		tb = &timeoutBody{ReadCloser: r.Body}
		r.Body = tb // r is the handler's own shallow copy of the request
	}
	body, err := readBody(w, r, h.cfg.bodyLimit)
	if err != nil {
		if tb != nil && tb.timedOut {
			w.Header().Set("Connection", "close")
			return nil, errRequestTimeout()
		}
		return nil, err
	}
	return body, nil
}

// timeoutBody remembers whether a read failed because a deadline passed.
type timeoutBody struct {
	io.ReadCloser
	timedOut bool
}

func (b *timeoutBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && isTimeout(err) {
		b.timedOut = true
	}
	return n, err
}

func isTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// errRequestTimeout is the answer to a body that came too slowly. 408 says
// what happened (the client may retry on a fresh connection); the
// connection is closed because the rest of the body is never read.
func errRequestTimeout() error {
	return &httpError{http.StatusRequestTimeout, "rest_request_timeout",
		"The request body did not arrive in time."}
}
