--[[
  Writes again the `urn` field (to the same value) of each search document that exists, so that RediSearch,
  which indexes a hash on every write to it, indexes it again. Used after a slot move when the module left some
  moved documents out of the shard's index (placement.ts). A document deleted meanwhile is not recreated: the
  existence check and the write are one atomic step per key.

  KEYS     search documents of one shard (`<shard>doc:<entity type>:<urn>`), all in one slot
  ARGV[i]  the urn of KEYS[i]
  Returns  how many documents were written again
]]
local written = 0
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('HSET', KEYS[i], 'urn', ARGV[i])
    written = written + 1
  end
end
return written
