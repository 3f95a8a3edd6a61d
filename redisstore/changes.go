package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/redis/go-redis/v9"
)

// The change log of a calendar is a sorted set scored by Seq, whose members
// spell the whole change ("seq|tx|kind|id|action|version|series|unixnano"),
// beside a counter of the newest Seq and the newest Seq trimmed away. All
// three share the calendar's hash tag, and applyScript appends to them in the
// same script run as the records, so a write and its changes are one.
// Every append is also published on the calendar's channel, which wakes
// WaitChanges in every process.
func (k keys) changeLog() string     { return k.tag + "changes" }
func (k keys) changeSeq() string     { return k.tag + "seq:change" }
func (k keys) changeTrimmed() string { return k.tag + "changes:trimmed" }
func (k keys) changeChannel() string { return k.tag + "changes:notify" }

// WithChangeRetention sets how long and how many changes the change log
// keeps (calendar.ChangeRetention.Normalized applies; default 30 days, at
// most a million).
func WithChangeRetention(r calendar.ChangeRetention) Option {
	return func(s *Store) error {
		s.retention = r.Normalized()
		return nil
	}
}

var _ calendar.ChangeLog = (*Store)(nil)

// retentionArgs are the script's retention arguments: the count kept, the
// oldest instant kept (Unix nanoseconds) and the most one write trims.
func (s *Store) retentionArgs(now time.Time) []any {
	r := s.retention
	if r == (calendar.ChangeRetention{}) {
		r = calendar.DefaultChangeRetention
	}
	return []any{r.MaxCount, now.Add(-r.MaxAge).UnixNano(), storage.MaxTrimPerWrite}
}

// addChange plans the change of one record write: the script appends it,
// numbered, when the write commits (and skips it with the other writes of
// an ensure step that found its record). id and series may be holes.
func (sa *stepArgs) addChange(cond string, c calendar.Change, id, series tval, now time.Time) {
	sa.add("chg", cond, cat(
		lit(strconv.Itoa(int(c.Kind))+"|"), id,
		lit("|"+string(c.Action)+"|"+itoa(c.Version)+"|"), series,
		lit("|"+strconv.FormatInt(now.UnixNano(), 10))))
}

// seriesVal is the series id of post p as a tval: its PostParent when it is
// an occurrence (which may be a placeholder), else 0.
func seriesVal(p *calendar.PostRecord) tval {
	if p.Kind == calendar.KindEvent && !p.RecurrenceID.IsZero() && p.PostParent != 0 {
		return refVal(p.PostParent)
	}
	return lit("0")
}

// parseChange reads one log member.
func parseChange(m string) (calendar.Change, error) {
	f := strings.Split(m, "|")
	if len(f) != 8 {
		return calendar.Change{}, fmt.Errorf("%w: malformed change-log entry %.60q", storage.ErrBadRecord, m)
	}
	var n [7]int64
	for i, j := range []int{0, 1, 2, 3, 5, 6, 7} {
		v, err := strconv.ParseInt(f[j], 10, 64)
		if err != nil {
			return calendar.Change{}, fmt.Errorf("%w: malformed change-log entry %.60q", storage.ErrBadRecord, m)
		}
		n[i] = v
	}
	return calendar.Change{Seq: n[0], Tx: n[1], Kind: calendar.Kind(n[2]), ID: n[3],
		Action: calendar.ChangeAction(f[4]), Version: n[4], Series: n[5], Time: time.Unix(0, n[6]).UTC()}, nil
}

// ChangesAfter implements calendar.ChangeLog in one round trip.
func (s *Store) ChangesAfter(ctx context.Context, after int64, limit int) ([]calendar.Change, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 100
	}
	var trimmed *redis.StringCmd
	var rng *redis.StringSliceCmd
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		trimmed = p.Get(ctx, s.k.changeTrimmed())
		rng = p.ZRangeByScore(ctx, s.k.changeLog(), &redis.ZRangeBy{
			Min: "(" + itoa(after), Max: "+inf", Count: int64(limit)})
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, fail(ctx, "changes", err)
	}
	if t, _ := trimmed.Int64(); after < t {
		return nil, fmt.Errorf("redisstore: changes after %d: %w", after, calendar.ErrChangesExpired)
	}
	out := make([]calendar.Change, 0, len(rng.Val()))
	for _, m := range rng.Val() {
		c, err := parseChange(m)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// LastChangeSeq implements calendar.ChangeLog.
func (s *Store) LastChangeSeq(ctx context.Context) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n, err := s.c.Get(ctx, s.k.changeSeq()).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, fail(ctx, "last change", err)
	}
	return n, nil
}

// TrimChanges implements calendar.ChangeLog with trimScript, a bounded
// batch per round trip.
func (s *Store) TrimChanges(ctx context.Context, now time.Time) error {
	for {
		n, err := trimScript.Run(ctx, s.c, []string{s.k.changeLog()}, append(s.retentionArgs(now)[:2], 10_000, s.k.tag)...).Int()
		if err != nil {
			return fail(ctx, "trim changes", err)
		}
		if n == 0 {
			return nil
		}
	}
}

// waitPoll bounds a wait between two checks of the counter, should a
// published message be lost (a reconnect of the subscription).
const waitPoll = time.Second

// WaitChanges implements calendar.ChangeLog: it subscribes to the
// calendar's channel before checking the counter, so a write in any process
// between the check and the wait still wakes it.
func (s *Store) WaitChanges(ctx context.Context, after int64) error {
	sub := s.c.Subscribe(ctx, s.k.changeChannel())
	defer sub.Close()
	if _, err := sub.Receive(ctx); err != nil {
		return fail(ctx, "wait for changes", err)
	}
	ch := sub.Channel()
	t := time.NewTimer(waitPoll)
	defer t.Stop()
	for {
		n, err := s.LastChangeSeq(ctx)
		if err != nil {
			return err
		}
		if n > after {
			return nil
		}
		t.Reset(waitPoll)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		case <-t.C:
		}
	}
}

// trimLua removes, oldest first, at most maxTrim changes beyond maxCount or
// older than cutNs, and moves the trimmed counter; it reads no more entries
// than it removes, plus one. It is part of applyScript, and trimScript for
// maintenance.
const trimLua = `
local function trimChanges(logKey, trimKey, maxCount, cutNs, maxTrim)
  local n = redis.call('ZCARD', logKey)
  local removed, upTo = 0, nil
  while removed < maxTrim and n > 0 do
    local first = redis.call('ZRANGE', logKey, '0', '0')[1] -- strings: a Lua number would be formatted
    local seq = string.match(first, '^(%d+)|')
    local ns = tonumber(string.match(first, '|(%-?%d+)$'))
    if n <= maxCount and ns >= cutNs then break end
    redis.call('ZREMRANGEBYRANK', logKey, 0, 0)
    upTo, n, removed = seq, n - 1, removed + 1
  end
  if upTo then redis.call('SET', trimKey, upTo) end
  return removed
end
`

// trimScript: KEYS[1] the log; ARGV maxCount cutNs maxTrim tag. Reply: the
// number of changes removed.
var trimScript = redis.NewScript(trimLua + `
return trimChanges(KEYS[1], ARGV[4] .. 'changes:trimmed', tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
`)
