package redisstore

import "github.com/redis/go-redis/v9"

// commitScript is the one write path. It checks every guard before writing
// anything (Lua scripts have no rollback, so nothing may fail after the first
// write), then allocates the id, reserves the slug and applies the write ops.
//
//	KEYS[1]  the format key; further KEYS are referenced by index from ARGV
//	ARGV     recordPrefix formatVersion maxSlugLen
//	         nGuards {kind keyIdx sha1}...        kind "v": value, "m": zset members
//	         "new" seqKeyIdx | "id" id
//	         "none" | "pick" slugHashKeyIdx wanted hasOld oldSlug
//	         op...                                until the end of ARGV
//
// Ops (key index 0 is the record's own key, prefix..id; an empty member or
// score stands for the id):
//
//	tpl k p1 p2 p3      SET k to p1..id..p2..json(slug)..p3
//	set k v             SET
//	zadd k score member
//	zrem k member
//	del k
//	hset k field v
//	hdel k field
//	hdelif k field v    HDEL k field if it holds v
//
// Reply: {"ok", id, slug} | {"stale", guardNo} | {"format", storedVersion}.
var commitScript = redis.NewScript(`
local function candidate(base, n, maxlen)
  if n <= 1 then return base end
  local suffix = '-' .. n
  local limit = maxlen - #suffix
  if #base > limit then
    local k = limit
    while k > 0 and bit.band(string.byte(base, k + 1), 0xC0) == 0x80 do k = k - 1 end
    base = string.sub(base, 1, k)
  end
  return base .. suffix
end
local function jsonstr(s)
  return '"' .. string.gsub(s, '[%c"\\]', function(c)
    if c == '"' then return '\\"' elseif c == '\\' then return '\\\\' end
    return string.format('\\u%04x', string.byte(c))
  end) .. '"'
end
local arity = {tpl = 5, set = 3, zadd = 4, zrem = 3, del = 2, hset = 4, hdel = 3, hdelif = 4}

local prefix, fmt, maxlen = ARGV[1], ARGV[2], tonumber(ARGV[3])
local stored = redis.call('GET', KEYS[1])
if stored and stored ~= fmt then return {'format', stored} end
local a = 4
local ng = tonumber(ARGV[a]); a = a + 1
for g = 1, ng do
  local k, want = KEYS[tonumber(ARGV[a + 1])], ARGV[a + 2]
  local got
  if ARGV[a] == 'v' then
    local v = redis.call('GET', k)
    if v then got = redis.sha1hex(v) else got = '-' end
  else
    got = redis.sha1hex(table.concat(redis.call('ZRANGE', k, 0, -1), ','))
  end
  if got ~= want then return {'stale', tostring(g)} end
  a = a + 3
end
local id, seqkey
if ARGV[a] == 'new' then seqkey = KEYS[tonumber(ARGV[a + 1])] else id = ARGV[a + 1] end
a = a + 2
local slug, slugkey, oldslug
if ARGV[a] == 'pick' then
  slugkey = KEYS[tonumber(ARGV[a + 1])]
  local want = ARGV[a + 2]
  if ARGV[a + 3] == '1' then oldslug = ARGV[a + 4] end
  a = a + 5
  for n = 1, 1000000 do
    local c = candidate(want, n, maxlen)
    local holder = redis.call('HGET', slugkey, c)
    if not holder or holder == id then slug = c; break end
  end
  if not slug then return redis.error_reply('redisstore: no free slug') end
else
  a = a + 1
end
local first = a
while a <= #ARGV do
  local n = arity[ARGV[a]]
  if not n then return redis.error_reply('redisstore: bad op ' .. ARGV[a]) end
  a = a + n
end
if a ~= #ARGV + 1 then return redis.error_reply('redisstore: truncated ops') end

-- Every check passed: from here on only writes.
if not stored then redis.call('SET', KEYS[1], fmt) end
if seqkey then id = string.format('%d', redis.call('INCR', seqkey)) end
if slug then
  redis.call('HSET', slugkey, slug, id)
  if oldslug and oldslug ~= slug and redis.call('HGET', slugkey, oldslug) == id then
    redis.call('HDEL', slugkey, oldslug)
  end
end
local function key(i)
  if i == '0' then return prefix .. id end
  return KEYS[tonumber(i)]
end
local function orid(v)
  if v == '' then return id end
  return v
end
a = first
while a <= #ARGV do
  local op = ARGV[a]
  if op == 'tpl' then
    redis.call('SET', key(ARGV[a + 1]), ARGV[a + 2] .. id .. ARGV[a + 3] .. jsonstr(slug) .. ARGV[a + 4])
  elseif op == 'set' then
    redis.call('SET', key(ARGV[a + 1]), ARGV[a + 2])
  elseif op == 'zadd' then
    redis.call('ZADD', key(ARGV[a + 1]), orid(ARGV[a + 2]), orid(ARGV[a + 3]))
  elseif op == 'zrem' then
    redis.call('ZREM', key(ARGV[a + 1]), orid(ARGV[a + 2]))
  elseif op == 'del' then
    redis.call('DEL', key(ARGV[a + 1]))
  elseif op == 'hset' then
    redis.call('HSET', key(ARGV[a + 1]), orid(ARGV[a + 2]), ARGV[a + 3])
  elseif op == 'hdel' then
    redis.call('HDEL', key(ARGV[a + 1]), orid(ARGV[a + 2]))
  elseif op == 'hdelif' then
    local k = key(ARGV[a + 1])
    if redis.call('HGET', k, ARGV[a + 2]) == ARGV[a + 3] then redis.call('HDEL', k, ARGV[a + 2]) end
  end
  a = a + arity[op]
end
return {'ok', id, slug or ''}
`)

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
