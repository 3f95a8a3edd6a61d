package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/redis/go-redis/v9"
)

// A calendar written with layout 2 (before the name and UID indexes) or 3
// (before the link and author status sets) is migrated once, by the first
// Store that meets it: it sets the format key to migratingFormat, which every
// writer of any layout refuses (an older driver compares the key with its
// own format), adds every index entry of every record (postEntries,
// termEntries: those it had are set again to the same score), and sets the
// key to this driver's format. A lease key marks the
// migration as alive; should its Store die, the lease runs out and the next
// Store that meets the calendar starts again (building an index entry twice
// is harmless, and nothing else changed the records meanwhile). Stores that
// meet a calendar being migrated wait for it, within their context.
const (
	migratingFormat = "migrating"
	migrationLease  = 30 * time.Second
	migrationBatch  = 1000
	migrationPoll   = 50 * time.Millisecond
)

// migratable reports whether a calendar of format stored can be migrated to
// this layout: layout 2 or 3 with a record encoding storage decodes.
func migratable(stored string) bool {
	enc, layout, ok := strings.Cut(stored, ".")
	e, err1 := strconv.Atoi(enc)
	l, err2 := strconv.Atoi(layout)
	return ok && err1 == nil && err2 == nil && (l == 2 || l == 3) && e >= 1 && e <= storage.FormatVersion
}

func acceptedFormat(stored string) bool {
	return stored == "" || strings.Contains(acceptedFormats, ","+stored+",")
}

// layoutOK reports whether a read that saw format stored may trust the
// indexes of this layout; when the calendar needs migrating it migrates it (or waits
// for the Store doing so) and returns false, so that the caller reads again.
func (s *Store) layoutOK(ctx context.Context, stored string) (bool, error) {
	if acceptedFormat(stored) {
		return true, nil
	}
	return false, s.upgrade(ctx, stored)
}

// upgrade brings a calendar of format stored to this driver's layout, or
// returns the error refusing it.
func (s *Store) upgrade(ctx context.Context, stored string) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if acceptedFormat(stored) {
			return nil
		}
		if stored != migratingFormat && !migratable(stored) {
			return fmt.Errorf("redisstore: calendar stored with format %s; this driver writes %s (encoding.layout) and migrates layouts 2 and 3 only: %w",
				stored, storeFormat, storage.ErrBadRecord)
		}
		var b [12]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		token := hex.EncodeToString(b[:])
		res, err := beginMigrationScript.Run(ctx, s.c, []string{s.k.format(), s.k.migrating()},
			stored, token, migrationLease.Milliseconds()).StringSlice()
		if err != nil {
			return fail(ctx, "migrate", err)
		}
		switch res[0] {
		case "go":
			if err := s.migrate(ctx, token); err != nil {
				return fmt.Errorf("redisstore: migrating the calendar to layout %d: %w", layoutVersion, err)
			}
			stored = storeFormat
		case "wait":
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(migrationPoll):
			}
			stored, err = s.c.Get(ctx, s.k.format()).Result()
			if err != nil && !errors.Is(err, redis.Nil) {
				return fail(ctx, "migrate", err)
			}
		default: // "now": another Store changed the format meanwhile
			stored = res[1]
		}
	}
}

// migrate adds every index entry and UID of every record, then sets the
// format, provided the lease token is still this Store's.
func (s *Store) migrate(ctx context.Context, token string) error {
	sets := []struct {
		index string
		post  bool
	}{
		{s.k.kindIndex(calendar.KindVenue), true}, {s.k.kindIndex(calendar.KindOrganizer), true},
		{s.k.evStart(), true}, {s.k.kindIndex(calendar.KindCategory), false}, {s.k.kindIndex(calendar.KindTag), false},
	}
	for _, set := range sets {
		members, err := s.c.ZRange(ctx, set.index, 0, -1).Result()
		if err != nil {
			return fail(ctx, "migrate", err)
		}
		ids := parseIDs(members)
		for lo := 0; lo < len(ids); lo += migrationBatch {
			chunk := ids[lo:min(lo+migrationBatch, len(ids))]
			keys := make([]string, len(chunk))
			for i, id := range chunk {
				if set.post {
					keys[i] = s.k.post(id)
				} else {
					keys[i] = s.k.term(id)
				}
			}
			vals, err := s.fetch(ctx, "migrate", keys)
			if err != nil {
				return err
			}
			pipe := s.c.Pipeline()
			for _, raw := range vals {
				if raw == nil {
					continue
				}
				var member string
				var entries []zentry
				if set.post {
					p, err := storage.DecodePost(raw)
					if err != nil {
						return err
					}
					member, entries = itoa(p.ID), s.k.postEntries(p)
					if p.UID != "" {
						pipe.HSetNX(ctx, s.k.uids(p.Kind), p.UID, member)
					}
				} else {
					t, err := storage.DecodeTerm(raw)
					if err != nil {
						return err
					}
					member, entries = itoa(t.ID), s.k.termEntries(t)
				}
				for _, e := range entries {
					pipe.Do(ctx, "ZADD", e.key, e.score, member)
				}
			}
			renew := renewMigrationScript.Eval(ctx, pipe, []string{s.k.migrating()}, token, migrationLease.Milliseconds())
			if _, err := pipe.Exec(ctx); err != nil {
				return fail(ctx, "migrate", err)
			}
			if n, _ := renew.Int(); n != 1 {
				return errors.New("the migration lease was lost")
			}
		}
	}
	n, err := finishMigrationScript.Run(ctx, s.c, []string{s.k.format(), s.k.migrating()}, token, storeFormat).Int()
	if err != nil {
		return fail(ctx, "migrate", err)
	}
	if n != 1 {
		return errors.New("the migration lease was lost")
	}
	return nil
}

// beginMigrationScript takes the migration of a calendar whose format is
// still ARGV[1], or whose migration lost its lease.
//
//	KEYS format lease; ARGV expected token leaseMs
//	Reply {"go"} | {"wait"} | {"now", format}
var beginMigrationScript = redis.NewScript(`
local f = redis.call('GET', KEYS[1]) or ''
if f == 'migrating' then
  if redis.call('EXISTS', KEYS[2]) == 1 then return {'wait'} end
elseif f ~= ARGV[1] then
  return {'now', f}
end
redis.call('SET', KEYS[1], 'migrating')
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return {'go'}
`)

// renewMigrationScript extends the lease if it is still ARGV[1]'s.
var renewMigrationScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`)

// finishMigrationScript sets the format and drops the lease, if the lease is
// still ARGV[1]'s.
var finishMigrationScript = redis.NewScript(`
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2])
return 1
`)
