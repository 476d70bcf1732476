--[[
  Shared by the native search and autocomplete scripts (included, not pasted): temporary keys, and turning filter
  criteria into sets of urns. Expects P (index prefix), TMP (temporary key prefix), live (the live set key) and pos
  (ARGV cursor) to be defined by the including script.

  A set of urns is an expression: `key` names a sorted set holding it, ordered as a result is (score 0, urn
  order), so that a query of one set pages through it as it is (postings are used as they are, combinations are
  stored in temporary keys), `e.numbers`, when an expression has it, answers its documents' numbers (read while
  building it), and `e:bitmap()` answers a bitmap of the same documents (bit = the document's number,
  documentOps.ts), built only when facets need it: a posting's own bitmap when it has one, else from its members'
  numbers; a combination combines its parts' bitmaps with BITOP. `e:cost()` answers how many members building that bitmap would visit (0 when it only combines
  bitmaps the index keeps): a result whose facets cost less from its members' numbers than from its bitmap is
  counted from the numbers (search-2.lua).
]]
-- The most distinct values a string condition may match in this shard: ARGV[5] of both scripts.
local MAX_FILTER_VALUES = tonumber(ARGV[5])
local tmpCount = 0
local tmps = {}
local function tmp()
  tmpCount = tmpCount + 1
  local key = TMP .. tmpCount
  tmps[#tmps + 1] = key
  return key
end

local function expiring(key)
  redis.call('PEXPIRE', key, 60000)
  return key
end

-- The document numbers of urns (those that have one), from the docs hash (`<number>|<facet line>`), in chunks:
-- `visit(urn, number)` is called for each urn that has one.
local function eachNumber(urns, visit)
  for c = 1, #urns, 500 do
    local chunk = {}
    for j = c, math.min(c + 499, #urns) do chunk[#chunk + 1] = urns[j] end
    for j, v in ipairs(redis.call('HMGET', P .. 'docs:', unpack(chunk))) do
      if v then visit(chunk[j], tonumber(string.match(v, '^(%d+)'))) end
    end
  end
end

-- The numbers of those urns that have one.
local function numbersOf(urns)
  local numbers = {}
  eachNumber(urns, function(_, n) numbers[#numbers + 1] = n end)
  return numbers
end

-- A new bitmap with the bits of `numbers` set.
local function bitmapOfNumbers(numbers)
  local dest = tmp()
  for _, n in ipairs(numbers) do redis.call('SETBIT', dest, n, 1) end
  return expiring(dest)
end

-- The bitmap a posting keeps of itself (documentOps.ts), or nil.
local function ownBitmap(key)
  if key == live then return P .. 'lb:' end
  if string.sub(key, 1, #P) == P then
    local own = P .. 'bm:' .. string.sub(key, #P + 1)
    if redis.call('EXISTS', own) == 1 then return own end
  end
  return nil
end

-- The members of a set or sorted set.
local function membersOf(key)
  local kind = redis.call('TYPE', key).ok
  if kind == 'zset' then return redis.call('ZRANGE', key, 0, -1) elseif kind == 'set' then return redis.call('SMEMBERS', key) end
  return {}
end

-- The number of members of a set or sorted set.
local function sizeOf(key)
  local kind = redis.call('TYPE', key).ok
  if kind == 'zset' then return redis.call('ZCARD', key) elseif kind == 'set' then return redis.call('SCARD', key) end
  return 0
end

-- A bitmap of the urns a set or sorted set holds (`own`: the one the posting keeps, if known), else built.
local function bitmapOfKey(key, own)
  own = own or ownBitmap(key)
  if own then return own end
  return bitmapOfNumbers(numbersOf(membersOf(key)))
end

-- A method that computes f(self) on its first call and then answers that value again (kept in the expression).
local function memo(f)
  return function(self)
    local v = self[f]
    if v == nil then
      v = f(self)
      self[f] = v
    end
    return v
  end
end

-- A posting or stored set as an expression. Its methods are shared (a filter on thousands of values makes
-- thousands of leaves, which then cost one small table each).
local Leaf = {}
Leaf.__index = Leaf
Leaf.own = memo(function(self) return ownBitmap(self.key) or false end)
Leaf.bitmap = memo(function(self) return bitmapOfKey(self.key, self:own()) end)
Leaf.cost = memo(function(self) return self:own() and 0 or sizeOf(self.key) end)

local function leaf(key)
  return setmetatable({ key = key }, Leaf)
end

-- The members building the bitmaps of `exprs` visits.
local function costOf(exprs)
  local n = 0
  for _, e in ipairs(exprs) do n = n + e:cost() end
  return n
end

-- Combines bitmaps with BITOP (AND or OR) into a temporary key.
local function bitop(op, exprs)
  local args = { 'BITOP', op, tmp() }
  for _, e in ipairs(exprs) do args[#args + 1] = e:bitmap() end
  redis.call(unpack(args))
  return expiring(args[3])
end

-- ZUNIONSTORE/ZINTERSTORE with many source keys, in chunks that stay within Lua's stack (unpack takes up to 8,000
-- values: a key and its weight each). A chunk holds up to 3,990 keys, so that a filter within MAX_FILTER_VALUES'
-- default (5,000) is stored in one or two steps: at 500 keys a chunk, a union of 700 values was two unions and a
-- third one of those. Every source weighs 0: a small posting is a plain set, whose members the command scores 1,
-- and the stored result must be in urn order (every member scored 0), as its pages are read by rank.
local CHUNK = 3990
local function storeChunked(command, dest, keys, aggregate)
  local function store(target, list)
    local args = { command, target, #list }
    for _, k in ipairs(list) do args[#args + 1] = k end
    args[#args + 1] = 'WEIGHTS'
    for _ = 1, #list do args[#args + 1] = 0 end
    args[#args + 1] = 'AGGREGATE'
    args[#args + 1] = aggregate
    redis.call(unpack(args))
  end
  if #keys <= CHUNK then store(dest, keys) return expiring(dest) end
  -- Each chunk into a key of its own, then those together (re-merging a growing result per chunk is quadratic).
  local parts = {}
  for i = 1, #keys, CHUNK do
    local chunk = {}
    for j = i, math.min(i + CHUNK - 1, #keys) do chunk[#chunk + 1] = keys[j] end
    parts[#parts + 1] = tmp()
    store(parts[#parts], chunk)
    expiring(parts[#parts])
  end
  return storeChunked(command, dest, parts, aggregate)
end

local function keysOf(exprs)
  local keys = {}
  for i, e in ipairs(exprs) do keys[i] = e.key end
  return keys
end

-- A union of expressions. Its `key`, the stored union (ZUNIONSTORE with its aggregate), is made on first use.
local Union = {}
function Union.__index(self, name)
  if name ~= 'key' then return Union[name] end
  local key = storeChunked('ZUNIONSTORE', tmp(), keysOf(self.parts), self.aggregate)
  rawset(self, 'key', key)
  return key
end
-- A few parts: OR their bitmaps; many (a range of values, each a small posting): the union's own members.
Union.bitmap = memo(function(self) return self.few and bitop('OR', self.parts) or bitmapOfKey(self.key) end)
Union.cost = memo(function(self) return self.few and costOf(self.parts) or redis.call('ZCARD', self.key) end)

-- The union of expressions, or false when there are none.
local function union(exprs, aggregate)
  if #exprs == 0 then return false end
  if #exprs == 1 then return exprs[1] end
  return setmetatable({ parts = exprs, aggregate = aggregate or 'MAX', few = #exprs <= 16 }, Union)
end

-- The intersection of expressions (each weighing `weights[i]` in the stored scores, 0 when not given).
local function intersection(exprs, weights)
  if #exprs == 1 and not weights then return exprs[1] end
  local args = { 'ZINTERSTORE', tmp(), #exprs }
  for _, e in ipairs(exprs) do args[#args + 1] = e.key end
  args[#args + 1] = 'WEIGHTS'
  for i = 1, #exprs do args[#args + 1] = weights and weights[i] or 0 end
  redis.call(unpack(args))
  return {
    key = expiring(args[2]),
    bitmap = memo(function() return #exprs == 1 and exprs[1]:bitmap() or bitop('AND', exprs) end),
    cost = memo(function() return costOf(exprs) end),
  }
end

-- Every live urn not in `matched` (an expression, or false for none).
local function complement(matched)
  local dest = tmp()
  if matched then redis.call('ZDIFFSTORE', dest, 2, live, matched.key) else redis.call('ZUNIONSTORE', dest, 1, live) end
  return {
    key = expiring(dest),
    bitmap = memo(function()
      -- live AND NOT matched == live XOR (live AND matched)
      local bitmap = tmp()
      if matched then
        redis.call('BITOP', 'AND', bitmap, P .. 'lb:', matched:bitmap())
        redis.call('BITOP', 'XOR', bitmap, P .. 'lb:', bitmap)
      else
        redis.call('BITOP', 'OR', bitmap, P .. 'lb:')
      end
      return expiring(bitmap)
    end),
    cost = memo(function() return matched and matched:cost() or 0 end),
  }
end

local function kwKey(field, lower) return P .. 'kw:' .. field .. '\0' .. lower end

-- The values of a URN field whose id is `id` (its `ids:` list: `id \0 value`, documentOps.ts), a few at most.
local function valuesById(field, id)
  local prefix = id .. '\0'
  local found = redis.call('ZRANGEBYLEX', P .. 'ids:' .. field, '[' .. prefix, '[' .. prefix .. '\255', 'LIMIT', 0, MAX_FILTER_VALUES + 1)
  if #found > MAX_FILTER_VALUES then
    error({ err = 'FILTER_TOO_BROAD ' .. field .. ' EQUAL ' .. id .. ' matches ' .. #found .. ' values' })
  end
  for k, entry in ipairs(found) do found[k] = string.sub(entry, #prefix + 1) end
  return found
end

-- Lower-cased values of a field matching a range or prefix condition, from the field's lexicon `vals:` (CONTAIN
-- and END_WITH arrive resolved to the matching values by the service, condition EQUAL: engine.ts).
-- A range or prefix condition over more than MAX_FILTER_VALUES values is refused (FILTER_TOO_BROAD) before any is read:
-- its union would hold Redis for as long as it has values.
local LEX_RANGE = {
  START_WITH = function(v) return '[' .. v, '[' .. v .. '\255' end,
  GREATER_THAN = function(v) return '(' .. v, '+' end,
  GREATER_THAN_OR_EQUAL_TO = function(v) return '[' .. v, '+' end,
  LESS_THAN = function(v) return '-', '(' .. v end,
  LESS_THAN_OR_EQUAL_TO = function(v) return '-', '[' .. v end,
}
local function matchingValues(field, condition, v)
  local range = LEX_RANGE[condition]
  if not range then return {} end
  local vals = P .. 'vals:' .. field
  local min, max = range(v)
  local n = redis.call('ZLEXCOUNT', vals, min, max)
  if n > MAX_FILTER_VALUES then
    error({ err = 'FILTER_TOO_BROAD ' .. field .. ' ' .. condition .. ' ' .. v .. ' matches ' .. n .. ' values' })
  end
  return redis.call('ZRANGEBYLEX', vals, min, max)
end

local NUMERIC_RANGE = {
  EQUAL = function(v) return v, v end,
  GREATER_THAN = function(v) return '(' .. v, '+inf' end,
  GREATER_THAN_OR_EQUAL_TO = function(v) return v, '+inf' end,
  LESS_THAN = function(v) return '-inf', '(' .. v end,
  LESS_THAN_OR_EQUAL_TO = function(v) return '-inf', v end,
}

local URN_RANGE = {
  EQUAL = function(v) return '[' .. v, '[' .. v end,
  START_WITH = function(v) return '[' .. v, '[' .. v .. '\255' end,
  GREATER_THAN = function(v) return '(' .. v, '+' end,
  GREATER_THAN_OR_EQUAL_TO = function(v) return '[' .. v, '+' end,
  LESS_THAN = function(v) return '-', '(' .. v end,
  LESS_THAN_OR_EQUAL_TO = function(v) return '-', '[' .. v end,
}

-- The urn field has no postings: the live set lists every searchable urn in order (case kept). CONTAIN and
-- END_WITH arrive resolved to urns by the service (condition EQUAL).
local function urnCriterion(condition, v)
  local dest = tmp()
  local min, max = URN_RANGE[condition](v)
  redis.call('ZRANGESTORE', dest, live, min, max, 'BYLEX')
  return leaf(expiring(dest))
end

-- Urns the service resolved (condition URNS: a condition on a name, whose values and urns the service copies,
-- indexMirror.ts), those that have a document, as one sorted set (score 0, urn order) built by ZADD, in place of a
-- posting per matching value. Their document numbers, read on the way, are its `numbers` (facets) and its bitmap.
local function urnList(urns)
  local listed, numbers = {}, {}
  eachNumber(urns, function(urn, n)
    listed[#listed + 1] = urn
    numbers[#numbers + 1] = n
  end)
  if #numbers == 0 then return false end
  local dest = tmp()
  for c = 1, #listed, 500 do
    local args = { 'ZADD', dest }
    for j = c, math.min(c + 499, #listed) do
      args[#args + 1] = 0
      args[#args + 1] = listed[j]
    end
    redis.call(unpack(args))
  end
  return {
    key = expiring(dest),
    numbers = function() return numbers end,
    bitmap = memo(function() return bitmapOfNumbers(numbers) end),
    cost = function() return #numbers end,
  }
end

-- The set of urns matching one criterion (false: nothing matches).
local function criterion(field, condition, negated, numeric, values)
  local parts = {}
  if condition == 'URNS' then
    local list = urnList(values)
    if list then parts[1] = list end
  else
    for _, v in ipairs(values) do
      if field == 'urn' then
        parts[#parts + 1] = urnCriterion(condition, v)
      elseif numeric and NUMERIC_RANGE[condition] then
        local min, max = NUMERIC_RANGE[condition](v)
        local dest = tmp()
        redis.call('ZRANGESTORE', dest, P .. 'num:' .. field, min, max, 'BYSCORE')
        -- Filters weigh nothing: scores to 0, so that matches come in urn order.
        redis.call('ZUNIONSTORE', dest, 1, dest, 'WEIGHTS', 0)
        parts[#parts + 1] = leaf(expiring(dest))
      elseif condition == 'EQUAL' or condition == 'EQUAL_OR_ID' then
        -- A missing posting matches nothing: left out when the values are few (one left is then paged as it is),
        -- left to the union when they are many (CONTAIN and END_WITH resolved to values: one EXISTS less each).
        if #values > 16 or redis.call('EXISTS', kwKey(field, v)) == 1 then parts[#parts + 1] = leaf(kwKey(field, v)) end
        -- On a URN field a value also names the values whose id it is (`tags:pii`: urn:svc:tag:pii).
        if condition == 'EQUAL_OR_ID' then
          for _, named in ipairs(valuesById(field, v)) do parts[#parts + 1] = leaf(kwKey(field, named)) end
        end
      else
        for _, lower in ipairs(matchingValues(field, condition, v)) do parts[#parts + 1] = leaf(kwKey(field, lower)) end
      end
    end
  end
  local matched = union(parts, 'MAX')
  if negated == '1' then return complement(matched) end
  return matched
end

local function readCriteria()
  local n = tonumber(ARGV[pos]); pos = pos + 1
  local list = {}
  for _ = 1, n do
    local c = { field = ARGV[pos], condition = ARGV[pos + 1], negated = ARGV[pos + 2], numeric = ARGV[pos + 3] == '1' }
    local nv = tonumber(ARGV[pos + 4])
    c.values = {}
    for k = 1, nv do c.values[k] = ARGV[pos + 4 + k] end
    pos = pos + 5 + nv
    list[#list + 1] = c
  end
  return list
end

-- Reads the filter (group count, then a criteria list per group) and returns the set of urns it matches, or nil
-- when there is no filter, or false when nothing can match.
local function readFilter()
  local nGroups = tonumber(ARGV[pos]); pos = pos + 1
  if nGroups == 0 then return nil end
  local groups = {}
  for _ = 1, nGroups do
    local parts, empty = {}, false
    for _, c in ipairs(readCriteria()) do
      local set = criterion(c.field, c.condition, c.negated, c.numeric, c.values)
      if not set then empty = true else parts[#parts + 1] = set end
    end
    if not empty then groups[#groups + 1] = intersection(parts) end
  end
  return union(groups, 'MAX')
end

-- Deletes the temporary keys of this call.
local function cleanup()
  if #tmps > 0 then redis.call('DEL', unpack(tmps)) end
end
