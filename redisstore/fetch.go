package redisstore

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// fetch reads the values of keys (nil for a missing key) with MGETs: one
// round trip when len(keys) ≤ the fetch batch, else one pipelined round trip
// per batch. Each MGET holds at most mgetChunk keys so that Redis serves other
// clients between them.
func (s *Store) fetch(ctx context.Context, op string, keys []string) ([][]byte, error) {
	out := make([][]byte, 0, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	chunk := min(mgetChunk, s.batch)
	if len(keys) <= chunk {
		vals, err := s.c.MGet(ctx, keys...).Result()
		if err != nil {
			return nil, fail(ctx, op, err)
		}
		return appendValues(out, vals), nil
	}
	for start := 0; start < len(keys); start += s.batch {
		end := min(start+s.batch, len(keys))
		pipe := s.c.Pipeline()
		var cmds []*redis.SliceCmd
		for i := start; i < end; i += chunk {
			cmds = append(cmds, pipe.MGet(ctx, keys[i:min(i+chunk, end)]...))
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return nil, fail(ctx, op, err)
		}
		for _, c := range cmds {
			out = appendValues(out, c.Val())
		}
	}
	return out, nil
}

func appendValues(out [][]byte, vals []any) [][]byte {
	for _, v := range vals {
		if s, ok := v.(string); ok {
			out = append(out, []byte(s))
		} else {
			out = append(out, nil)
		}
	}
	return out
}

// getRaw reads one key; found is false when it does not exist.
func (s *Store) getRaw(ctx context.Context, op, key string) (raw []byte, found bool, err error) {
	raw, err = s.c.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fail(ctx, op, err)
	}
	return raw, true, nil
}
