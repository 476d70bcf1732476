--[[
  Shared by the native search and autocomplete scripts (included, not pasted): temporary keys, unions in chunks,
  and turning filter criteria into sets of urns. Expects P (index prefix), TMP (temporary key prefix), live
  (the live set key) and pos (ARGV cursor) to be defined by the including script.
]]
local tmpCount = 0
local tmps = {}
local function tmp()
  tmpCount = tmpCount + 1
  local key = TMP .. tmpCount
  tmps[#tmps + 1] = key
  return key
end

-- ZUNIONSTORE/ZINTERSTORE with many source keys, in chunks that stay within Lua's stack.
local CHUNK = 500
local function unionInto(dest, keys, aggregate)
  local first = true
  for i = 1, #keys, CHUNK do
    local chunk = {}
    for j = i, math.min(i + CHUNK - 1, #keys) do chunk[#chunk + 1] = keys[j] end
    if not first then table.insert(chunk, 1, dest) end
    -- unpack() only expands fully as the last argument: build the whole argument list.
    local args = { 'ZUNIONSTORE', dest, #chunk }
    for _, key in ipairs(chunk) do args[#args + 1] = key end
    args[#args + 1] = 'AGGREGATE'
    args[#args + 1] = aggregate
    redis.call(unpack(args))
    first = false
  end
  redis.call('PEXPIRE', dest, 60000)
end

-- A key holding exactly the union of `keys`, or false when there are none.
local function union(keys, aggregate)
  if #keys == 0 then return false end
  if #keys == 1 then return keys[1] end
  local dest = tmp()
  unionInto(dest, keys, aggregate or 'MAX')
  return dest
end

local function kwKey(field, lower) return P .. 'kw:' .. field .. '\0' .. lower end

-- Lower-cased values of a field matching a string condition (from the field's lexicon of values).
local function matchingValues(field, condition, v)
  local vals = P .. 'vals:' .. field
  local members
  if condition == 'START_WITH' then members = redis.call('ZRANGEBYLEX', vals, '[' .. v, '[' .. v .. '\255')
  elseif condition == 'GREATER_THAN' then members = redis.call('ZRANGEBYLEX', vals, '(' .. v, '+')
  elseif condition == 'GREATER_THAN_OR_EQUAL_TO' then members = redis.call('ZRANGEBYLEX', vals, '[' .. v, '+')
  elseif condition == 'LESS_THAN' then members = redis.call('ZRANGEBYLEX', vals, '-', '(' .. v)
  elseif condition == 'LESS_THAN_OR_EQUAL_TO' then members = redis.call('ZRANGEBYLEX', vals, '-', '[' .. v)
  else members = redis.call('ZRANGE', vals, 0, -1) end
  local out = {}
  for _, lower in ipairs(members) do
    local ok = true
    if condition == 'CONTAIN' then ok = string.find(lower, v, 1, true) ~= nil
    elseif condition == 'END_WITH' then ok = #lower >= #v and string.sub(lower, -#v) == v end
    if ok then out[#out + 1] = lower end
  end
  return out
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

-- The urn field has no postings: the live set lists every searchable urn in order (case kept).
local function urnCriterionKey(condition, v)
  local dest = tmp()
  if URN_RANGE[condition] then
    local min, max = URN_RANGE[condition](v)
    redis.call('ZRANGESTORE', dest, live, min, max, 'BYLEX')
  else
    local lower = string.lower(v)
    for _, urn in ipairs(redis.call('ZRANGE', live, 0, -1)) do
      local u = string.lower(urn)
      local ok = (condition == 'CONTAIN' and string.find(u, lower, 1, true) ~= nil) or (condition == 'END_WITH' and #u >= #lower and string.sub(u, -#lower) == lower)
      if ok then redis.call('ZADD', dest, 0, urn) end
    end
  end
  redis.call('PEXPIRE', dest, 60000)
  return dest
end

-- Key of the set of urns matching one criterion (false: nothing matches).
local function criterionKey(field, condition, negated, numeric, values)
  local keys = {}
  for _, v in ipairs(values) do
    if field == 'urn' then
      keys[#keys + 1] = urnCriterionKey(condition, v)
    elseif numeric and NUMERIC_RANGE[condition] then
      local min, max = NUMERIC_RANGE[condition](v)
      local dest = tmp()
      redis.call('ZRANGESTORE', dest, P .. 'num:' .. field, min, max, 'BYSCORE')
      redis.call('PEXPIRE', dest, 60000)
      keys[#keys + 1] = dest
    elseif condition == 'EQUAL' then
      keys[#keys + 1] = kwKey(field, v)
    else
      for _, lower in ipairs(matchingValues(field, condition, v)) do keys[#keys + 1] = kwKey(field, lower) end
    end
  end
  local matched = union(keys, 'MAX')
  if negated == '1' then
    local dest = tmp()
    if matched then redis.call('ZDIFFSTORE', dest, 2, live, matched) else redis.call('ZUNIONSTORE', dest, 1, live) end
    redis.call('PEXPIRE', dest, 60000)
    return dest
  end
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


-- Reads the filter (group count, then a criteria list per group) and returns the key of the set of urns it
-- matches, or nil when there is no filter, or false when nothing can match.
local function readFilter()
  local nGroups = tonumber(ARGV[pos]); pos = pos + 1
  if nGroups == 0 then return nil end
  local groupKeys = {}
  for _ = 1, nGroups do
    local keys, empty = {}, false
    for _, c in ipairs(readCriteria()) do
      local key = criterionKey(c.field, c.condition, c.negated, c.numeric, c.values)
      if not key then empty = true else keys[#keys + 1] = key end
    end
    if not empty then
      if #keys == 1 then groupKeys[#groupKeys + 1] = keys[1] else
        local dest = tmp()
        redis.call('ZINTERSTORE', dest, #keys, unpack(keys))
        redis.call('PEXPIRE', dest, 60000)
        groupKeys[#groupKeys + 1] = dest
      end
    end
  end
  return union(groupKeys, 'MAX')
end

-- Deletes the temporary keys of this call.
local function cleanup()
  if #tmps > 0 then redis.call('DEL', unpack(tmps)) end
end
