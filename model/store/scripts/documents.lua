--[[
  Reads the stored search documents of a page of results, all in one shard: one call instead of a command per
  document (each command costs the caller more CPU than the read costs Redis).

  KEYS     the documents' hashes (`doc:<type>:<urn>` of one shard)
  Returns  each hash's `d` (field -> values, as JSON), or false where the hash has none
]]
local out = {}
for i, key in ipairs(KEYS) do
  out[i] = redis.call('HGET', key, 'd')
end
return out
