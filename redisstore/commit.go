package redisstore

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// commit collects one atomic write for commitScript: the guards it must
// check, how it gets the id and the slug, and the write ops.
type commit struct {
	prefix string // record key prefix: own key is prefix+id
	keys   []string
	index  map[string]int
	guards []any
	ng     int
	id     []any
	slug   []any
	ops    []any
}

// ownKey is the key index commitScript resolves to the record's own key.
const ownKey = "0"

func newCommit(k keys, recordPrefix string) *commit {
	c := &commit{prefix: recordPrefix, index: map[string]int{}, slug: []any{"none"}}
	c.key(k.format())
	return c
}

// key declares a key and returns its index for the script.
func (c *commit) key(name string) string {
	i, ok := c.index[name]
	if !ok {
		c.keys = append(c.keys, name)
		i = len(c.keys)
		c.index[name] = i
	}
	return strconv.Itoa(i)
}

// guardValue makes the commit fail as stale unless key still holds exactly
// value (nil: does not exist).
func (c *commit) guardValue(key string, value []byte) {
	sum := "-"
	if value != nil {
		sum = sha1hex(value)
	}
	c.guards = append(c.guards, "v", c.key(key), sum)
	c.ng++
}

// guardMembers makes the commit fail as stale unless the sorted set key
// still holds exactly members, in this order.
func (c *commit) guardMembers(key string, members []string) {
	var b []byte
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m...)
	}
	c.guards = append(c.guards, "m", c.key(key), sha1hex(b))
	c.ng++
}

func sha1hex(b []byte) string {
	s := sha1.Sum(b)
	return hex.EncodeToString(s[:])
}

func (c *commit) newID(seqKey string) { c.id = []any{"new", c.key(seqKey)} }
func (c *commit) useID(id int64)      { c.id = []any{"id", itoa(id)} }

// pickSlug reserves the first free SlugCandidate of want in the slug hash and
// releases old (when hasOld) if it differs.
func (c *commit) pickSlug(hash, want string, hasOld bool, old string) {
	flag := "0"
	if hasOld {
		flag = "1"
	}
	c.slug = []any{"pick", c.key(hash), want, flag, old}
}

func (c *commit) op(args ...any) { c.ops = append(c.ops, args...) }

func (c *commit) template(t recordTemplate) { c.op("tpl", ownKey, t.p1, t.p2, t.p3) }
func (c *commit) set(key string, v []byte)  { c.op("set", c.key(key), v) }
func (c *commit) del(key string)            { c.op("del", c.key(key)) }
func (c *commit) delOwn()                   { c.op("del", ownKey) }
func (c *commit) zadd(key, score, member string) {
	c.op("zadd", c.key(key), score, member)
}
func (c *commit) zrem(key, member string)          { c.op("zrem", c.key(key), member) }
func (c *commit) hset(key, field string, v []byte) { c.op("hset", c.key(key), field, v) }
func (c *commit) hdel(key, field string)           { c.op("hdel", c.key(key), field) }
func (c *commit) hdelIf(key, field, value string)  { c.op("hdelif", c.key(key), field, value) }

// reindex moves member from the entries in old to those in now, touching
// only what changed.
func (c *commit) reindex(old, now []zentry, member string) {
	nowm := make(map[string]string, len(now))
	for _, e := range now {
		nowm[e.key] = e.score
	}
	oldm := make(map[string]string, len(old))
	for _, e := range old {
		oldm[e.key] = e.score
		if _, keep := nowm[e.key]; !keep {
			c.zrem(e.key, member)
		}
	}
	done := make(map[string]bool, len(now))
	for _, e := range now {
		if s, ok := oldm[e.key]; (!ok || s != e.score) && !done[e.key] {
			c.zadd(e.key, e.score, member)
		}
		done[e.key] = true
	}
}

// errStale reports that a guard failed: another writer changed what this
// commit was decided on, so the caller reads again.
var errStale = fmt.Errorf("redisstore: stale read")

// layoutVersion numbers the key layout of this driver (which indexes exist
// and what they hold). It is stored with the record encoding version in the
// calendar's format key; a calendar written with another layout is refused
// rather than answered from indexes it does not have.
const layoutVersion = 2

// storeFormat is the value of the format key: "<encoding>.<layout>".
var storeFormat = strconv.Itoa(storage.FormatVersion) + "." + strconv.Itoa(layoutVersion)

// run executes the commit and returns the id and slug it used.
func (s *Store) run(ctx context.Context, op string, c *commit) (int64, string, error) {
	args := make([]any, 0, 8+len(c.guards)+len(c.ops))
	args = append(args, c.prefix, storeFormat, calendar.MaxSlugLen, c.ng)
	args = append(args, c.guards...)
	if c.id == nil {
		return 0, "", fmt.Errorf("redisstore: %s: commit without id", op)
	}
	args = append(args, c.id...)
	args = append(args, c.slug...)
	args = append(args, c.ops...)
	res, err := commitScript.Run(ctx, s.c, c.keys, args...).StringSlice()
	if err != nil {
		return 0, "", fail(ctx, op, err)
	}
	if len(res) < 2 {
		return 0, "", fmt.Errorf("redisstore: %s: unexpected reply %q", op, res)
	}
	switch res[0] {
	case "ok":
		if len(res) != 3 {
			return 0, "", fmt.Errorf("redisstore: %s: unexpected reply %q", op, res)
		}
		id, err := strconv.ParseInt(res[1], 10, 64)
		if err != nil {
			return 0, "", fmt.Errorf("redisstore: %s: bad id %q", op, res[1])
		}
		return id, res[2], nil
	case "stale":
		return 0, "", errStale
	case "format":
		return 0, "", fmt.Errorf("redisstore: %s: calendar stored with format %s, this driver writes %s (encoding.layout): %w",
			op, res[1], storeFormat, storage.ErrBadRecord)
	}
	return 0, "", fmt.Errorf("redisstore: %s: unexpected reply %q", op, res)
}
