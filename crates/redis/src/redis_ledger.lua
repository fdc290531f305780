-- llm-preflight: the atomic half of the Redis ledger (src/preflight/redis_ledger.rs). One script, one round trip per
-- operation. It holds only the bucket arithmetic that atomicity requires: what a bucket holds at a time
-- (Bucket::available), taking (Bucket::take) and giving back (Bucket::give), the "fits now" test of the verdict
-- (every bucket holds what the request needs, no retry-after in force), and reaping expired reservations. How long
-- to wait, never-sendable limits and header observations are computed by the Rust core on the state this script
-- returns; tests/redis_ledger.rs runs it in lockstep with the in-process ledger to show the two agree.
--
-- KEYS[1] state hash, KEYS[2] reservations hash (id -> needs), KEYS[3] expiry sorted set (id -> expiry ms),
-- KEYS[4] config hash.
-- ARGV[1] operation, ARGV[2] now in ms ('' = this server's TIME, never stepping back behind the last time used).
--
-- State fields: per rate slot i (0 tokens, 1 input, 2 output, 3 requests, 4 tokens/day, 5 requests/day) a bucket
-- lim<i> lvl<i> at<i> rt<i> hr<i> hu<i> (limit, level, at_ms, rate, header rate, header_until), present only when
-- the slot is limited; held<i>; blocked (retry-after end), inflight, seq (last reservation id), obs_seq (order of
-- the newest observation applied), hw (latest time used), cfgver, epoch (when the state was created), and
-- counters n_admitted n_settled n_released n_expired n_late.

local S, R, E, C = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local op = ARGV[1]

local function bad(what)
  error({ err = 'LPBAD ' .. what })
end

-- Numbers as text Rust reads back exactly: whole numbers as integers, others with 17 significant digits (which
-- costs a few microseconds each in Redis's Lua, so only bucket levels normally need it).
local function fmt(x)
  if x == math.floor(x) and x > -9007199254740992 and x < 9007199254740992 then
    return string.format('%d', x)
  end
  return string.format('%.17g', x)
end

if op == 'init' then
  -- ARGV[3] = number of config field/value pairs, then those pairs, then the state's field/value pairs.
  -- Writes config and state only when the state is missing (first use, or a restart that lost it), bumping the
  -- config version; otherwise leaves both alone. Returns the result and the stored config.
  local created = 'exists'
  if redis.call('EXISTS', S) == 0 then
    local old = tonumber(redis.call('HGET', C, 'ver') or '0') or 0
    local ver = tostring(math.floor(old) + 1)
    local ncfg = tonumber(ARGV[3]) or bad('init config count')
    redis.call('DEL', C, R, E)
    local i = 4
    for _ = 1, ncfg do
      redis.call('HSET', C, ARGV[i], ARGV[i + 1])
      i = i + 2
    end
    redis.call('HSET', C, 'ver', ver)
    while i < #ARGV do
      redis.call('HSET', S, ARGV[i], ARGV[i + 1])
      i = i + 2
    end
    redis.call('HSET', S, 'cfgver', ver)
    created = 'created'
  end
  local out = { created }
  local cfg = redis.call('HGETALL', C)
  for j = 1, #cfg do
    out[#out + 1] = cfg[j]
  end
  return out
end

if redis.call('EXISTS', S) == 0 then
  return { 'noinit' }
end

local raw = redis.call('HGETALL', S)
local st = {}
for i = 1, #raw, 2 do
  st[raw[i]] = raw[i + 1]
end

local function num(field, default)
  local v = st[field]
  if v == nil then
    if default == nil then bad('missing ' .. field) end
    return default
  end
  local n = tonumber(v)
  if n == nil or n ~= n or n == math.huge or n == -math.huge then bad(field .. ' = ' .. v) end
  return n
end

local now
if ARGV[2] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local hw = num('hw', 0)
  if hw > now then now = hw end
else
  now = tonumber(ARGV[2]) or bad('now = ' .. ARGV[2])
end

local buckets = {}
for i = 0, 5 do
  if st['lim' .. i] ~= nil then
    local b = {
      lim = num('lim' .. i), lvl = num('lvl' .. i), at = num('at' .. i),
      rt = num('rt' .. i), hr = num('hr' .. i), hu = num('hu' .. i),
    }
    if b.lim < 1 then bad('lim' .. i .. ' = ' .. st['lim' .. i]) end
    buckets[i] = b
  end
end
local held = {}
for i = 0, 5 do
  held[i] = num('held' .. i, 0)
end
local inflight = num('inflight', 0)
local counters = {}
for _, k in ipairs({ 'n_admitted', 'n_settled', 'n_released', 'n_expired', 'n_late' }) do
  counters[k] = num(k, 0)
end

-- Bucket::available
local function avail(b, t)
  local t1 = math.max(t, b.at)
  local fast_end = math.max(b.at, math.min(b.hu, t1))
  local level = b.lvl + b.hr * (fast_end - b.at) + b.rt * (t1 - fast_end)
  if b.lim - level < 1e-6 then return b.lim end
  return level
end

-- Bucket::take
local function take(b, n, t)
  if t > b.at then
    b.lvl = avail(b, t)
    b.at = t
  end
  b.lvl = b.lvl - n
end

-- Bucket::give
local function give(b, n)
  b.lvl = math.min(b.lvl + n, b.lim)
end

local function parse_needs(v)
  local n = {}
  local i = 0
  for w in string.gmatch(v, '%S+') do
    n[i] = tonumber(w) or bad('reservation needs ' .. v)
    i = i + 1
  end
  if i ~= 6 then bad('reservation needs ' .. v) end
  return n
end

-- Ledger::finish: give back what was reserved and not used, take what was used beyond it.
local function finish(needs, used, t)
  inflight = math.max(inflight - 1, 0)
  for i = 0, 5 do
    held[i] = math.max(held[i] - needs[i], 0)
  end
  for i = 0, 5 do
    local b = buckets[i]
    if b then
      if used == nil then
        give(b, needs[i])
      else
        give(b, math.max(needs[i] - used[i], 0))
        take(b, math.max(used[i] - needs[i], 0), t)
      end
    end
  end
end

-- Reservations past their expiry (a replica that died between reserve and settle) are given back and counted.
local expired = redis.call('ZRANGEBYSCORE', E, '-inf', fmt(now), 'LIMIT', 0, 256)
for _, id in ipairs(expired) do
  local v = redis.call('HGET', R, id)
  if v then
    finish(parse_needs(v), nil, now)
    counters.n_expired = counters.n_expired + 1
    redis.call('HDEL', R, id)
  end
  redis.call('ZREM', E, id)
end

-- The fields this script changes (levels and times of buckets, held, counters, the clock's high-water mark).
local function fields()
  local f = {}
  for i = 0, 5 do
    local b = buckets[i]
    if b then
      f[#f + 1] = 'lvl' .. i
      f[#f + 1] = fmt(b.lvl)
      f[#f + 1] = 'at' .. i
      f[#f + 1] = fmt(b.at)
    end
    f[#f + 1] = 'held' .. i
    f[#f + 1] = fmt(held[i])
  end
  f[#f + 1] = 'inflight'
  f[#f + 1] = fmt(inflight)
  for k, v in pairs(counters) do
    f[#f + 1] = k
    f[#f + 1] = fmt(v)
  end
  f[#f + 1] = 'hw'
  f[#f + 1] = fmt(math.max(num('hw', 0), now))
  return f
end

-- The fields it never changes, as stored, and the ones only Rust writes.
local function unchanged(out)
  for i = 0, 5 do
    if buckets[i] then
      for _, k in ipairs({ 'lim', 'rt', 'hr', 'hu' }) do
        out[#out + 1] = k .. i
        out[#out + 1] = st[k .. i]
      end
    end
  end
  for _, k in ipairs({ 'blocked', 'seq', 'obs_seq', 'cfgver', 'epoch' }) do
    if st[k] ~= nil then
      out[#out + 1] = k
      out[#out + 1] = st[k]
    end
  end
end

-- The reply: a status, then `now`, then the operation's own values, then every state field after '--' (`state`
-- when given: the fields as they were before this call changed them).
local function reply(status, extra, state)
  local f = fields()
  redis.call('HSET', S, unpack(f))
  local out = { status, fmt(now) }
  for _, v in ipairs(extra) do
    out[#out + 1] = v
  end
  out[#out + 1] = '--'
  unchanged(out)
  for _, v in ipairs(state or f) do
    out[#out + 1] = v
  end
  return out
end

local function needs_from(first)
  local n = {}
  for i = 0, 5 do
    n[i] = tonumber(ARGV[first + i]) or bad('argument ' .. (first + i))
  end
  return n
end

if op == 'read' then
  return reply('ok', {})
end

if op == 'reserve' then
  -- ARGV[3] config version, ARGV[4] ttl ms, ARGV[5..10] needs per slot.
  if st.cfgver ~= ARGV[3] then
    return { 'cfg', st.cfgver or '' }
  end
  local ttl = tonumber(ARGV[4]) or bad('ttl')
  local needs = needs_from(5)
  -- The verdict's "sendable now": no retry-after in force, and every bucket holds what the request needs at a
  -- time not before its last update (verdict_at and Bucket::wait_ms return 0 exactly then).
  local fits = num('blocked', 0) <= now
  for i = 0, 5 do
    local b = buckets[i]
    if fits and b then
      if needs[i] > b.lim or b.at > now or avail(b, now) < needs[i] - 1e-6 then
        fits = false
      end
    end
  end
  if not fits then
    return reply('no', {})
  end
  -- The state before taking, for the Rust core's check; the write below stores the state after.
  local before = fields()
  for i = 0, 5 do
    if buckets[i] then take(buckets[i], needs[i], now) end
    held[i] = held[i] + needs[i]
  end
  inflight = inflight + 1
  counters.n_admitted = counters.n_admitted + 1
  local id = redis.call('HINCRBY', S, 'seq', 1)
  st.seq = tostring(id)
  local v = {}
  for i = 0, 5 do
    v[#v + 1] = fmt(needs[i])
  end
  redis.call('HSET', R, id, table.concat(v, ' '))
  redis.call('ZADD', E, fmt(now + ttl), id)
  return reply('ok', { tostring(id), fmt(now + ttl) }, before)
end

if op == 'settle' or op == 'release' then
  -- ARGV[3] the state's epoch when the reservation was made, ARGV[4] reservation id ('0' for usage with no
  -- reservation here), ARGV[5..10] used per slot (settle only). A reservation from another epoch (before a restart
  -- that lost the state) is not the one stored under the same id now.
  local id = ARGV[4]
  local v = nil
  if st.epoch == ARGV[3] then v = redis.call('HGET', R, id) end
  local used = nil
  if op == 'settle' then used = needs_from(5) end
  if v then
    local needs = parse_needs(v)
    redis.call('HDEL', R, id)
    redis.call('ZREM', E, id)
    finish(needs, used, now)
    if op == 'settle' then
      counters.n_settled = counters.n_settled + 1
    else
      counters.n_released = counters.n_released + 1
    end
    local out = {}
    for i = 0, 5 do
      out[#out + 1] = fmt(needs[i])
    end
    return reply('ok', out)
  end
  if op == 'settle' then
    -- Expired and given back already (or lost with a Redis restart): the tokens were used, so take them.
    for i = 0, 5 do
      if buckets[i] then take(buckets[i], used[i], now) end
    end
    counters.n_late = counters.n_late + 1
    return reply('late', {})
  end
  return reply('gone', {})
end

bad('unknown operation ' .. tostring(op))
