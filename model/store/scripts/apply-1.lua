--[[
  Applies one entity's change atomically, guarded by a compare-and-set on the entity's write counter.

  KEYS[1]  the entity's meta hash (fields: rev, job, v:<aspect>)
  ARGV[1]  the rev the change was computed from ("0" when the entity had none)
  ARGV[2]  id of the job applying it ("" for none: no idempotency check)
  ARGV[3]  number of ops that follow; then each op as: command, argument count, arguments...
           Commands are Redis write commands (whitelisted below) or the idempotent link ops that keep a posting
           (a set or sorted set of urns) and its lexicon (a sorted set of posting names) in step:
             LINK    set member lexicon name [hash value]  SADD set member; if the set just got its first member,
                                                           ZADD lexicon 0 name (and HSET hash name value)
             UNLINK  set member lexicon name [hash]        SREM set member; if the set is now empty, ZREM lexicon
                                                           name (and HDEL hash name)
             ZLINK   zset score member lexicon name        ZADD zset score member; on its first member, ZADD
                                                           lexicon 0 name
             ZUNLINK zset member lexicon name              ZREM zset member; if the zset is now empty, ZREM
                                                           lexicon name
           Running the same ops twice leaves the same state; restating a document (remove, then add: restore
           indices) re-lists a posting that lost its lexicon entry once the document is its only member.

  Returns  {1, newRev}  applied
           {0, rev}     this job was already applied to this entity (a retry): nothing done
           {-1, rev}    the entity changed since it was read: nothing done, recompute and retry
]]
local meta = KEYS[1]
local rev = redis.call('HGET', meta, 'rev') or '0'
if rev ~= ARGV[1] then return {-1, rev} end
if ARGV[2] ~= '' and redis.call('HGET', meta, 'job') == ARGV[2] then return {0, rev} end

local allowed = {
  HSET = true, HDEL = true, DEL = true, SADD = true, SREM = true, ZADD = true, ZREM = true, ZINCRBY = true,
  ZREMRANGEBYSCORE = true, XADD = true, HINCRBY = true, EXPIRE = true,
}
local i = 4
local n = tonumber(ARGV[3])
for _ = 1, n do
  local cmd = ARGV[i]
  local argc = tonumber(ARGV[i + 1])
  local a = i + 2
  if cmd == 'LINK' then
    if redis.call('SADD', ARGV[a], ARGV[a + 1]) == 1 and redis.call('SCARD', ARGV[a]) == 1 then
      redis.call('ZADD', ARGV[a + 2], 0, ARGV[a + 3])
      if argc > 4 then redis.call('HSET', ARGV[a + 4], ARGV[a + 3], ARGV[a + 5]) end
    end
  elseif cmd == 'UNLINK' then
    redis.call('SREM', ARGV[a], ARGV[a + 1])
    if redis.call('SCARD', ARGV[a]) == 0 then
      redis.call('ZREM', ARGV[a + 2], ARGV[a + 3])
      if argc > 4 then redis.call('HDEL', ARGV[a + 4], ARGV[a + 3]) end
    end
  elseif cmd == 'ZLINK' then
    if redis.call('ZADD', ARGV[a], ARGV[a + 1], ARGV[a + 2]) == 1 and redis.call('ZCARD', ARGV[a]) == 1 then
      redis.call('ZADD', ARGV[a + 3], 0, ARGV[a + 4])
    end
  elseif cmd == 'ZUNLINK' then
    redis.call('ZREM', ARGV[a], ARGV[a + 1])
    if redis.call('ZCARD', ARGV[a]) == 0 then redis.call('ZREM', ARGV[a + 2], ARGV[a + 3]) end
  elseif allowed[cmd] then
    redis.call(cmd, unpack(ARGV, a, a + argc - 1))
  else
    return redis.error_reply('apply: command not allowed: ' .. tostring(cmd))
  end
  i = a + argc
end

local newRev = tostring(tonumber(rev) + 1)
redis.call('HSET', meta, 'rev', newRev, 'job', ARGV[2])
return {1, newRev}
