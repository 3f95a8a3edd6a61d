package redisstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/eventcal/eventcal/calendar"
	"github.com/redis/go-redis/v9"
)

var _ calendar.TermTreeReader = (*Store)(nil)

// termTreeScript resolves terms by id or slug and walks the children sets
// of those found (cat:children, ascending ids), breadth first, in one round
// trip: {records, tree}, records[i] false when item i names no term.
//
//	KEYS[1] the slug hash of the taxonomy
//	ARGV termPrefix childrenPrefix n {id slug}×n
var termTreeScript = redis.NewScript(`
local termPrefix, childrenPrefix, n = ARGV[1], ARGV[2], tonumber(ARGV[3])
local recs, tree, seen = {}, {}, {}
for i = 1, n do
  local id, slug = ARGV[2 + 2 * i], ARGV[3 + 2 * i]
  if id == '0' then
    id = false
    if slug ~= '' then id = redis.call('HGET', KEYS[1], slug) end
  end
  local v = id and redis.call('GET', termPrefix .. id)
  recs[i] = v or false
  if v and not seen[id] then
    seen[id] = true
    tree[#tree + 1] = id
  end
end
local i = 1
while i <= #tree do
  for _, c in ipairs(redis.call('ZRANGE', childrenPrefix .. tree[i], 0, -1)) do
    if not seen[c] then
      seen[c] = true
      tree[#tree + 1] = c
    end
  end
  i = i + 1
end
return {recs, tree}
`)

// TermsWithDescendants resolves the terms ids and slugs name and the ids
// of all their descendants in one script run (termTreeScript). The script
// reads any term an id names; one of another taxonomy is dropped here, with
// its id (only categories have children).
func (s *Store) TermsWithDescendants(ctx context.Context, tax calendar.Taxonomy, ids []int64, slugs []string) ([]*calendar.TermRecord, []int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if len(ids) != len(slugs) {
		return nil, nil, fmt.Errorf("redisstore: terms with descendants: %d ids, %d slugs", len(ids), len(slugs))
	}
	terms := make([]*calendar.TermRecord, len(ids))
	kind := tax.Kind()
	if kind == 0 || len(ids) == 0 {
		return terms, nil, nil
	}
	args := []any{s.k.termPrefix(), s.k.childrenPrefix(), len(ids)}
	for i, id := range ids {
		args = append(args, max(id, 0), slugs[i])
	}
	reply, err := termTreeScript.Run(ctx, s.c, []string{s.k.slugs(kind)}, args...).Slice()
	if err != nil {
		return nil, nil, fail(ctx, "terms with descendants", err)
	}
	var recs, ids2 []any
	ok := len(reply) == 2
	if ok {
		var ok1, ok2 bool
		recs, ok1 = reply[0].([]any)
		ids2, ok2 = reply[1].([]any)
		ok = ok1 && ok2 && len(recs) == len(ids)
	}
	if !ok { // checked before any index: a short reply must not panic
		return nil, nil, fmt.Errorf("redisstore: terms with descendants: unexpected reply %.50v", reply)
	}
	other := map[int64]bool{}
	for i, r := range recs {
		raw, ok := r.(string)
		if !ok {
			continue
		}
		t, err := s.decodeTerm(raw)
		if err != nil {
			return nil, nil, err
		}
		if t.Taxonomy != tax {
			other[t.ID] = true
			continue
		}
		terms[i] = t
	}
	tree := make([]int64, 0, len(ids2))
	for _, v := range ids2 {
		str, _ := v.(string)
		id, err := strconv.ParseInt(str, 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("redisstore: terms with descendants: member %q: %w", str, err)
		}
		if !other[id] {
			tree = append(tree, id)
		}
	}
	return terms, tree, nil
}
