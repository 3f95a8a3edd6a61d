package httpadapter

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"sync"
	"time"
)

// credentialCache remembers, per user name, the last password that passed
// bcrypt, as an HMAC under a key that never leaves the process: neither the
// password nor a digest that could be brute-forced offline without the key
// is kept. It holds at most one entry per user of the table.
type credentialCache struct {
	key []byte
	ttl time.Duration
	now func() time.Time

	mu sync.Mutex
	m  map[string]cachedCredential
	// hits counts passwords accepted without bcrypt (tests read it).
	hits int
}

type cachedCredential struct {
	mac   [sha256.Size]byte
	until time.Time
}

func (c *credentialCache) init() {
	c.key = randomBytes(32)
	c.ttl = CredentialCacheTTL
	c.now = time.Now
	c.m = map[string]cachedCredential{}
}

func (c *credentialCache) mac(name, pass string) [sha256.Size]byte {
	h := hmac.New(sha256.New, c.key)
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write([]byte(pass))
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// verified reports whether name was verified with this password within the
// time to live.
func (c *credentialCache) verified(name string, mac [sha256.Size]byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[name]
	if !ok {
		return false
	}
	if !c.now().Before(e.until) {
		delete(c.m, name)
		return false
	}
	if !hmac.Equal(e.mac[:], mac[:]) {
		return false
	}
	c.hits++
	return true
}

// remember records a password that has just passed bcrypt.
func (c *credentialCache) remember(name string, mac [sha256.Size]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[name] = cachedCredential{mac: mac, until: c.now().Add(c.ttl)}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand panics rather than return short)
	return b
}
