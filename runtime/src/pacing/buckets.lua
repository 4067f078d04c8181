-- The atomic operation on a call's buckets: the memory buckets' rules (pacer.rs) on the server,
-- by the server's clock. KEYS: the buckets. ARGV: the operation (take, give, empty or
-- answered), the hold in milliseconds (for empty), the start window in milliseconds, the bound
-- in seconds, then for each bucket its size, its refill per second, and the process's own view
-- of it (tokens, and the hold left in milliseconds) for a bucket missing or invalid.
--
-- A bucket is valid when every field is a number with tokens within [-rate * bound, size],
-- held within [0, now + bound], ts and started within [now - 2 * bound, now + 1 s] (started may be
-- 0). An invalid one is replaced by the process's view and reported in the answer's mask.
-- Answers {wait in microseconds, 1 when taken while the buckets start, the mask of the buckets
-- replaced, each bucket's tokens after the operation in thousandths}.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local op = ARGV[1]
local bound = tonumber(ARGV[4]) * 1000000
local hold = math.min(tonumber(ARGV[2]) * 1000, bound)
local window = tonumber(ARGV[3]) * 1000
local skew = 1000000
local wait = 0
local starting = 0
local replaced = 0
local left = {}
local function within(x, low, high)
  return x ~= nil and x == x and x >= low and x <= high
end
for i, key in ipairs(KEYS) do
  local b = 1 + 4 * i
  local size = tonumber(ARGV[b])
  local rate = tonumber(ARGV[b + 1])
  local floor = -rate * bound / 1000000
  local tokens, ts, held, started
  local kind = redis.call('TYPE', key).ok
  if kind == 'hash' then
    local v = redis.call('HMGET', key, 'tokens', 'ts', 'held', 'started')
    tokens, ts, held, started = tonumber(v[1]), tonumber(v[2]), tonumber(v[3]), tonumber(v[4])
    local valid = within(tokens, floor, size) and within(ts, now - 2 * bound, now + skew)
      and within(held, 0, now + bound)
      and (started == 0 or within(started, now - 2 * bound, now + skew))
    if not valid then kind = 'invalid' end
  end
  if kind ~= 'hash' then
    if kind ~= 'none' then
      replaced = replaced + 2 ^ (i - 1)
      redis.call('DEL', key)
    end
    tokens = math.max(floor, math.min(size, tonumber(ARGV[b + 2])))
    ts = now
    held = 0
    local seed_hold = math.min(tonumber(ARGV[b + 3]) * 1000, bound)
    if seed_hold > 0 then held = now + seed_hold end
    started = 0
  end
  if now > ts then tokens = math.min(size, tokens + (now - ts) / 1000000 * rate) end
  if op == 'take' then
    if started > 0 and now - started > window then started = 0 end
    if started == 0 and tokens >= size then started = now end
    if started > 0 then starting = 1 end
    tokens = tokens - 1
    local w = 0
    if tokens < 0 then w = -tokens / rate * 1000000 end
    if held > now then w = math.max(w, held - now) end
    wait = math.max(wait, w)
  elseif op == 'give' then
    tokens = math.min(size, tokens + 1)
  elseif op == 'answered' then
    if started > 0 then
      tokens = tokens - math.min(now - started, window) / 1000000 * rate
      started = 0
    end
  else
    tokens = math.min(tokens, 0)
    if hold > 0 then held = math.max(held, now + hold) end
  end
  -- A queue deeper than the bound is kept at the bound: what is stored stays valid.
  tokens = math.max(floor, tokens)
  -- Written to the last digit (tostring keeps 14: a full bucket would read back over its size).
  local function exact(x) return string.format('%.17g', x) end
  redis.call('HSET', key, 'tokens', exact(tokens), 'ts', exact(now), 'held', exact(held),
    'started', exact(started))
  redis.call('PEXPIRE', key, math.ceil((size - tokens) / rate * 1000) + 60000)
  left[i] = math.floor(tokens * 1000)
end
return {math.ceil(wait), starting, replaced, left[1] or 0, left[2] or 0}
