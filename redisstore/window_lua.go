package redisstore

// windowLua defines window(wa), the exact window path of listScript (see
// window.go for the reasoning and the arguments). It returns
// {"page", total, records} or nil when it cannot answer within its bounds
// (more than maxIrregular events without a finite duration, more than
// windowBudget metas to check or records to order, indexes of an older
// version, values Lua numbers cannot hold exactly); listScript then falls
// back to returning candidates.
//
// Scores are compared as Lua numbers (doubles): every score the path relies
// on is an integer below 2^53 (exactScore), and bounds go back to Redis
// formatted with %.17g, so nothing is rounded.
const windowLua = metaLua + `

local function fmt(x)
  if x == huge then return '+inf' elseif x == -huge then return '-inf' end
  return string.format('%.17g', x)
end
local function excl(x)
  if x == huge or x == -huge then return fmt(x) end
  return '(' .. fmt(x)
end
local function num(s)
  if s == '-inf' then return -huge elseif s == '+inf' then return huge end
  return tonumber(s)
end

local function window(wa)
  local A, a = cmsgpack.unpack(ARGV[wa]), 1
  local function arg() local v = A[a]; a = a + 1; return v end
  local fk = tonumber(arg())
  local metaKey, durKey, startKey, formatKey, endKey = KEYS[fk], KEYS[fk + 1], KEYS[fk + 2], KEYS[fk + 3], KEYS[fk + 4]
  local k = fk + 5
  local function keyList(n)
    local out = {}
    for i = 1, n do out[i] = KEYS[k]; k = k + 1 end
    return out
  end
  local counted = keyList(tonumber(arg()))
  local indiv = keyList(tonumber(arg()))
  local exceptions = keyList(tonumber(arg()))
  local groups = {}
  for g = 1, tonumber(arg()) do groups[g] = keyList(tonumber(arg())) end
  local prefix, evKind, stPublish, stFuture = arg(), tonumber(arg()), arg(), arg()
  local sa1, sa2, sc1, sc2 = num(arg()), num(arg()), num(arg()), num(arg())
  local function bound()
    local has, s, n, x = arg() == '1', tonumber(arg()), tonumber(arg()), arg() == '1'
    if has then return {s, n, x} end
  end
  local sFrom, sTo, eFrom, eTo = bound(), bound(), bound(), bound()
  local nowS, nowN = tonumber(arg()), tonumber(arg())
  local visZero, owner = arg() == '1', tonumber(arg())
  local allowed, own, excluded, exclList = {}, {}, {}, {}
  for _ = 1, tonumber(arg()) do allowed[arg()] = true end
  for _ = 1, tonumber(arg()) do own[arg()] = true end
  for i = 1, tonumber(arg()) do local v = arg(); excluded[v] = true; exclList[i] = v end
  local wantFeatured, parent, excludeHidden = arg(), tonumber(arg()), arg() == '1'
  local series = tonumber(arg()) -- calendar.StoredSeries: 1 hides series records, 2 owned occurrences
  local function idSet()
    local n = tonumber(arg())
    if n == 0 then return nil end
    local set = {}
    for _ = 1, n do set[tonumber(arg())] = true end
    return set
  end
  local anyOf = {idSet(), idSet(), idSet(), idSet()} -- venues, organizers, categories, tags
  local notVenues = idSet()
  local offset, limit, countOnly = tonumber(arg()), tonumber(arg()), arg() == '1'
  local maxIrregular, budget, accepted = tonumber(arg()), tonumber(arg()), arg()
  -- The link and author status sets exist from layout 4 on: a calendar of
  -- an older layout is migrated first (the Go side, then it asks again).
  local format = redis.call('GET', formatKey)
  if format and not string.find(accepted, ',' .. format .. ',', 1, true) then return {'layout', format} end

  bad = false
  local function meets(set, ids)
    for _, id in ipairs(ids) do if set[id] then return true end end
    return false
  end
  local function cmpT(as, an, bs, bn)
    if as ~= bs then if as < bs then return -1 end return 1 end
    if an ~= bn then if an < bn then return -1 end return 1 end
    return 0
  end
  -- calendar.TimeRange.Contains
  local function contains(from, to, s, n)
    if from then
      local c = cmpT(s, n, from[1], from[2])
      if c < 0 or c == 0 and from[3] then return false end
    end
    if to then
      local c = cmpT(s, n, to[1], to[2])
      if c > 0 or c == 0 and to[3] then return false end
    end
    return true
  end
  -- storage.MatchPost for the restrictions this path accepts.
  local function match(id, m)
    local kind, status, author, dS, dN, sS, sN, eS, eN, p = decode(m)
    if bad or kind ~= evKind or excluded[id] then return false end
    local featured, hidden, par, links, rule, rid, detached = rest(m, p)
    if bad then return false end
    if series == 1 and rule or series == 2 and par ~= 0 and rid and not detached then return false end
    if wantFeatured == '1' and not featured or wantFeatured == '0' and featured then return false end
    if parent ~= 0 and par ~= parent or excludeHidden and hidden then return false end
    for i = 1, 4 do
      if anyOf[i] and not meets(anyOf[i], links[i]) then return false end
    end
    if notVenues and meets(notVenues, links[1]) then return false end
    if status == stFuture and cmpT(dS, dN, nowS, nowN) <= 0 then status = stPublish end
    if not visZero and not allowed[status] and not (owner ~= 0 and author == owner and own[status]) then return false end
    if not contains(sFrom, sTo, sS, sN) or not contains(eFrom, eTo, eS, eN) then return false end
    return true, sS, sN
  end

  -- D0 bounds every finite duration but those of fewer than maxIrregular
  -- events; those and the infinite ones are the irregular events.
  local n = redis.call('ZCARD', durKey)
  if n ~= redis.call('ZCARD', startKey) then return nil end
  local d0, irregular = -1, nil
  if n > maxIrregular then
    local r = redis.call('ZRANGE', durKey, n - maxIrregular, n - maxIrregular, 'WITHSCORES')
    d0 = tonumber(r[2])
    if not d0 or d0 > 1e15 then return nil end
    irregular = redis.call('ZRANGEBYSCORE', durKey, '(' .. fmt(d0), '+inf', 'WITHSCORES')
  else
    irregular = redis.call('ZRANGE', durKey, 0, -1, 'WITHSCORES')
  end
  -- A regular match starts in [fullLo, fullHi]; a regular event of a
  -- counted set that starts in (coreLo, coreHi) matches.
  local fullLo, fullHi = math.max(sa1, sc1 - d0 - 1), math.min(sa2, sc2)
  local coreLo, coreHi = math.max(sa1, sc1), math.min(sa2, sc2 - d0 - 1)
  local coreOK = coreLo < coreHi
  local strips = {}
  if fullLo <= fullHi then
    if coreOK then
      strips = {{fullLo, coreLo}, {coreHi, fullHi}}
    else
      strips = {{fullLo, fullHi}}
    end
  end
  -- The bounds as Redis reads them, written once: a string costs Lua about
  -- half a microsecond.
  local fLo, fHi, cLo, cHi = fmt(fullLo), fmt(fullHi), excl(coreLo), excl(coreHi)
  for _, r in ipairs(strips) do r[3], r[4] = fmt(r[1]), fmt(r[2]) end
  local work = #irregular / 2 + #exclList
  for _, k in ipairs(counted) do
    for _, r in ipairs(strips) do work = work + redis.call('ZCOUNT', k, r[3], r[4]) end
  end
  -- Besides: the full range of the individual sets, of the exception sets
  -- (events of the counted sets that a restriction may refuse: hidden,
  -- featured, at an excluded venue) and of the smallest restricting group
  -- (the union of the sets an event must be in: featured, children, links,
  -- statuses), when there is one; a restricting group replaces counting.
  local best
  if fullLo <= fullHi then
    for _, k in ipairs(indiv) do work = work + redis.call('ZCOUNT', k, fLo, fHi) end
    for _, k in ipairs(exceptions) do work = work + redis.call('ZCOUNT', k, fLo, fHi) end
    local bestCount
    for _, g in ipairs(groups) do
      local c = 0
      for _, k in ipairs(g) do c = c + redis.call('ZCOUNT', k, fLo, fHi) end
      if not best or c < bestCount then best, bestCount = g, c end
    end
    if best then work = work + bestCount end
  end
  if work > budget then return nil end

  local total = 0
  if coreOK then
    for _, k in ipairs(counted) do total = total + redis.call('ZCOUNT', k, cLo, cHi) end
  end
  -- Each event decided on its meta is taken out of the count as many times
  -- as the core counts hold it (counted sets may overlap: an event in two
  -- listed categories), and put back once (and in the pool) if it matches.
  -- inCore false: it is in no core.
  local seen, pool = {}, {}
  -- A pool entry is {score, id, id string, start seconds, start nanos}: the
  -- start of an event of a core is known by its score alone until it ties
  -- with another's (see the page below). The score of an exact start is
  -- storage.TimeScoreMicro's; a start beyond the exact range gets an
  -- infinite one, so only exact starts ever tie with it.
  local function scoreOf(sS, sN)
    if sS >= 9e9 then return huge elseif sS <= -9e9 then return -huge end
    return sS * 1e6 + math.floor(sN / 1000)
  end
  -- Where a score lies against a bound pair: 1 strictly inside, 0 strictly
  -- outside, nil on a bound's microsecond (scores round down: a strict
  -- score comparison is the instants', an equal one says nothing).
  local function side(x, lo, hi)
    if lo then if x < lo then return 0 elseif x == lo then return nil end end
    if hi then if x > hi then return 0 elseif x == hi then return nil end end
    return 1
  end
  local function boundScore(b) if b then return scoreOf(b[1], b[2]) end end
  local sFromS, sToS, eFromS, eToS = boundScore(sFrom), boundScore(sTo), boundScore(eFrom), boundScore(eTo)
  -- calendar.TimeRange.Contains of Start and End decided on exact scores:
  -- true, false, or nil when the scores cannot tell.
  local function onScores(s, e)
    if not (s and e) or math.abs(s) >= 9e15 or math.abs(e) >= 9e15 then return nil end
    local a, b = side(s, sFromS, sToS), side(e, eFromS, eToS)
    if a == 0 or b == 0 then return false end
    if a and b then return true end
    return nil
  end
  local function decide(id, inCore)
    if seen[id] then return end
    seen[id] = true
    local n = 0
    if inCore == nil and coreOK then
      for _, k in ipairs(counted) do
        local sc = tonumber(redis.call('ZSCORE', k, id))
        if sc and sc > coreLo and sc < coreHi then n = n + 1 end
      end
    end
    total = total - n
    local m = redis.call('HGET', metaKey, id)
    if not m then
      if n > 0 then bad = true end
      return
    end
    local ok, sS, sN = match(id, m)
    if ok then
      total = total + 1
      pool[#pool + 1] = {scoreOf(sS, sN), tonumber(id), id, sS, sN}
    end
  end
  -- An irregular event of finite duration has exact scores and starts
  -- before it ends. One that starts beyond a Start bound or beyond To(End),
  -- or ends before From(End), neither matches nor lies in a core (scores
  -- round down to the microsecond, so a score beyond a bound's is an instant
  -- beyond the bound), and costs two ZSCOREs instead of its meta. One that
  -- only ends after To(End) may lie in a core: it is decided.
  -- And a match is in a counted or individual set, or in the smallest group
  -- when sets are not counted: an irregular event in none is not decided.
  local holders, filter = {}, #groups == 0 or best ~= nil
  for _, list in ipairs({counted, indiv, best or {}}) do
    for _, k in ipairs(list) do holders[#holders + 1] = k end
  end
  for i = 1, #irregular, 2 do
    local id, keep = irregular[i], true
    if irregular[i + 1] ~= 'inf' and irregular[i + 1] ~= '+inf' then
      local s, e = tonumber(redis.call('ZSCORE', startKey, id)), tonumber(redis.call('ZSCORE', endKey, id))
      keep = not (s and e) or s >= sa1 and s <= sa2 and s <= sc2 and e >= sc1
    end
    if keep and filter then
      keep = false
      for _, k in ipairs(holders) do
        if redis.call('ZSCORE', k, id) then keep = true; break end
      end
    end
    if keep then decide(id, nil) end
  end
  for _, id in ipairs(exclList) do decide(id, nil) end
  if fullLo <= fullHi then
    -- Exceptions first: a strip event of theirs is then seen, and the strips
    -- below only hold events no restriction but time can refuse.
    for _, k in ipairs(exceptions) do
      for _, id in ipairs(redis.call('ZRANGEBYSCORE', k, fLo, fHi)) do decide(id, nil) end
    end
  end
  -- A strip event of a counted set (in no core) differs from a core one by
  -- time alone, so its start and end scores decide it — one ZMSCORE for a
  -- strip instead of a meta per event, which is what keeps the cost of a
  -- window's edges from growing with the events a day holds. Only an event
  -- on a bound's microsecond (or without exact scores) is read and decided.
  for _, k in ipairs(counted) do
    for _, r in ipairs(strips) do
      local got = redis.call('ZRANGEBYSCORE', k, r[3], r[4], 'WITHSCORES')
      local ids, starts = {}, {}
      for i = 1, #got, 2 do
        if not seen[got[i]] then
          ids[#ids + 1], starts[#starts + 1] = got[i], tonumber(got[i + 1])
        end
      end
      for lo = 1, #ids, 1000 do
        local hi = math.min(#ids, lo + 999)
        local ends = redis.call('ZMSCORE', endKey, unpack(ids, lo, hi))
        for i = lo, hi do
          local id = ids[i]
          local v = onScores(starts[i], tonumber(ends[i - lo + 1]))
          if v == nil then
            decide(id, false)
          else
            seen[id] = true
            if v then
              total = total + 1
              pool[#pool + 1] = {starts[i], tonumber(id), id}
            end
          end
        end
      end
    end
  end
  if fullLo <= fullHi then
    -- A status is counted or individual, never both: an event of an
    -- individual set is in no counted one.
    for _, k in ipairs(indiv) do
      for _, id in ipairs(redis.call('ZRANGEBYSCORE', k, fLo, fHi)) do decide(id, false) end
    end
    for _, k in ipairs(best or {}) do
      for _, id in ipairs(redis.call('ZRANGEBYSCORE', k, fLo, fHi)) do decide(id, nil) end
    end
  end
  if bad then return nil end

  -- The page: the first need core events of each counted set (and every
  -- event tied with the last of them) join the pool, which then holds the
  -- first need matches in list order. A core event joins with its score
  -- only: scores are starts rounded down to the microsecond, so events of
  -- different scores are ordered by them, and only the metas of events
  -- tying on a score at the page are read, for their exact starts.
  local need = 0
  if not countOnly then
    if limit > 0 then need = offset + limit else need = total end
  end
  if need > budget then return nil end
  if need > 0 and coreOK then
    local skip = 0
    for _ in pairs(seen) do skip = skip + 1 end
    for _, k in ipairs(counted) do
      local want = need + skip
      local r = redis.call('ZRANGEBYSCORE', k, cLo, cHi, 'WITHSCORES', 'LIMIT', 0, want)
      for i = 1, #r, 2 do
        local id = r[i]
        if not seen[id] then
          seen[id] = true
          pool[#pool + 1] = {tonumber(r[i + 1]), tonumber(id), id}
        end
      end
      if #r == 2 * want then
        local last = tonumber(r[#r])
        for _, id in ipairs(redis.call('ZRANGEBYSCORE', k, r[#r], r[#r])) do
          if not seen[id] then
            seen[id] = true
            pool[#pool + 1] = {last, tonumber(id), id}
          end
        end
      end
    end
  end
  table.sort(pool, function(x, y)
    if x[1] ~= y[1] then return x[1] < y[1] end
    return x[2] < y[2]
  end)
  local lo, hi = offset + 1, #pool
  if limit > 0 and offset + limit < hi then hi = offset + limit end
  if countOnly then hi = 0 end
  -- Runs of equal scores that reach into the page are ordered on the exact
  -- starts of their metas.
  local i = 1
  while i <= hi do
    local j = i
    while j < #pool and pool[j + 1][1] == pool[i][1] do j = j + 1 end
    if j > i and j >= lo then
      local run = {}
      for x = i, j do
        local e = pool[x]
        if not e[4] then
          local m = redis.call('HGET', metaKey, e[3])
          if not m then return nil end
          local _, _, _, _, _, sS, sN = decode(m)
          e[4], e[5] = sS, sN
        end
        run[#run + 1] = e
      end
      if bad then return nil end
      table.sort(run, function(x, y)
        if x[4] ~= y[4] then return x[4] < y[4] end
        if x[5] ~= y[5] then return x[5] < y[5] end
        return x[2] < y[2]
      end)
      for x = i, j do pool[x] = run[x - i + 1] end
    end
    i = j + 1
  end
  local recs = {}
  if hi >= lo then
    local keys = {}
    for x = lo, hi do keys[#keys + 1] = prefix .. pool[x][3] end
    recs = redis.call('MGET', unpack(keys))
    for _, v in ipairs(recs) do if not v then return nil end end
    if #recs ~= #keys then return nil end
  end
  return {'page', total, recs}
end
`
