package redisstore

import "github.com/redis/go-redis/v9"

// listScript answers the first round trip of a list. When the Go side sent
// the arguments of the exact window path (ARGV[1] > 0, see window.go) it
// first tries to answer the whole list — total and page records — with
// sorted-set counts and a bounded number of meta checks; it replies
// {"page", total, records} then. Otherwise, or when that path gives up, it
// counts each candidate group (a union of sorted sets ranged by score) and
// returns the members of the smallest one, so the list reads no more than the
// narrowest index allows: {"cand", members...}, one member array per set of a
// disjoint group (status sets: an event has one status), or one deduplicated
// array for other unions (an event may have several categories).
//
//	KEYS  the sorted sets of every group, group after group; then the keys of
//	      the window path
//	ARGV  windowArgsIndex nGroups {nKeys min max disjoint}... windowArgs...
var listScript = redis.NewScript(windowLua + `
local function candidates()
  local ng = tonumber(ARGV[2])
  local a, k = 3, 1
  local best, bestCount, bestFirst, bestN, bestMin, bestMax, bestDisjoint
  for g = 1, ng do
    local n, min, max = tonumber(ARGV[a]), ARGV[a + 1], ARGV[a + 2]
    local c = 0
    for i = k, k + n - 1 do c = c + redis.call('ZCOUNT', KEYS[i], min, max) end
    if not best or c < bestCount then
      best, bestCount, bestFirst, bestN, bestMin, bestMax, bestDisjoint = g, c, k, n, min, max, ARGV[a + 3] == '1'
    end
    if c == 0 then break end
    a, k = a + 4, k + n
  end
  if bestCount == 0 then return {'cand'} end
  if bestN == 1 or bestDisjoint then
    local out = {'cand'}
    for i = bestFirst, bestFirst + bestN - 1 do
      out[i - bestFirst + 2] = redis.call('ZRANGEBYSCORE', KEYS[i], bestMin, bestMax)
    end
    return out
  end
  local out, m, seen = {}, 0, {}
  for i = bestFirst, bestFirst + bestN - 1 do
    for _, v in ipairs(redis.call('ZRANGEBYSCORE', KEYS[i], bestMin, bestMax)) do
      if not seen[v] then
        seen[v] = true
        m = m + 1
        out[m] = v
      end
    end
  end
  return {'cand', out}
end

local wa = tonumber(ARGV[1])
if wa > 0 then
  local page = window(wa)
  if page then return page end
end
return candidates()
`)

// bySlugScript resolves a slug and reads the record in one round trip.
//
//	KEYS[1] the slug hash; ARGV slug recordPrefix
var bySlugScript = redis.NewScript(`
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return false end
return redis.call('GET', ARGV[2] .. id)
`)

// rangeGetScript reads every record of a sorted set in score order in one
// round trip (used for term lists, which are small by contract).
//
//	KEYS[1] the sorted set; ARGV recordPrefix
var rangeGetScript = redis.NewScript(`
local out, m = {}, 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local v = redis.call('GET', ARGV[1] .. id)
  if v then m = m + 1; out[m] = v end
end
return out
`)
