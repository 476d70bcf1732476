--[[
  Drops one incoming-edge entry that its source no longer backs (restore indices): the source is removed from
  the target's incoming set unless the source's outgoing set still holds the target. Both keys are in the
  source's shard, so the check and the removal are one atomic step, whatever the source's writer does meanwhile.

  KEYS[1]  the incoming set (`in:<relationship>:<target>` in the source's shard)
  KEYS[2]  the source's outgoing set (`out:<relationship>:<source>`)
  ARGV[1]  the source urn, ARGV[2] the target urn
  Returns  1 when the entry was stale and removed, else 0
]]
if redis.call('ZSCORE', KEYS[2], ARGV[2]) then return 0 end
return redis.call('ZREM', KEYS[1], ARGV[1])
