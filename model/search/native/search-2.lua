--[[
  Native search over one entity type's index in one shard (layout in documentOps.ts), in one atomic step.

  KEYS[1]  the live set of the type in the shard (`P .. 'live:'`). The postings, lexicons and temporary keys the
           query reaches are named from ARGV[1] and ARGV[2], which carry the same shard hash tag: every key is in
           KEYS[1]'s slot (which postings a query reads is only known inside the script).
  ARGV     1 index prefix P (`<prefix>{<shard tag>}:ix:<type>:`)
           2 prefix for temporary keys (unique per call, in the shard; deleted before returning)
           3 start, 4 count, 5 most values a string condition may match (more: FILTER_TOO_BROAD)
           6 '1' when the result's documents are wanted instead of a page and facets (a query of words and
             other criteria: the caller matches the words on its copy, engine.ts), else '0'
           then a criteria list of required criteria (AND), then the filter: group count, then per group a
           criteria list (groups are OR-ed). A criteria list is: count, then per criterion:
             field, condition, negated ('1'/'0'), numeric ('1'/'0'), value count, values (lower-cased)...
           then facet count, facet fields..., then the most values a facet reports, then the largest result whose
           documents' numbers are listed (larger ones: their bitmap), then the key prefix of the type's stored
           documents in the shard ('' for none: the page's documents are not returned)
  Returns  {total, {urn, urn...}, {field, {value, count, ...}, field, {...}, ...}, bitmap, numbers, documents}
           Hits [start, start+count), in urn order (words are not matched here). Facets of a match-all, from the
           index's counts: values in original spellings, each facet reporting (at most maxFacetValues of) the
           field's most frequent values. Any other result's facets are counted by the caller (indexMirror.ts),
           from its documents' numbers: a result of at most smallResult urns lists them (`numbers`) when their
           entries are fewer bytes than the shard's bitmaps (16 documents in a shard of 6,250, 260 in one of
           100,000), and so does one whose bitmap would be built from at least as many members as it has (a union
           of many values); any other answers its bitmap's bytes (`bitmap`: N/8 bytes, one read of a posting's own
           bitmap or of the combination). The unused ones are '' and {}. `documents`: each hit's stored document
           (field `d` of `<prefix><urn>`, false when it has none) when a prefix was given, so that the caller needs
           no other read to show the page.
           With documents wanted, no page and no facets: the result's documents as `numbers` or `bitmap`, chosen
           as for facets (a match-all: the live bitmap).
  Cost     bounded by the page and the facet values shown, not by the number of matches: paging is ZRANGE on a
           posting (a query of one value or one filter) or on the intersection of the query's sets (as large as its
           smallest set); facets read the kept counts, the result's document numbers (at most smallResult and fewer
           than the bitmap's bytes allow, or fewer than building its bitmap would visit), or one bitmap (the bitmap
           of a combination of sets is one BITOP of N/8 bytes per set).
]]
local P = ARGV[1]
local TMP = ARGV[2]
local live = KEYS[1]
local pos = 6
-- @include filter.lua

-- Sources of the final intersection (each set scores 0: the result is in urn order). Postings and filter sets only
-- ever list live entities, so the live set is needed only when nothing else narrows the result.
local sources = {}
local nothing = false
local documentsWanted = ARGV[pos] == '1'
pos = pos + 1

for _, c in ipairs(readCriteria()) do
  local set = criterion(c.field, c.condition, c.negated, c.numeric, c.values)
  if not set then nothing = true else sources[#sources + 1] = set end
end

local filterSet = readFilter()
if filterSet == false then nothing = true elseif filterSet then sources[#sources + 1] = filterSet end

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
  -- One criterion or one filter and nothing else: page through its set as it is (a value's posting is a plain set
  -- while it is small, and is then sorted here; a union is a sorted set once stored).
  result = sources[1]
else
  -- Stored even when it is one set (a small posting is a plain set, which pages in no order).
  result = intersection(sources, {})
end

-- A small hash (up to hash-max-listpack-entries, 512 by default) is one listpack, which HMGET scans once per field
-- asked: the 200 most frequent of 200 owners took ~500 us, where HGETALL reads them all in ~15 us. So the originals
-- of more than a few values of a hash that small are read whole and looked up here; a larger hash (a hash table)
-- answers HMGET in O(1) per field, and is never read whole.
local SMALL_HASH = 512
local function originalsOf(key, lowers)
  if #lowers <= 8 or redis.call('HLEN', key) > SMALL_HASH then return redis.call('HMGET', key, unpack(lowers)) end
  local all = redis.call('HGETALL', key)
  local byLower = {}
  for i = 1, #all, 2 do byLower[all[i]] = all[i + 1] end
  local out = {}
  for i, lower in ipairs(lowers) do out[i] = byLower[lower] or false end
  return out
end

-- The `max` most frequent values of a field (fcnt:<field>, kept by the apply script) as {lower, count, ...}: count
-- descending, then value ascending (the sorted set lists ties in reverse, so the ties at the limit are asked again
-- in ascending order, at most `max` of them).
local function mostFrequent(key, max)
  local list = redis.call('ZREVRANGE', key, 0, max - 1, 'WITHSCORES')
  local top = {}
  for i = 1, #list, 2 do top[#top + 1] = { list[i], tonumber(list[i + 1]) } end
  if #top == max then
    local last = top[max][2]
    local above = 0
    for _, v in ipairs(top) do if v[2] > last then above = above + 1 end end
    local ties = redis.call('ZRANGEBYSCORE', key, last, last, 'LIMIT', 0, max - above)
    for i, lower in ipairs(ties) do top[above + i] = { lower, last } end
  end
  table.sort(top, function(a, b) return a[2] > b[2] or (a[2] == b[2] and a[1] < b[1]) end)
  return top
end

-- A match-all's facets: per field, its most frequent values in the index, at most maxFacetValues, as
-- {original, count, ...} (originals from valo:<field>).
local function matchAllFacets()
  local out = {}
  for _, field in ipairs(facetFields) do
    local top = mostFrequent(P .. 'fcnt:' .. field, maxFacetValues)
    local buckets = {}
    if #top > 0 then
      local lowers = {}
      for i, v in ipairs(top) do lowers[i] = v[1] end
      local originals = originalsOf(P .. 'valo:' .. field, lowers)
      for i, v in ipairs(top) do
        if v[2] > 0 then
          buckets[#buckets + 1] = originals[i] or v[1]
          buckets[#buckets + 1] = v[2]
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

-- The documents of a result of `total` members, as {numbers} or a bitmap's bytes, whichever costs less to read.
local function documentsOf(result, total)
  if total <= result:cost() or (total <= smallResult and total * ENTRY_BYTES <= redis.call('STRLEN', P .. 'lb:')) then
    -- Reading its documents' numbers visits `total` members and reads their entries; its bitmap visits `cost`
    -- members (0 when it only combines the bitmaps postings keep, every member when it is built from members,
    -- e.g. a union of many values) and reads N/8 bytes, as many as the live bitmap has. On one server of 100,000
    -- documents that is 12.5 KB, so up to smallResult matches are cheaper as numbers; in one of 16 shards, 780
    -- bytes: 16.
    return result.numbers and result:numbers() or numbersOf(redis.call('ZRANGE', result.key, 0, -1)), ''
  end
  return {}, redis.call('GET', result:bitmap()) or ''
end

local total, urns, facets, bitmap, numbers, documents = 0, {}, {}, '', {}, {}
if result then
  local start, count = tonumber(ARGV[3]), tonumber(ARGV[4])
  total = redis.call('ZCARD', result.key)
  if documentsWanted then
    if total > 0 then numbers, bitmap = documentsOf(result, total) end
  else
    if count > 0 then urns = redis.call('ZRANGE', result.key, start, start + count - 1) end
    if #facetFields > 0 and total > 0 then
      if not result.parts and result.key == live then facets = matchAllFacets() else numbers, bitmap = documentsOf(result, total) end
    end
  end
  if docPrefix ~= '' then
    for _, urn in ipairs(urns) do documents[#documents + 1] = redis.call('HGET', docPrefix .. urn, 'd') end
  end
end

cleanup()
return { total, urns, facets, bitmap, numbers, documents }
