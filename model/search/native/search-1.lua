--[[
  Native search over one entity type's index in one shard (layout in documentOps.ts), in one atomic step.

  KEYS[1]  the live set of the type in the shard (`P .. 'live:'`). The postings, lexicons and temporary keys the
           query reaches are named from ARGV[1] and ARGV[2], which carry the same shard hash tag: every key is in
           KEYS[1]'s slot (which postings a query reads is only known inside the script).
  ARGV     1 index prefix P (`<prefix>{<shard tag>}:ix:<type>:`)
           2 prefix for temporary keys (unique per call, in the shard; deleted before returning)
           3 start, 4 count
           5 word count, then per word: token, '1' if it is a prefix
           then a criteria list of required criteria (AND), then the filter: group count, then per group a
           criteria list (groups are OR-ed). A criteria list is: count, then per criterion:
             field, condition, negated ('1'/'0'), numeric ('1'/'0'), value count, values (lower-cased)...
           then facet count, facet fields..., then the most values a facet reports
  Returns  {total, {urn, score, urn, score...}, {field, {value, count, ...}, field, {...}, ...}}
           Hits [start, start+count) ordered by relevance (sum of token scores) then urn; a hit's score is minus
           its relevance (the ascending order of the result set). Facet values are original spellings.
]]
local P = ARGV[1]
local TMP = ARGV[2]
local live = KEYS[1]
local pos = 5
-- @include filter.lua

-- Sources of the final intersection with their weights. Token postings hold minus the relevance, so ascending
-- order is best first with ties in urn order; filter sets weigh 0. Postings and filter sets only ever list live
-- entities, so the live set is needed only when nothing else narrows the result.
local sources, weights = {}, {}
local words = 0
local nothing = false

local nWords = tonumber(ARGV[pos]); pos = pos + 1
for _ = 1, nWords do
  local token, isPrefix = ARGV[pos], ARGV[pos + 1] == '1'
  pos = pos + 2
  local key
  if isPrefix then
    local expansions = redis.call('ZRANGEBYLEX', P .. 'toks:', '[' .. token, '[' .. token .. '\255', 'LIMIT', 0, 200)
    local keys = {}
    for i, t in ipairs(expansions) do keys[i] = P .. 'tok:' .. t end
    key = union(keys, 'MIN')
  else
    key = P .. 'tok:' .. token
  end
  if not key then nothing = true else
    sources[#sources + 1] = key
    weights[#weights + 1] = 1
    words = words + 1
  end
end

for _, c in ipairs(readCriteria()) do
  local key = criterionKey(c.field, c.condition, c.negated, c.numeric, c.values)
  if not key then nothing = true else
    sources[#sources + 1] = key
    weights[#weights + 1] = 0
  end
end

local filterKey = readFilter()
if filterKey == false then nothing = true elseif filterKey then
  sources[#sources + 1] = filterKey
  weights[#weights + 1] = 0
end

local nFacets = tonumber(ARGV[pos]); pos = pos + 1
local facetFields = {}
for i = 1, nFacets do facetFields[i] = ARGV[pos + i - 1] end
pos = pos + nFacets
local maxFacetValues = tonumber(ARGV[pos])

local result
if nothing then
  result = false
elseif #sources == 0 then
  result = live
elseif #sources == 1 and words == 1 then
  -- One word and nothing else: page through its posting as it is.
  result = sources[1]
else
  result = tmp()
  local args = { 'ZINTERSTORE', result, #sources }
  for _, key in ipairs(sources) do args[#args + 1] = key end
  args[#args + 1] = 'WEIGHTS'
  for _, w in ipairs(weights) do args[#args + 1] = w end
  redis.call(unpack(args))
  redis.call('PEXPIRE', result, 60000)
end

-- Facet counts: one intersection per facet value. They are the expensive part for big results, so the counts of
-- a single word's posting are cached (fc:<token>); writes drop the cache of every token whose posting or whose
-- documents' facet values they change (documentOps.ts).
local function countFacets()
  local out = {}
  for _, field in ipairs(facetFields) do
    local buckets = {}
    local values = redis.call('ZRANGE', P .. 'vals:' .. field, 0, maxFacetValues - 1)
    for _, lower in ipairs(values) do
      local n
      if result == live then n = redis.call('SCARD', kwKey(field, lower))
      else n = redis.call('ZINTERCARD', 2, result, kwKey(field, lower)) end
      if n > 0 then
        buckets[#buckets + 1] = redis.call('HGET', P .. 'valo:' .. field, lower) or lower
        buckets[#buckets + 1] = n
      end
    end
    out[#out + 1] = field
    out[#out + 1] = buckets
  end
  return out
end

local total, urns, facets = 0, {}, {}
if result then
  total = redis.call('ZCARD', result)
  local start, count = tonumber(ARGV[3]), tonumber(ARGV[4])
  if count > 0 then urns = redis.call('ZRANGE', result, start, start + count - 1, 'WITHSCORES') end
  local tokPrefix = P .. 'tok:'
  if #facetFields > 0 and string.sub(result, 1, #tokPrefix) == tokPrefix then
    local cacheKey = P .. 'fc:' .. string.sub(result, #tokPrefix + 1)
    local cached = redis.call('GET', cacheKey)
    if cached then facets = cjson.decode(cached) else
      facets = countFacets()
      redis.call('SET', cacheKey, cjson.encode(facets), 'EX', 3600)
    end
  else
    facets = countFacets()
  end
end

cleanup()
return { total, urns, facets }
