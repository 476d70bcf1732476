--[[
  Native search over one entity type's index in one shard (layout in documentOps.ts), in one atomic step.

  KEYS[1]  the live set of the type in the shard (`P .. 'live:'`). The postings, lexicons and temporary keys the
           query reaches are named from ARGV[1] and ARGV[2], which carry the same shard hash tag: every key is in
           KEYS[1]'s slot (which postings a query reads is only known inside the script).
  ARGV     1 index prefix P (`<prefix>{<shard tag>}:ix:<type>:`)
           2 prefix for temporary keys (unique per call, in the shard; deleted before returning)
           3 start, 4 count, 5 most values a string condition or a word prefix may match (more: FILTER_TOO_BROAD)
           6 word count, then per word: token, '1' if it is a prefix
           then a criteria list of required criteria (AND), then the filter: group count, then per group a
           criteria list (groups are OR-ed). A criteria list is: count, then per criterion:
             field, condition, negated ('1'/'0'), numeric ('1'/'0'), value count, values (lower-cased)...
           then facet count, facet fields..., then the most values a facet reports, then the largest result whose
           documents' numbers are listed (larger ones: their bitmap), then the key prefix of the type's stored
           documents in the shard ('' for none: the page's documents are not returned)
  Returns  {total, {urn, score, urn, score...}, {field, {value, count, ...}, field, {...}, ...}, bitmap, numbers,
           documents}
           Hits [start, start+count) ordered by relevance (sum of token scores) then urn; a hit's score is minus
           its relevance (the ascending order of the result set). Facets of a match-all, from the index's counts:
           values in original spellings, each facet reporting (at most maxFacetValues of) the field's most frequent
           values. Any other result's facets are counted by the caller (indexMirror.ts), from its documents'
           numbers: a result of at most smallResult urns lists them (`numbers`) when their entries are fewer
           bytes than the shard's bitmaps (16 documents in a shard of 6,250, 260 in one of 100,000), and so does
           one whose bitmap would be built from at least as many members as it has (a union of many values); any
           other answers its bitmap's bytes (`bitmap`: N/8 bytes, one read of a posting's own bitmap or of the
           combination). The unused ones are '' and {}. `documents`: each hit's stored document (field `d` of `<prefix><urn>`, false
           when it has none) when a prefix was given, so that the caller needs no other read to show the page.
  Cost     bounded by the page and the facet values shown, not by the number of matches: paging is ZRANGE on a
           posting (a query of one word, one value or one filter) or on the intersection of the query's sets (as
           large as its smallest set); facets read the kept counts, the result's document numbers (at most
           smallResult and fewer than the bitmap's bytes allow, or fewer than building its bitmap would visit), or
           one bitmap (the bitmap of a combination of sets is one BITOP of N/8 bytes per set). A word prefix alone
           (a union of its expansions' postings) is not stored when its page is shallow: the page is merged from
           each posting's first members and the total is the BITCOUNT of its bitmap (mergedPage).
]]
local P = ARGV[1]
local TMP = ARGV[2]
local live = KEYS[1]
local pos = 6
-- @include filter.lua

-- Sources of the final intersection with their weights. Token postings hold minus the relevance, so ascending
-- order is best first with ties in urn order; filter sets weigh 0. Postings and filter sets only ever list live
-- entities, so the live set is needed only when nothing else narrows the result.
local sources, weights = {}, {}
local nothing = false

local nWords = tonumber(ARGV[pos]); pos = pos + 1
for _ = 1, nWords do
  local token, isPrefix = ARGV[pos], ARGV[pos + 1] == '1'
  pos = pos + 2
  local set
  if isPrefix then
    local n = redis.call('ZLEXCOUNT', P .. 'toks:', '[' .. token, '[' .. token .. '\255')
    if n > MAX_FILTER_VALUES then error({ err = 'FILTER_TOO_BROAD input prefix ' .. token .. ' matches ' .. n .. ' values' }) end
    local expansions = redis.call('ZRANGEBYLEX', P .. 'toks:', '[' .. token, '[' .. token .. '\255')
    local parts = {}
    for i, t in ipairs(expansions) do parts[i] = leaf(P .. 'tok:' .. t) end
    set = union(parts, 'MIN')
  elseif redis.call('EXISTS', P .. 'tok:' .. token) == 1 then
    set = leaf(P .. 'tok:' .. token)
  end
  if not set then nothing = true else
    sources[#sources + 1] = set
    weights[#weights + 1] = 1
  end
end

for _, c in ipairs(readCriteria()) do
  local set = criterion(c.field, c.condition, c.negated, c.numeric, c.values)
  if not set then nothing = true else
    sources[#sources + 1] = set
    weights[#weights + 1] = 0
  end
end

local filterSet = readFilter()
if filterSet == false then nothing = true elseif filterSet then
  sources[#sources + 1] = filterSet
  weights[#weights + 1] = 0
end

local nFacets = tonumber(ARGV[pos]); pos = pos + 1
local facetFields = {}
for i = 1, nFacets do facetFields[i] = ARGV[pos + i - 1] end
pos = pos + nFacets
local maxFacetValues = tonumber(ARGV[pos])
local smallResult = tonumber(ARGV[pos + 1])
local docPrefix = ARGV[pos + 2]

local result
if nothing then
  result = false
elseif #sources == 0 then
  result = leaf(live)
elseif #sources == 1 and (sources[1].parts or redis.call('TYPE', sources[1].key).ok == 'zset') then
  -- One word, one criterion or one filter and nothing else: page through its set as it is (a value's posting is a
  -- plain set while it is small, and is then sorted here; a union is a sorted set once stored).
  result = sources[1]
else
  result = intersection(sources, weights)
end

-- A match-all's facets: per field, its most frequent values in the index (fcnt:<field>, kept by the apply script),
-- at most maxFacetValues, as {original, count, ...} (originals from valo:<field>).
local function matchAllFacets()
  local out = {}
  for _, field in ipairs(facetFields) do
    local list = redis.call('ZREVRANGE', P .. 'fcnt:' .. field, 0, maxFacetValues - 1, 'WITHSCORES')
    local buckets = {}
    if #list > 0 then
      local lowers = {}
      for i = 1, #list, 2 do lowers[#lowers + 1] = list[i] end
      local originals = redis.call('HMGET', P .. 'valo:' .. field, unpack(lowers))
      for i, lower in ipairs(lowers) do
        local n = tonumber(list[2 * i])
        if n > 0 then
          buckets[#buckets + 1] = originals[i] or lower
          buckets[#buckets + 1] = n
        end
      end
    end
    out[#out + 1] = field
    out[#out + 1] = buckets
  end
  return out
end

-- About the bytes a document's entry in docs: takes to read (`<number>|<facet line>`): reading N/8 bytes of bitmap
-- costs about what reading the entries of N/8/ENTRY_BYTES documents does.
local ENTRY_BYTES = 48

-- Whether `result` is a union of a few word postings (a prefix's expansions: aggregate MIN, each part a sorted set)
-- not stored yet, whose first n members cost fewer visits merged from its parts than storing it would.
local function mergeable(result, n)
  if not (result.parts and result.few and result.aggregate == 'MIN' and not result:stored()) then return false end
  local size = 0
  for _, part in ipairs(result.parts) do size = size + redis.call('ZCARD', part.key) end
  return #result.parts * n + result:cost() < size
end

-- Hits [start, start+count) of such a union, without storing it: each part's first start+count members into one
-- sorted set, a member keeping its best (lowest) score as ZUNIONSTORE's MIN does. Exact: a member among the union's
-- first N is among the first N of the part that gives it its score, as every member before it there is before it
-- in the union too.
local function mergedPage(result, start, count)
  local dest = tmp()
  for _, part in ipairs(result.parts) do
    local list = redis.call('ZRANGE', part.key, 0, start + count - 1, 'WITHSCORES')
    if #list > 0 then
      local args = { 'ZADD', dest, 'LT' }
      for i = 1, #list, 2 do
        args[#args + 1] = list[i + 1]
        args[#args + 1] = list[i]
      end
      redis.call(unpack(args))
    end
  end
  return redis.call('ZRANGE', expiring(dest), start, start + count - 1, 'WITHSCORES')
end

local total, urns, facets, bitmap, numbers, documents = 0, {}, {}, '', {}, {}
if result then
  local start, count = tonumber(ARGV[3]), tonumber(ARGV[4])
  if mergeable(result, start + count) then
    -- Its total from its bitmap (the OR of its parts' bitmaps, which facets read too).
    total = redis.call('BITCOUNT', result:bitmap())
    if count > 0 then urns = mergedPage(result, start, count) end
  else
    total = redis.call('ZCARD', result.key)
    if count > 0 then urns = redis.call('ZRANGE', result.key, start, start + count - 1, 'WITHSCORES') end
  end
  if #facetFields > 0 and total > 0 then
    if not result.parts and result.key == live then facets = matchAllFacets()
    elseif total <= result:cost() or (total <= smallResult and total * ENTRY_BYTES <= redis.call('STRLEN', P .. 'lb:')) then
      -- Reading its documents' numbers visits `total` members and reads their entries; its bitmap visits `cost`
      -- members (0 when it only combines the bitmaps postings keep, every member when it is built from members,
      -- e.g. a union of many values) and reads N/8 bytes, as many as the live bitmap has. On one server of 100,000
      -- documents that is 12.5 KB, so up to smallResult matches are cheaper as numbers; in one of 16 shards, 780
      -- bytes: 16.
      numbers = result.numbers and result:numbers() or numbersOf(redis.call('ZRANGE', result.key, 0, -1))
    else
      bitmap = redis.call('GET', result:bitmap()) or ''
    end
  end
  if docPrefix ~= '' then
    for i = 1, #urns, 2 do documents[#documents + 1] = redis.call('HGET', docPrefix .. urns[i], 'd') end
  end
end

cleanup()
return { total, urns, facets, bitmap, numbers, documents }
