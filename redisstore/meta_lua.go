package redisstore

// metaLua decodes metas in Lua as encodeMeta writes them (meta.go), for the
// window path to decide events and order a page. bad is set on anything
// unexpected; a caller resets it before decoding and gives up when it is
// set. TestWindowMatchesCandidatePath holds it to the Go decoder.
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
