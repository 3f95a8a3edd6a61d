package tectest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
)

// Fault is how an injected failure looks to the client.
type Fault int

// The faults a site can inject.
const (
	// Cut closes the connection before any answer, as a dropped network does.
	Cut Fault = iota + 1
	// CutMidBody sends the status line, the headers and half of the body,
	// then closes the connection.
	CutMidBody
	// Unavailable answers 503 with Retry-After: 0, as an overloaded site does.
	Unavailable
)

type faults struct {
	mu     sync.Mutex
	skip   int
	left   int
	fault  Fault
	served int
}

// FailNext lets the next skip requests through, then fails the n requests
// after them with fault f. A later call replaces an earlier one.
func (s *Site) FailNext(skip, n int, f Fault) {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.skip, s.faults.left, s.faults.fault = skip, n, f
}

// FaultsServed returns how many requests have been failed on purpose.
func (s *Site) FaultsServed() int {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	return s.faults.served
}

// hit fails the request when a fault is due; it reports whether it did.
func (f *faults) hit(w http.ResponseWriter, r *http.Request, s *Site) bool {
	f.mu.Lock()
	if f.left == 0 {
		f.mu.Unlock()
		return false
	}
	if f.skip > 0 {
		f.skip--
		f.mu.Unlock()
		return false
	}
	f.left--
	f.served++
	fault := f.fault
	f.mu.Unlock()

	switch fault {
	case Unavailable:
		w.Header().Set("Retry-After", "0")
		writeError(w, http.StatusServiceUnavailable, "service_unavailable", "The site is busy.", nil)
		return true
	case CutMidBody:
		rec := httptest.NewRecorder()
		s.serve(rec, r)
		body := rec.Body.Bytes()
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: %d\r\n\r\n",
			rec.Code, http.StatusText(rec.Code), len(body))
		buf.Write(body[:len(body)/2])
		buf.Flush()
		conn.Close()
		return true
	default:
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		conn.Close()
		return true
	}
}
