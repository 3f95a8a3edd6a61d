package redisstore

import "github.com/redis/go-redis/v9"

// metaLua decodes metas in Lua as encodeMeta writes them (meta.go): the
// window path reads them to decide events and order a page, and linkedOf to
// find the records an event embeds. bad is set on anything unexpected; a
// caller resets it before decoding and gives up when it is set.
// TestWindowMatchesCandidatePath and TestLinkedInScriptsMatchGetLinked hold
// it to the Go decoder.
const metaLua = `
local byte, huge = string.byte, math.huge
local bad = false
local function uv(m, p)
  local x, mul = 0, 1
  while true do
    local c = byte(m, p)
    if not c or mul > 2 ^ 49 then bad = true; return 0, p end
    p = p + 1
    if c < 128 then
      x = x + c * mul
      if x >= 2 ^ 52 then bad = true end
      return x, p
    end
    x, mul = x + (c - 128) * mul, mul * 128
  end
end
local function sv(m, p)
  local u
  u, p = uv(m, p)
  if u % 2 == 1 then return -(u + 1) / 2, p end
  return u / 2, p
end
local function decode(m)
  if byte(m, 1) ~= 1 or not byte(m, 2) then bad = true; return end
  local n, p = uv(m, 3)
  local status = string.sub(m, p, p + n - 1)
  p = p + n
  local author, dS, dN, sS, sN, eS, eN
  author, p = sv(m, p)
  dS, p = sv(m, p); dN, p = uv(m, p)
  sS, p = sv(m, p); sN, p = uv(m, p)
  eS, p = sv(m, p); eN, p = uv(m, p)
  return byte(m, 2), status, author, dS, dN, sS, sN, eS, eN, p
end
-- The flags, parent and links that follow the end at position p.
local function rest(m, p)
  local flags = byte(m, p)
  if not flags then bad = true; return end
  local parent, links = nil, {}
  parent, p = sv(m, p + 1)
  for i = 1, 4 do
    local n
    n, p = uv(m, p)
    if n > #m then bad = true; return end
    local ids = {}
    for j = 1, n do ids[j], p = sv(m, p) end
    links[i] = ids
  end
  if p ~= #m + 1 then bad = true end
  return flags % 2 == 1, flags % 4 >= 2, parent, links, flags % 8 >= 4, flags % 16 >= 8, flags % 32 >= 16
end
`

// linkedLua defines linkedOf(metas, postPrefix, termPrefix): the records
// the metas link (venues and organizers, read as posts; categories and
// tags, as terms), each once, in order of first link: {posts, terms}, a
// missing record false; nil when a meta does not decode. It serves one
// event: every key costs Lua a new string (about half a microsecond), so a
// list page's embeds are cheaper in an MGET the Go side sends.
const linkedLua = `
local function linkedOf(metas, postPrefix, termPrefix)
  local keys, seen = {{}, {}}, {}
  bad = false
  for _, m in ipairs(metas) do
    if m then
      local p = select(10, decode(m))
      if bad then return nil end
      local links = select(4, rest(m, p))
      if bad then return nil end
      for i = 1, 4 do
        local side, pre = 1, postPrefix
        if i > 2 then side, pre = 2, termPrefix end
        for _, id in ipairs(links[i]) do
          -- Lua writes numbers below 1e14 as integers (%.14g) when
          -- concatenating them, a string fewer than string.format.
          local key
          if id < 1e14 and id > -1e14 then key = pre .. id else key = pre .. string.format('%d', id) end
          if not seen[key] then
            seen[key] = true
            keys[side][#keys[side] + 1] = key
          end
        end
      end
    end
  end
  -- One MGET for both: a redis.call costs Lua more than its keys.
  local np, all = #keys[1], keys[1]
  for _, k in ipairs(keys[2]) do all[#all + 1] = k end
  local out = {{}, {}}
  if #all == 0 then return out end
  for i, v in ipairs(redis.call('MGET', unpack(all))) do
    if i <= np then out[1][i] = v else out[2][i - np] = v end
  end
  return out
end
`

// getLinkedScript reads a post and, when it has a meta (events), the
// records its meta links, in one round trip: {record, posts, terms}, or
// {record} without a meta, or false when the post does not exist.
//
//	KEYS[1] the post; KEYS[2] the meta hash; ARGV id postPrefix termPrefix
var getLinkedScript = redis.NewScript(metaLua + linkedLua + `
local v = redis.call('GET', KEYS[1])
if not v then return false end
local m = redis.call('HGET', KEYS[2], ARGV[1])
if not m then return {v} end
local l = linkedOf({m}, ARGV[2], ARGV[3])
if not l then return {v} end
return {v, l[1], l[2]}
`)
