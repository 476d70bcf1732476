--[[
  Native autocomplete over one entity type's suggestion entries in one shard (`ac:`: `text\0original\0urn`, text
  lower-cased from a word start), restricted by a filter, in one atomic step: the shard's entries that start with
  the query, in entry order, from a given one on, each with whether the filter keeps it. The gateway merges the
  shards' entries into the first ones of them all (NativeEngine.autocomplete); without a filter it reads them itself.

  KEYS[1]  the live set of the type in the shard; every other key is named from ARGV[1] and ARGV[2], which carry
           the same shard hash tag (one slot)
  ARGV     1 index prefix P, 2 temporary key prefix, 3 query (normalized), 4 most entries to read, 5 most values a
           string condition may match (filter.lua), 6 the entry to read from (included; the query itself for the
           first that starts with it), then the filter exactly as search-2.lua reads it (group count, criteria lists)
  Returns  {entry, kept, ...} for every entry read: kept '1' when the filter keeps its urn, '' when it drops it
]]
local P = ARGV[1]
local TMP = ARGV[2]
local live = KEYS[1]
local pos = 7
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
local entries = redis.call('ZRANGEBYLEX', P .. 'ac:', '[' .. ARGV[6], '[' .. q .. '\255', 'LIMIT', 0, tonumber(ARGV[4]))
local out = {}
for _, entry in ipairs(entries) do
  local urn = string.match(entry, '^[^%z]*%z[^%z]*%z(.*)$')
  out[#out + 1] = entry
  out[#out + 1] = (urn and (filterKey == nil or (filterKey ~= false and redis.call('ZSCORE', filterKey, urn) ~= false))) and '1' or ''
end
cleanup()
return out
