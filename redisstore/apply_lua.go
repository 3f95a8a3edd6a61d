package redisstore

import "github.com/redis/go-redis/v9"

// argsLua reads the arguments of a script in order, and visibleLua decides
// whether OpEnsurePost may reuse a post, on the post's meta: the Lua copy of
// calendar.PostRecord.EffectiveStatus and calendar.Visibility.Allows, which
// TestVisibleLuaMatchesGo compares with the Go rule on random cases.
//
// A visibility is read as: zero ("1": no restriction), now in Unix seconds
// and nanoseconds, the owner as the varint encodeMeta writes for an author
// ("" for none), then the statuses and the owner's statuses, each a count
// followed by the statuses.
const argsLua = `
local a = 1
local function nxt() local v = ARGV[a]; a = a + 1; return v end
-- Counts are small: a table look-up spares tonumber (strtod) for most.
local small = {['0'] = 0, ['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5, ['6'] = 6, ['7'] = 7, ['8'] = 8,
  ['9'] = 9, ['10'] = 10, ['11'] = 11, ['12'] = 12, ['13'] = 13, ['14'] = 14, ['15'] = 15, ['16'] = 16}
local function num() local v = ARGV[a]; a = a + 1; return small[v] or tonumber(v) end
local function lst() local t = {}; for _ = 1, num() do t[nxt()] = true end; return t end
`

const visibleLua = `
local function uvarint(s, p)
  local x, mul = 0, 1
  while true do
    local b = string.byte(s, p)
    if not b then return nil, p end
    p = p + 1
    x = x + (b % 128) * mul
    if b < 128 then return x, p end
    mul = mul * 128
  end
end
local function readVis()
  return {zero = nxt() == '1', sec = num(), nsec = num(), owner = nxt(), sts = lst(), own = lst()}
end
local function visible(meta, vis)
  if string.byte(meta, 1) ~= 1 then return false end
  local n, p = uvarint(meta, 3)
  if not n then return false end
  local status = string.sub(meta, p, p + n - 1)
  p = p + n
  local ap = p
  local _, q = uvarint(meta, p)
  local author = string.sub(meta, ap, q - 1)
  local zsec, nsec
  zsec, q = uvarint(meta, q)
  nsec, q = uvarint(meta, q)
  if not zsec or not nsec then return false end
  local sec = zsec / 2
  if zsec % 2 == 1 then sec = -(zsec + 1) / 2 end
  if status == 'future' and not (sec > vis.sec or (sec == vis.sec and nsec > vis.nsec)) then status = 'publish' end
  if status == 'trash' then return false end
  if vis.zero or vis.sts[status] then return true end
  return vis.owner ~= '' and author == vis.owner and vis.own[status] == true
end
`

// applyScript performs one calendar.Write: every step of it, or nothing.
//
// It runs in two phases. The first checks and decides everything — the
// guards (the SHA-1 of each record and index the Go side read and planned
// on), ids, ensure look-ups, links, UIDs, term names, slugs — against a view
// of the calendar that includes the writes of the earlier steps, which it
// buffers instead of sending to Redis. Any failure returns before anything
// is written: a Redis script that fails half-way keeps what it wrote. The
// second phase sends the buffered writes, keeping a journal of what each one
// replaced; should Redis refuse one (a key of the wrong type), the journal is
// played back, so even then nothing of the write remains.
//
//	KEYS[1]  the format key; every other key of the calendar shares its slot
//	ARGV     tag current accepted maxSlugLen stopAt failAfterFlushOf token ttlMs
//	         keepCount keepSinceNs maxTrim   the change log's retention
//	         nGuards {kind key sha1}...   kind "v": value, "m": sorted-set members
//	         nSteps step...
//
// A step:
//
//	op fam id              op c create, e ensure, u update, d delete; fam p|t;
//	                       id: given or real id, "0" for the next of the sequence
//	lookKey visibility     ensure: the name index to search (see visibleLua)
//	nLinks {indexKey label ref}...        each ref must be in its index
//	nExpect {key n {cond member}...}...   a delete: the members of the sets it
//	                                      planned cascades on, as the plan has them
//	uidHash uid            the UID that must be free (or this record's)
//	nNames parent {nameKey key}...        names that must be free at parent
//	slugHash wanted old    the slug to reserve (or, for a delete, to release)
//	nOps {cmd cond value...}...           the writes, cond "-" or the ensure
//	                                      step whose create they depend on
//
// Values written as "value" (ref, member, parent, old and op operands) are
// tvals: a count of holes, then literals and holes alternating.
//
// A write that succeeds leaves its reply under {tag}done:<token> for ttlMs:
// go-redis re-sends a command whose reply did not come in time (a slow
// script, a dropped connection), and the script must not write twice — a
// second run would create the records again, or see its own first run as a
// concurrent writer and report a conflict.
//
// Reply: {"ok", ids, slugs, found, records} | {"stale", guardNo} |
// {"format", stored} | {"err", step, code, x, y, z} | {"fail", step} |
// {"broken", step, message}.
var applyScript = redis.NewScript(applyScriptSrc)

var applyScriptSrc = argsLua + visibleLua + trimLua + `
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
local function jsonesc(s)
  if not string.find(s, '[%c"\\]') then return s end
  return (string.gsub(s, '[%c"\\]', function(c)
    if c == '"' then return '\\"' elseif c == '\\' then return '\\\\' end
    return string.format('\\u%04x', string.byte(c))
  end))
end
local function zigzag(n)
  local v, out = n * 2, {}
  while v >= 128 do
    out[#out + 1] = string.char(v % 128 + 128)
    v = math.floor(v / 128)
  end
  out[#out + 1] = string.char(v)
  return table.concat(out)
end

local tag, current, accepted = ARGV[1], ARGV[2], ARGV[3]
local maxlen, stopAt, flushFail = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local doneKey, doneTTL = tag .. 'done:' .. ARGV[7], ARGV[8]
local keepCount, keepSince, maxTrim = tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
a = 12

-- sbase, hbase and zbase hold what the script read of Redis (false: none),
-- by key (and field or member), and, once it writes, what it wrote: every
-- value is read at most once, and the undo journal takes the value a write
-- replaces from them when they have it. One MGET reads the strings most
-- writes read: the token's reply, the format and the sequences. MGET does
-- not tell a missing key from one of another type, so only the values it
-- found are taken; the others are read again with GET, which refuses a
-- key of the wrong type.
local seqPost, seqTerm, seqChange = tag .. 'seq:post', tag .. 'seq:term', tag .. 'seq:change'
local firstKeys = {doneKey, KEYS[1], seqPost, seqTerm, seqChange}
local first = redis.call('MGET', unpack(firstKeys))
local sbase, hbase, zbase = {}, {}, {}
for n = 2, #firstKeys do
  if first[n] then sbase[firstKeys[n]] = first[n] end
end
local function rget(k)
  local v = sbase[k]
  if v == nil then v = redis.call('GET', k); sbase[k] = v end
  return v
end

-- The client re-sends a command whose reply it did not get in time: the
-- write of this token already happened, so its reply is returned again.
local done = first[1]
if done then return cmsgpack.unpack(done) end

local stored = rget(KEYS[1])
if stored and not string.find(accepted, ',' .. stored .. ',', 1, true) then return {'format', stored} end

for g = 1, num() do
  local kind, k, want = nxt(), nxt(), nxt()
  local got
  if kind == 'v' then
    local v = redis.call('GET', k)
    if v then got = redis.sha1hex(v) else got = '-' end
  else
    got = redis.sha1hex(table.concat(redis.call('ZRANGE', k, 0, -1), ','))
  end
  if got ~= want then return {'stale', tostring(g)} end
end

-- The view: Redis overlaid with the buffered writes. false marks a deleted
-- value; gone marks a key deleted whole, whose Redis content no longer counts.
local str, hov, zov, gone = {}, {}, {}, {}
local ops, cur = {}, -1
local function rfield(base, cmd, k, f)
  local t = base[k]
  if not t then t = {}; base[k] = t end
  local v = t[f]
  if v == nil then v = redis.call(cmd, k, f); t[f] = v end
  return v
end
local function get(k)
  local v = str[k]
  if v ~= nil then return v end
  if gone[k] then return false end
  return rget(k)
end
local function hget(k, f)
  local h = hov[k]
  if h and h[f] ~= nil then return h[f] end
  if gone[k] then return false end
  return rfield(hbase, 'HGET', k, f)
end
local function zscore(k, m)
  local z = zov[k]
  if z and z[m] ~= nil then return z[m] end
  if gone[k] then return false end
  return rfield(zbase, 'ZSCORE', k, m)
end
local function zall(k)
  local out = {}
  if not gone[k] then
    local r = redis.call('ZRANGE', k, 0, -1, 'WITHSCORES')
    for i = 1, #r, 2 do out[r[i]] = tonumber(r[i + 1]) end
  end
  local z = zov[k]
  if z then
    for m, sc in pairs(z) do
      if sc then out[m] = tonumber(sc) else out[m] = nil end
    end
  end
  return out
end
local function buf(cmd, k, x, y)
  ops[#ops + 1] = {cmd, k, x, y, cur}
  if cmd == 'set' then str[k] = x
  elseif cmd == 'del' then str[k], hov[k], zov[k], gone[k] = false, nil, nil, true
  elseif cmd == 'hset' or cmd == 'hins' then hov[k] = hov[k] or {}; hov[k][x] = y
  elseif cmd == 'hdel' then hov[k] = hov[k] or {}; hov[k][x] = false
  elseif cmd == 'zadd' or cmd == 'zins' then zov[k] = zov[k] or {}; zov[k][y] = x
  elseif cmd == 'zrem' then zov[k] = zov[k] or {}; zov[k][x] = false
  end
end

local ids, slugs, found, created = {}, {}, {}, {}
-- A hole's value never changes once decided: each is worked out once.
local filled = {}
local function fill(h)
  local v = filled[h]
  if v then return v end
  local c, j = string.sub(h, 1, 1), tonumber(string.sub(h, 2))
  if c == 'i' then v = ids[j]
  elseif c == 'r' then v = slugs[j]
  elseif c == 's' then v = slugs[j] and jsonesc(slugs[j])
  elseif c == 'z' then v = ids[j] and zigzag(tonumber(ids[j])) end
  if not v then error('redisstore: unresolved hole ' .. h) end
  filled[h] = v
  return v
end
local function tv()
  -- Most values have no hole: no table, no concatenation.
  local h = ARGV[a]
  if h == '0' then local v = ARGV[a + 1]; a = a + 2; return v end
  if h == '1' then
    local v = ARGV[a + 1] .. fill(ARGV[a + 2]) .. ARGV[a + 3]
    a = a + 4
    return v
  end
  local n = num()
  local parts = {nxt()}
  for _ = 1, n do
    parts[#parts + 1] = fill(nxt())
    parts[#parts + 1] = nxt()
  end
  return table.concat(parts)
end
local function skiptv()
  if ARGV[a] == '0' then a = a + 2; return end
  local n = num(); a = a + 2 * n + 1
end
local arity = {set = 2, del = 1, hset = 3, hins = 3, hdel = 2, hdelif = 3, zadd = 3, zins = 3, zrem = 2, chg = 1}
local function fail(i, code, x, y, z) return {'err', tostring(i), code, x or '', y or '', z or ''} end

local function lowest(set)
  local best
  for m in pairs(set) do
    if not best or tonumber(m) < tonumber(best) then best = m end
  end
  return best
end
local function findPost(k, vis)
  local cands = {}
  for m in pairs(zall(k)) do cands[#cands + 1] = tonumber(m) end
  table.sort(cands)
  for _, n in ipairs(cands) do
    local id = string.format('%d', n)
    local meta = hget(tag .. 'meta', id)
    if meta and visible(meta, vis) then return id end
  end
end

local seqs = {}
local nsteps = num()
for i = 0, nsteps - 1 do
  if i == stopAt then return {'fail', tostring(i)} end
  cur = i
  local op, fam, id = nxt(), nxt(), nxt()
  local recp, seqk = tag .. 'term:', tag .. 'seq:term'
  if fam == 'p' then recp, seqk = tag .. 'post:', tag .. 'seq:post' end
  local look = nxt()
  local vis = readVis()
  local skip = false
  if op == 'e' then
    local f
    if fam == 'p' then f = findPost(look, vis) else f = lowest(zall(look)) end
    if f then
      ids[i], found[i], created[i], skip = f, get(recp .. f), false, true
    end
  end
  if not skip then
    if op == 'c' or op == 'e' then
      local s = seqs[seqk]
      if not s then
        s = {tonumber(rget(seqk) or '0'), false}
        seqs[seqk] = s
      end
      if id == '0' then
        s[1], s[2] = s[1] + 1, true
        ids[i] = string.format('%d', s[1])
      else
        if get(recp .. id) then return fail(i, 'idheld', id) end
        if tonumber(id) > s[1] then s[1], s[2] = tonumber(id), true end
        ids[i] = id
      end
      created[i] = true
    else
      ids[i] = id
    end
  end

  for _ = 1, num() do
    local ik, label = nxt(), nxt()
    local ref = tv()
    if not skip and not zscore(ik, ref) then return fail(i, 'link', label, ref) end
  end

  for _ = 1, num() do
    local k = nxt()
    local want = {}
    for _ = 1, num() do
      local c = nxt()
      if c == '-' or created[tonumber(c)] then want[tv()] = true else skiptv() end
    end
    if not skip then
      -- A member the plan does not know (neither one it expects nor one it
      -- read) was added by this write through an id only the script knew.
      for m in pairs(zall(k)) do
        if not want[m] and (gone[k] or not redis.call('ZSCORE', k, m)) then return fail(i, 'unplanned', k, m) end
      end
    end
  end

  local uidh, uid = nxt(), nxt()
  if not skip and uid ~= '' then
    local h = hget(uidh, uid)
    if h and h ~= ids[i] then return fail(i, 'uid', uid, h) end
  end

  local nn = num()
  local parent = tv()
  for _ = 1, nn do
    local zk, nk = nxt(), nxt()
    if not skip then
      local p, holders = tonumber(parent), {}
      for m, sc in pairs(zall(zk)) do
        if sc == p and m ~= ids[i] then holders[m] = true end
      end
      local h = lowest(holders)
      if h then return fail(i, 'name', nk, h, parent) end
    end
  end

  local sh, want = nxt(), nxt()
  local old = tv()
  if not skip and sh ~= '' then
    if op == 'd' then
      if old ~= '' and hget(sh, old) == ids[i] then buf('hdel', sh, old) end
    else
      local s
      for n = 1, 1000000 do
        local c = candidate(want, n, maxlen)
        local h = hget(sh, c)
        if not h or h == ids[i] then s = c; break end
      end
      if not s then return fail(i, 'slug', want) end
      slugs[i] = s
      if hget(sh, s) ~= ids[i] then buf('hset', sh, s, ids[i]) end
      if old ~= '' and old ~= s and hget(sh, old) == ids[i] then buf('hdel', sh, old) end
    end
  end

  for _ = 1, num() do
    local cmd, c = nxt(), nxt()
    local n = arity[cmd]
    if not n then return redis.error_reply('redisstore: bad op ' .. tostring(cmd)) end
    if skip or (c ~= '-' and not created[tonumber(c)]) then
      for _ = 1, n do skiptv() end
    else
      local x, y, z = tv(), nil, nil
      if n >= 2 then y = tv() end
      if n >= 3 then z = tv() end
      if cmd == 'hdelif' then
        if hget(x, y) == z then buf('hdel', x, y) end
      else
        buf(cmd, x, y, z)
      end
    end
  end
end
if stopAt == nsteps then return {'fail', tostring(nsteps)} end

-- Every check passed: write.
local pre = {}
if stored ~= current then pre[#pre + 1] = {'set', KEYS[1], current} end
for k, s in pairs(seqs) do
  if s[2] then pre[#pre + 1] = {'set', k, string.format('%d', s[1])} end
end
local journal = {}
-- The changes are numbered as they are written: one Seq each, gap-free,
-- and the write's Tx is the Seq of its first.
local logKey, seqKey = tag .. 'changes', seqChange
local chseq, txid
-- known returns what the script knows key k (field or member f) holds now,
-- nil when it does not; wrote records what a write left there.
local function known(base, k, f)
  local t = base[k]
  if t then return t[f] end
end
local function wrote(base, k, f, v)
  sbase[k] = nil -- a hash or a sorted set now, whatever it was
  local t = base[k]
  if not t then t = {}; base[k] = t end
  t[f] = v
end
local function write(o)
  local cmd, k, x, y = o[1], o[2], o[3], o[4]
  if cmd == 'chg' then
    if not chseq then
      local v = rget(seqKey)
      journal[#journal + 1] = {'s', seqKey, v}
      chseq = tonumber(v or '0')
      txid = string.format('%d', chseq + 1)
    end
    chseq = chseq + 1
    local n = string.format('%d', chseq)
    local m = n .. '|' .. txid .. '|' .. k
    journal[#journal + 1] = {'z', logKey, m, false}
    redis.call('ZADD', logKey, n, m)
  elseif cmd == 'set' then
    local old = sbase[k]
    if old == nil then
      old = redis.call('SET', k, x, 'GET')
    else
      redis.call('SET', k, x)
    end
    journal[#journal + 1] = {'s', k, old}
    sbase[k], hbase[k], zbase[k] = x, nil, nil
  elseif cmd == 'del' then
    journal[#journal + 1] = {'d', k, redis.call('DUMP', k)}
    redis.call('DEL', k)
    sbase[k], hbase[k], zbase[k] = false, nil, nil
  elseif cmd == 'hdel' then
    local old = known(hbase, k, x)
    if old == nil then old = redis.call('HGET', k, x) end
    journal[#journal + 1] = {'h', k, x, old}
    if old then redis.call('HDEL', k, x) end
    wrote(hbase, k, x, false)
  elseif cmd == 'hset' or cmd == 'hins' then
    -- hins: the plan has the field absent; HSETNX then writes it and says
    -- so in one call. Had it a value, it is read and replaced as by hset.
    local old = known(hbase, k, x)
    if old == nil and cmd == 'hins' and redis.call('HSETNX', k, x, y) == 1 then
      journal[#journal + 1] = {'h', k, x, false}
    else
      if old == nil then old = redis.call('HGET', k, x) end
      journal[#journal + 1] = {'h', k, x, old}
      redis.call('HSET', k, x, y)
    end
    wrote(hbase, k, x, y)
  elseif cmd == 'zadd' or cmd == 'zins' then
    -- zins: the plan has the member absent, as hins.
    local old = known(zbase, k, y)
    if old == nil and cmd == 'zins' and redis.call('ZADD', k, 'NX', x, y) == 1 then
      journal[#journal + 1] = {'z', k, y, false}
    else
      if old == nil then old = redis.call('ZSCORE', k, y) end
      journal[#journal + 1] = {'z', k, y, old}
      redis.call('ZADD', k, x, y)
    end
    wrote(zbase, k, y, x)
  elseif cmd == 'zrem' then
    local old = known(zbase, k, x)
    if old == nil then old = redis.call('ZSCORE', k, x) end
    journal[#journal + 1] = {'z', k, x, old}
    if old then redis.call('ZREM', k, x) end
    wrote(zbase, k, x, false)
  end
end
local function undo(j)
  local t, k = j[1], j[2]
  if t == 's' then
    if j[3] then redis.call('SET', k, j[3]) else redis.call('DEL', k) end
  elseif t == 'd' then
    if j[3] then redis.call('RESTORE', k, 0, j[3], 'REPLACE') else redis.call('DEL', k) end
  elseif t == 'h' then
    if j[4] then redis.call('HSET', k, j[3], j[4]) else redis.call('HDEL', k, j[3]) end
  else
    if j[4] then redis.call('ZADD', k, j[4], j[3]) else redis.call('ZREM', k, j[3]) end
  end
end
local at = -1
local ok, e = pcall(function()
  for _, o in ipairs(pre) do write(o) end
  for _, o in ipairs(ops) do
    at = o[5]
    if flushFail >= 0 and at >= flushFail then error('injected failure') end
    write(o)
  end
  if chseq then redis.call('SET', seqKey, string.format('%d', chseq)) end
  if flushFail >= 0 then error('injected failure') end
end)
if not ok then
  for n = #journal, 1, -1 do undo(journal[n]) end
  if flushFail >= 0 then return {'fail', tostring(flushFail)} end
  if type(e) == 'table' then e = e.err or e[1] end
  return {'broken', tostring(at), tostring(e)}
end

local ri, rs, rf, rr = {}, {}, {}, {}
for i = 0, nsteps - 1 do
  ri[i + 1], rs[i + 1], rf[i + 1], rr[i + 1] = ids[i] or '', slugs[i] or '', '0', ''
  if created[i] == false then rf[i + 1], rr[i + 1] = '1', found[i] or '' end
end
if chseq then
  trimChanges(logKey, tag .. 'changes:trimmed', keepCount, keepSince, maxTrim)
  redis.call('PUBLISH', tag .. 'changes:notify', string.format('%d', chseq))
end
local reply = {'ok', ri, rs, rf, rr}
redis.call('SET', doneKey, cmsgpack.pack(reply), 'PX', doneTTL)
return reply
`

// visibleTestScript runs visibleLua on many cases in one round trip, for
// the differential test: ARGV n {meta visibility}..., reply one 0|1 each.
var visibleTestScript = redis.NewScript(argsLua + visibleLua + `
local out = {}
for c = 1, num() do
  local meta = nxt()
  out[c] = visible(meta, readVis()) and 1 or 0
end
return out
`)

// byNameScript reads the records of a name index (sorted set) in one round
// trip, with the calendar's format so that the Go side knows the index
// exists in this layout.
//
//	KEYS[1] the format key; ARGV nameIndex recordPrefix
//
// Reply: {format or "", record...}.
var byNameScript = redis.NewScript(`
local out = {redis.call('GET', KEYS[1]) or ''}
for _, id in ipairs(redis.call('ZRANGE', ARGV[1], 0, -1)) do
  local v = redis.call('GET', ARGV[2] .. id)
  if v then out[#out + 1] = v end
end
return out
`)

// byUIDScript resolves a UID and reads the post in one round trip, with the
// calendar's format.
//
//	KEYS[1] the format key; ARGV uidHash uid recordPrefix
//
// Reply: {format or "", record or ""}.
var byUIDScript = redis.NewScript(`
local f = redis.call('GET', KEYS[1]) or ''
local id = redis.call('HGET', ARGV[1], ARGV[2])
if not id then return {f, ''} end
return {f, redis.call('GET', ARGV[3] .. id) or ''}
`)
