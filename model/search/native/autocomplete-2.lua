--[[
  Native autocomplete over one entity type's suggestion entries (`ac:`: `text\0original\0urn`, text lower-cased
  from a word start), optionally restricted by a filter, in one atomic step.

  KEYS[1]  the live set of the type in the shard; every other key is named from ARGV[1] and ARGV[2], which carry
           the same shard hash tag (one slot)
  ARGV     1 index prefix P, 2 temporary key prefix, 3 query (normalized), 4 most entries to scan, 5 most values a
           string condition may match (filter.lua), then the filter exactly as search-2.lua reads it (group count,
           criteria lists)
  Returns  {original, '1' if the whole value starts with the query else '0', ...} (distinct originals)
]]
local P = ARGV[1]
local TMP = ARGV[2]
local live = KEYS[1]
local pos = 6
-- @include filter.lua

local filterSet = readFilter()
local filterKey = filterSet and filterSet.key or filterSet
if filterKey then
  -- Materialize as a sorted set: membership is then one ZSCORE whatever the source type.
  local dest = tmp()
  redis.call('ZUNIONSTORE', dest, 1, filterKey)
  redis.call('PEXPIRE', dest, 60000)
  filterKey = dest
end

local q = ARGV[3]
local entries = redis.call('ZRANGEBYLEX', P .. 'ac:', '[' .. q, '[' .. q .. '\255', 'LIMIT', 0, tonumber(ARGV[4]))
local seen, out = {}, {}
for _, entry in ipairs(entries) do
  local text, original, urn = string.match(entry, '^([^%z]*)%z([^%z]*)%z(.*)$')
  if original and not seen[original] then
    local ok = true
    if filterKey ~= nil then ok = filterKey ~= false and redis.call('ZSCORE', filterKey, urn) ~= false end
    if ok then
      seen[original] = true
      out[#out + 1] = original
      out[#out + 1] = (string.lower(original) == text) and '1' or '0'
    end
  end
end
cleanup()
return out
