package httpadapter

import (
	"net/http"
	"strings"
)

// Challenger is implemented by authenticators that can tell a client how to
// authenticate: the WWW-Authenticate challenges sent with every 401. The
// ready-made ones (BasicAuth, BearerAuth, Chain) implement it.
type Challenger interface {
	Challenges(realm string) []string
}

// DefaultRealm is the realm of the 401 challenges unless WithRealm says
// otherwise.
const DefaultRealm = "eventcal"

// challenge adds the WWW-Authenticate challenges to a 401 answer: those of
// the authenticator, else Basic (HTTP requires at least one).
func (h *Handler) challenge(hd http.Header) {
	var cs []string
	if c, ok := h.cfg.auth.(Challenger); ok {
		cs = c.Challenges(h.cfg.realm)
	}
	if len(cs) == 0 {
		cs = []string{"Basic realm=" + quote(h.cfg.realm)}
	}
	hd.Del("WWW-Authenticate")
	for _, c := range cs {
		hd.Add("WWW-Authenticate", c)
	}
}

// quote makes a quoted-string of s.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
