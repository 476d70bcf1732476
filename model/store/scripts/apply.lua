--[[
  Applies one entity's change atomically, guarded by a compare-and-set on the entity's write counter. Every key it
  touches is in KEYS, and all of them carry the entity's shard hash tag (one cluster slot).

  KEYS[1]  the entity's meta hash (fields: rev, job, v:<aspect>)
  KEYS[2..] every key the ops name (model/store/ops.ts encodeOps)
  ARGV[1]  the rev the change was computed from ("0" when the entity had none)
  ARGV[2]  id of this apply, `<job id>#<n>` (the job's n-th apply to this entity), or "" for no idempotency
           check. An apply is a retry, and does nothing, when the entity's last apply was of the same job with
           the same or a later n.
  ARGV[3]  the ops, one MessagePack array of strings (model/store/ops.ts encodeOps): their number, then each op as:
           command, argument count, key mask (`k` where the argument is a key, given as its index into KEYS; `v` for
           a value), arguments...
           Commands are Redis write commands (whitelisted below) or the idempotent link ops that keep a posting
           (a set or sorted set of urns) and its lexicon (a sorted set of posting names) in step:
             LINK    set member lexicon name [hash value]  SADD set member; if the set just got its first member,
                                                           ZADD lexicon 0 name (and HSET hash name value)
             UNLINK  set member lexicon name [hash]        SREM set member; if the set is now empty, ZREM lexicon
                                                           name (and HDEL hash name)
             ZLINK   zset score member lexicon name [hash value]  ZADD zset score member; on its first member,
                                                           ZADD lexicon 0 name (and HSET hash name value)
             ZUNLINK zset member lexicon name [hash]       ZREM zset member; if the zset is now empty, ZREM
                                                           lexicon name (and HDEL hash name)
             KLINK   posting member lexicon name [hash value]  as LINK, for a posting that is a set while small
                                                           and a sorted set (score 0, urn order) from
                                                           KEYED_POSTING members on
             KUNLINK posting member lexicon name [hash]    as UNLINK, for such a posting (a set or a sorted set)
           The native search engine's document numbers and bitmaps (model/search/native/documentOps.ts):
             DOC     docs next free bitmap urn line log origin maxlen
                                                           gives urn a document number (its own, else one from
                                                           the free set, else INCR next), HSET docs urn
                                                           `<number>|<line>`, SETBIT bitmap number 1; when that
                                                           changed the number's line, logs {n number, l line}
             UNDOC   docs free bitmap words urn log origin maxlen   SETBIT bitmap number 0, HDEL docs urn, HDEL
                                                           words number, SADD free number; logs {n number}
             POST    posting urn docs bitmap threshold bit  keeps `bitmap` (bit = document number) equal to the
                                                           posting (a set or a sorted set) once it has
                                                           `threshold` members: built whole
                                                           when it first gets there, then urn's bit set to `bit`
                                                           (1 after a ZLINK of urn, 0 after a ZUNLINK); dropped
                                                           when the set empties
             TALLY   posting target member                 ZADD target <size of posting> member; ZREM target
                                                           member when the posting is empty
             LEXLOG  log origin field value maxlen         when the op just before it added value to a lexicon
                                                           (KLINK: the posting's first member; ZADD: a new
                                                           member) or removed it (KUNLINK: the posting emptied;
                                                           ZREM), logs {f field, v value, p 1|0}
             PAIRLOG log origin docs field value urn present maxlen changed original  logs {f field, v value,
                                                           u urn, d urn's document number (from docs), p present,
                                                           o original when not ''}: urn's document has (1), written
                                                           `original` when that is not `value`, or no longer has
                                                           (0) value in a paired field (one without postings); only
                                                           when `changed` is 1 (the document had another value or
                                                           spelling) or this run gave the document its number (a
                                                           restated document whose pairs stand logs nothing)
             WORDLOG log origin docs hash urn words maxlen  HSET hash <urn's document number (from docs)>
                                                           `urn \0 words` (HDEL when words is ''), and logs {u urn,
                                                           d number, w words}: the document's words and their
                                                           scores now; nothing when the hash holds them already
             IDLINK  ids member                            when the op just before it added its value to a
                                                           lexicon (KLINK) ZADD ids 0 member, when it removed it
                                                           (KUNLINK) ZREM ids member; what that op did stays for
                                                           the op after it (LEXLOG) to read
           The redisearch engine's string lexicons (model/search/redisearch/companions.ts):
             VCOUNT  counts lexicon value delta            HINCRBY counts value delta; at 0 or below HDEL counts
                                                           value and ZREM lexicon value; when it is now delta
                                                           (the value's first document) ZADD lexicon 0 value
           To log is to add a record (<fields>) to the run's entry for that log: once the ops are done (or before a
           DEL op names the log), each log gets one entry, XADD log MAXLEN ~ maxlen * <fields> when it holds one
           record, `+ '' <fields> + '' <fields> ...` when several, and SET origin <entry id> when that entry began
           the log (the index's change log, read by native/indexMirror.ts). One XADD per apply rather than one per
           change: a new dataset logs 7 changes.
           Running the same ops twice leaves the same state (every op sets what it derives from the state it
           reads), VCOUNT excepted: it moves a count, and is safe because an apply runs once (ARGV[2] above);
           restating a document (remove, then add: restore indices) re-lists a posting that lost its lexicon
           entry once the document is its only member.

  Returns  {1, newRev}  applied
           {0, rev}     this job was already applied to this entity (a retry): nothing done
           {-1, rev}    the entity changed since it was read: nothing done, recompute and retry
]]
local meta = KEYS[1]
local state = redis.call('HMGET', meta, 'rev', 'job')
local rev = state[1] or '0'
if rev ~= ARGV[1] then return {-1, rev} end
if ARGV[2] ~= '' then
  local last = state[2]
  if last then
    local lastJob, lastN = string.match(last, '^(.*)#(%d+)$')
    local job, n = string.match(ARGV[2], '^(.*)#(%d+)$')
    if lastJob and job and lastJob == job and tonumber(lastN) >= tonumber(n) then return {0, rev} end
  end
end

local allowed = {
  HSET = true, HDEL = true, DEL = true, SADD = true, SREM = true, ZADD = true, ZREM = true, ZINCRBY = true,
  ZREMRANGEBYSCORE = true, XADD = true, HINCRBY = true, EXPIRE = true,
}
-- A document's number, from the docs hash (`<number>|<line>`), or nil; remembered for this run with the entry it
-- came from (an entity's ops ask for its own number once per posting, and DOC for its entry).
local numbers = {}
local entries = {}
-- Documents given a number by this run (`docs \0 urn` -> true): the copies learn their pairs anew.
local numbered = {}
local function docNumber(docs, urn)
  local key = docs .. '\0' .. urn
  if numbers[key] == nil then
    local v = redis.call('HGET', docs, urn)
    numbers[key] = v and tonumber(string.match(v, '^(%d+)')) or false
    entries[key] = v or false
  end
  return numbers[key] or nil
end

-- Members at which a KLINK posting turns from a set into a sorted set: small ones stay compact sets (a sorted set
-- of urns longer than zset-max-listpack-value costs a skiplist even for one member), large ones can be paged.
local KEYED_POSTING = 64

-- The size and the type of postings (sets or sorted sets) as this run last saw or changed them: an entity's ops
-- ask for one posting's size up to three times in a row (a link, its bitmap, its tally). Any other op that writes a
-- key forgets it.
local known = {}

-- The size and the type of a posting that is a set or a sorted set.
local function posting(key)
  local k = known[key]
  if k then return k[1], k[2] end
  local kind = redis.call('TYPE', key).ok
  local size = 0
  if kind == 'zset' then size = redis.call('ZCARD', key) elseif kind == 'set' then size = redis.call('SCARD', key) end
  known[key] = { size, kind }
  return size, kind
end

-- Sets the bit of every member of a posting in a new bitmap (the posting reached its threshold).
local function buildBitmap(key, docs, bitmap)
  local _, kind = posting(key)
  local members = kind == 'zset' and redis.call('ZRANGE', key, 0, -1) or redis.call('SMEMBERS', key)
  for c = 1, #members, 500 do
    local chunk = {}
    for j = c, math.min(c + 499, #members) do chunk[#chunk + 1] = members[j] end
    local values = redis.call('HMGET', docs, unpack(chunk))
    for _, v in ipairs(values) do
      if v then redis.call('SETBIT', bitmap, tonumber(string.match(v, '^(%d+)')), 1) end
    end
  end
end

-- The records this run logs, by log (see "To log" above), in the order the logs were first named: each log is
-- written once, when the ops are done (flushLog).
local pending = {}
local pendingLogs = {}
local function logChange(log, origin, maxlen, ...)
  local p = pending[log]
  if not p then
    p = { origin = origin, maxlen = maxlen, records = {} }
    pending[log] = p
    pendingLogs[#pendingLogs + 1] = log
  end
  p.records[#p.records + 1] = { ... }
end

-- Writes a log's records as one entry (its only record's fields, or each record after a `+` field).
local function flushLog(log)
  local p = pending[log]
  if not p then return end
  pending[log] = nil
  local fields = p.records[1]
  if #p.records > 1 then
    fields = {}
    for _, record in ipairs(p.records) do
      fields[#fields + 1] = '+'
      fields[#fields + 1] = ''
      for _, v in ipairs(record) do fields[#fields + 1] = v end
    end
  end
  local begun = redis.call('EXISTS', log) == 0
  local id = redis.call('XADD', log, 'MAXLEN', '~', p.maxlen, '*', unpack(fields))
  if begun then redis.call('SET', p.origin, id) end
end

local A = cmsgpack.unpack(ARGV[3])
local i = 2
-- One table holds each op's arguments in turn (entries past the op's argc are stale): a new table per op cost about
-- a tenth of a new dataset's apply (60 ops).
local a = {}
local byte = string.byte
-- Whether a key mask names only the first argument a key (`kv...v`, most plain commands: HSET, ZADD, XADD ...), by
-- mask (masks are few): such a command gets its arguments as they came, with no copy, and the key looked up once.
local firstKeyOnly = {}
local n = tonumber(A[1])
-- What the previous op did to a lexicon: '1' added its value, '0' removed it, nil neither (LEXLOG reads it).
local lexiconChange, thisChange
-- What a plain command's reply says it did to a lexicon (a ZADD that added, a ZREM that removed: LEXLOG after it).
local function lexiconChangeOf(cmd, reply)
  if reply ~= 1 then return nil end
  if cmd == 'ZADD' then return '1' elseif cmd == 'ZREM' then return '0' end
end
for _ = 1, n do
  lexiconChange, thisChange = thisChange, nil
  local cmd = A[i]
  local argc = tonumber(A[i + 1])
  local mask = A[i + 2]
  local plain = firstKeyOnly[mask]
  if plain == nil then
    plain = byte(mask, 1) == 107 and not string.find(mask, 'k', 2, true)
    firstKeyOnly[mask] = plain
  end
  if plain and allowed[cmd] and cmd ~= 'DEL' then
    -- A plain command on one key: a third of an apply's ops, and most of its arguments (aspects, change log entries).
    local key = KEYS[tonumber(A[i + 3])]
    known[key] = nil
    local reply = redis.call(cmd, key, unpack(A, i + 4, i + 2 + argc))
    thisChange = lexiconChangeOf(cmd, reply)
  else
    for j = 1, argc do
      local arg = A[i + 2 + j]
      if byte(mask, j) == 107 then arg = KEYS[tonumber(arg)] end -- 'k'
      a[j] = arg
    end
    -- Plain commands first (DEL, and any naming a key past its first argument): each test of the chain below costs
    -- one comparison.
    if allowed[cmd] then
      if cmd == 'DEL' then for j = 1, argc do known[a[j]] = nil; flushLog(a[j]) end else known[a[1]] = nil end
      local reply = redis.call(cmd, unpack(a, 1, argc))
      thisChange = lexiconChangeOf(cmd, reply)
    elseif cmd == 'LINK' then
      known[a[1]] = nil
      if redis.call('SADD', a[1], a[2]) == 1 and redis.call('SCARD', a[1]) == 1 then
        redis.call('ZADD', a[3], 0, a[4])
        if argc > 4 then redis.call('HSET', a[5], a[4], a[6]) end
      end
    elseif cmd == 'UNLINK' then
      known[a[1]] = nil
      redis.call('SREM', a[1], a[2])
      if redis.call('SCARD', a[1]) == 0 then
        redis.call('ZREM', a[3], a[4])
        if argc > 4 then redis.call('HDEL', a[5], a[4]) end
      end
    elseif cmd == 'ZLINK' then
      local added = redis.call('ZADD', a[1], a[2], a[3])
      local size = redis.call('ZCARD', a[1])
      known[a[1]] = { size, 'zset' }
      if added == 1 and size == 1 then
        redis.call('ZADD', a[4], 0, a[5])
        if argc > 5 then redis.call('HSET', a[6], a[5], a[7]) end
      end
    elseif cmd == 'ZUNLINK' then
      redis.call('ZREM', a[1], a[2])
      local size = redis.call('ZCARD', a[1])
      known[a[1]] = { size, size > 0 and 'zset' or 'none' }
      if size == 0 then
        redis.call('ZREM', a[3], a[4])
        if argc > 4 then redis.call('HDEL', a[5], a[4]) end
      end
    elseif cmd == 'KLINK' then
      local size, kind = posting(a[1])
      local added
      if kind == 'zset' then added = redis.call('ZADD', a[1], 0, a[2])
      else
        added = redis.call('SADD', a[1], a[2])
        kind = 'set'
        if added == 1 and size + 1 >= KEYED_POSTING then
          kind = 'zset'
          local members = redis.call('SMEMBERS', a[1])
          redis.call('DEL', a[1])
          for c = 1, #members, 500 do
            local args = { 'ZADD', a[1] }
            for j = c, math.min(c + 499, #members) do args[#args + 1] = 0; args[#args + 1] = members[j] end
            redis.call(unpack(args))
          end
        end
      end
      known[a[1]] = { size + added, kind }
      if added == 1 and size == 0 then
        -- Logged even when the lexicon had it (a restated posting): the spelling in the hash may be new.
        redis.call('ZADD', a[3], 0, a[4])
        if argc > 4 then redis.call('HSET', a[5], a[4], a[6]) end
        thisChange = '1'
      end
    elseif cmd == 'KUNLINK' then
      local size, kind = posting(a[1])
      local removed = 0
      if kind == 'zset' then removed = redis.call('ZREM', a[1], a[2])
      elseif kind == 'set' then removed = redis.call('SREM', a[1], a[2]) end
      size = size - removed
      known[a[1]] = { size, size > 0 and kind or 'none' }
      if size == 0 then
        if redis.call('ZREM', a[3], a[4]) == 1 then thisChange = '0' end
        if argc > 4 then redis.call('HDEL', a[5], a[4]) end
      end
    elseif cmd == 'IDLINK' then
      if lexiconChange == '1' then redis.call('ZADD', a[1], 0, a[2])
      elseif lexiconChange == '0' then redis.call('ZREM', a[1], a[2]) end
      thisChange = lexiconChange
    elseif cmd == 'LEXLOG' then
      if lexiconChange then logChange(a[1], a[2], a[5], 'f', a[3], 'v', a[4], 'p', lexiconChange) end
    elseif cmd == 'PAIRLOG' then
      if a[9] == '1' or numbered[a[3] .. '\0' .. a[6]] then
        local entry = { 'f', a[4], 'v', a[5], 'u', a[6], 'd', docNumber(a[3], a[6]) or '', 'p', a[7] }
        if a[10] ~= '' then entry[11], entry[12] = 'o', a[10] end
        logChange(a[1], a[2], a[8], unpack(entry))
      end
    elseif cmd == 'WORDLOG' then
      local number = docNumber(a[3], a[5])
      local held = false
      if a[6] ~= '' then held = a[5] .. '\0' .. a[6] end
      if not number or numbered[a[3] .. '\0' .. a[5]] or (redis.call('HGET', a[4], number) or false) ~= held then
        if number then
          if held then redis.call('HSET', a[4], number, held) else redis.call('HDEL', a[4], number) end
        end
        logChange(a[1], a[2], a[7], 'u', a[5], 'd', number or '', 'w', a[6])
      end
    elseif cmd == 'DOC' then
      local number = docNumber(a[1], a[5])
      local id = a[1] .. '\0' .. a[5]
      if not number then
        number = tonumber(redis.call('SPOP', a[3]) or redis.call('INCR', a[2]))
        numbers[id] = number
        numbered[id] = true
      end
      local entry = number .. '|' .. a[6]
      if entries[id] ~= entry then
        redis.call('HSET', a[1], a[5], entry)
        entries[id] = entry
        logChange(a[7], a[8], a[9], 'n', number, 'l', a[6])
      end
      redis.call('SETBIT', a[4], number, 1)
    elseif cmd == 'UNDOC' then
      local number = docNumber(a[1], a[5])
      if number then
        redis.call('SETBIT', a[3], number, 0)
        redis.call('HDEL', a[1], a[5])
        redis.call('HDEL', a[4], number)
        redis.call('SADD', a[2], number)
        numbers[a[1] .. '\0' .. a[5]] = false
        entries[a[1] .. '\0' .. a[5]] = false
        logChange(a[6], a[7], a[8], 'n', number)
      end
    elseif cmd == 'POST' then
      local size = posting(a[1])
      if size == 0 then redis.call('DEL', a[4]) else
        local number = docNumber(a[3], a[2])
        if redis.call('EXISTS', a[4]) == 1 then
          if number then redis.call('SETBIT', a[4], number, tonumber(a[6])) end
        elseif size >= tonumber(a[5]) then
          buildBitmap(a[1], a[3], a[4])
        end
      end
    elseif cmd == 'TALLY' then
      local size = posting(a[1])
      if size == 0 then redis.call('ZREM', a[2], a[3]) else redis.call('ZADD', a[2], size, a[3]) end
    elseif cmd == 'VCOUNT' then
      local delta = tonumber(a[4])
      local count = redis.call('HINCRBY', a[1], a[3], delta)
      if count <= 0 then
        redis.call('HDEL', a[1], a[3])
        redis.call('ZREM', a[2], a[3])
      elseif count == delta then
        redis.call('ZADD', a[2], 0, a[3])
      end
    else
      return redis.error_reply('apply: command not allowed: ' .. tostring(cmd))
    end
  end
  i = i + 3 + argc
end

for _, log in ipairs(pendingLogs) do flushLog(log) end

local newRev = tostring(tonumber(rev) + 1)
redis.call('HSET', meta, 'rev', newRev, 'job', ARGV[2])
return {1, newRev}
