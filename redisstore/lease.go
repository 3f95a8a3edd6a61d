package redisstore

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Leaser hands out expiring leases on Redis, so that one of several app
// instances sharing a calendar does a job at a time — the webhook
// dispatcher (httpadapter/webhooks.Leaser) delivers each subscription from
// one instance. A lease is a key holding its owner with a Redis expiry: when
// the owning instance dies it stops renewing, the key expires, and another
// instance acquires it. Keys share the calendar's hash tag, so the leaser
// works on Redis Cluster.
type Leaser struct {
	c redis.UniversalClient
	k keys
}

// NewLeaser returns the leaser of the calendar s stores (same client, same
// prefix).
func (s *Store) NewLeaser() *Leaser { return &Leaser{c: s.c, k: s.k} }

func (l *Leaser) key(name string) string { return l.k.tag + "lease:" + name }

// acquireScript: KEYS[1] the lease; ARGV owner ttlMs. Takes a free lease or
// extends the owner's; replies 1 when the owner holds it afterwards.
var acquireScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`)

// renewScript: like acquireScript, but only when the owner holds it.
var renewScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`)

// releaseScript deletes the lease if the owner holds it.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`)

func ttlMillis(ttl time.Duration) (int64, error) {
	if ttl < time.Millisecond {
		return 0, errors.New("redisstore: lease ttl below a millisecond")
	}
	return ttl.Milliseconds(), nil
}

// Acquire takes lease name for owner for ttl, or extends it when owner
// holds it already; false when another owner holds it.
func (l *Leaser) Acquire(ctx context.Context, name, owner string, ttl time.Duration) (bool, error) {
	ms, err := ttlMillis(ttl)
	if err != nil {
		return false, err
	}
	n, err := acquireScript.Run(ctx, l.c, []string{l.key(name)}, owner, ms).Int()
	if err != nil {
		return false, fail(ctx, "acquire lease", err)
	}
	return n == 1, nil
}

// Renew extends owner's lease by ttl from now; false when owner no longer
// holds it.
func (l *Leaser) Renew(ctx context.Context, name, owner string, ttl time.Duration) (bool, error) {
	ms, err := ttlMillis(ttl)
	if err != nil {
		return false, err
	}
	n, err := renewScript.Run(ctx, l.c, []string{l.key(name)}, owner, ms).Int()
	if err != nil {
		return false, fail(ctx, "renew lease", err)
	}
	return n == 1, nil
}

// Release gives the lease up if owner holds it.
func (l *Leaser) Release(ctx context.Context, name, owner string) error {
	if err := releaseScript.Run(ctx, l.c, []string{l.key(name)}, owner).Err(); err != nil {
		return fail(ctx, "release lease", err)
	}
	return nil
}
