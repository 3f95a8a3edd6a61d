package redisstore

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// fetch reads the values of keys (nil for a missing key): see batched.
func (s *Store) fetch(ctx context.Context, op string, keys []string) ([][]byte, error) {
	vals, err := s.batched(ctx, op, len(keys), func(c redis.Cmdable, lo, hi int) *redis.SliceCmd {
		return c.MGet(ctx, keys[lo:hi]...)
	})
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(vals))
	for i, v := range vals {
		if s, ok := v.(string); ok {
			out[i] = []byte(s)
		}
	}
	return out, nil
}

// batched reads n values with cmd (an MGET or HMGET of items lo..hi): one
// round trip when n ≤ the fetch batch, else one pipelined round trip per
// batch. Each command holds at most mgetChunk items so that Redis serves
// other clients between them. Values are strings, or nil when missing.
func (s *Store) batched(ctx context.Context, op string, n int, cmd func(c redis.Cmdable, lo, hi int) *redis.SliceCmd) ([]any, error) {
	if n == 0 {
		return []any{}, nil
	}
	chunk := min(mgetChunk, s.batch)
	if n <= chunk { // the reply itself: no copy
		vals, err := cmd(s.c, 0, n).Result()
		if err != nil {
			return nil, fail(ctx, op, err)
		}
		return vals, nil
	}
	out := make([]any, 0, n)
	for start := 0; start < n; start += s.batch {
		end := min(start+s.batch, n)
		pipe := s.c.Pipeline()
		var cmds []*redis.SliceCmd
		for i := start; i < end; i += chunk {
			cmds = append(cmds, cmd(pipe, i, min(i+chunk, end)))
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return nil, fail(ctx, op, err)
		}
		for _, c := range cmds {
			out = append(out, c.Val()...)
		}
	}
	return out, nil
}
