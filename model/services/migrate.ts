/**
 * Moving a store written before shards (layout 1) to the sharded layout, in place on its server: every entity's
 * aspects, versions, meta and timeseries are copied to its shard's keys (DUMP/RESTORE, byte for byte), the row
 * list becomes each shard's entity list, run records and change log are split by shard (change-log entries keep
 * their ids and order), the layout record is written, and then the caller rebuilds the indexes (restore, applied
 * by workers) and removes the old keys. Every step can run again: an interrupted migration is finished by running
 * it again.
 */
import { foldRowList } from '../store/entityListUpgrade.ts'
import { legacyKeys, parseLegacyEntityKey } from '../store/legacyLayout.ts'
import { LAYOUT_VERSION, SEP, type Keys } from '../store/keys.ts'
import { scanKeys, scanKeysMatching, type RedisClient } from '../store/redis.ts'

export interface MigrationCounts {
  entities: number
  keysCopied: number
  rows: number
  changeLogEntries: number
  runs: number
}

/** Old queue keys with jobs still waiting or running: the old service must drain them before a migration. */
export async function legacyBacklog(redis: RedisClient, prefix: string): Promise<string[]> {
  const busy: string[] = []
  await scanKeys(redis, legacyKeys(prefix).queuePattern, async (batch) => {
    for (const key of batch) {
      if (/:(wait|active|paused|prioritized)$/.test(key) && (await redis.type(key)) === 'list' && (await redis.llen(key)) > 0) busy.push(key)
      if (/:(prioritized|delayed)$/.test(key) && (await redis.type(key)) === 'zset' && (await redis.zcard(key)) > 0) busy.push(key)
    }
  })
  return busy
}

/** Copies the old layout's data into the sharded layout and writes the layout record. */
export async function copyLegacyData(redis: RedisClient, keys: Keys): Promise<MigrationCounts> {
  const old = legacyKeys(keys.prefix)
  const counts: MigrationCounts = { entities: 0, keysCopied: 0, rows: 0, changeLogEntries: 0, runs: 0 }
  const entities = new Set<string>()
  await scanKeys(redis, old.entityPattern, async (batch) => {
    for (const key of batch) {
      const parsed = parseLegacyEntityKey(keys.prefix, key)
      if (!parsed || parsed.kind === 'edges') continue // edges are derived: the index rebuild writes them
      const target = parsed.kind === 'latest' ? keys.latest(parsed.urn)
        : parsed.kind === 'meta' ? keys.meta(parsed.urn)
        : parsed.kind === 'history' ? keys.history(parsed.urn, parsed.aspect)
        : parsed.kind === 'timeseries' ? keys.timeseries(parsed.urn, parsed.aspect) : undefined
      if (!target) continue
      const dump = await redis.dumpBuffer(key)
      if (!dump) continue
      await redis.restore(target, 0, dump, 'REPLACE')
      entities.add(parsed.urn)
      counts.keysCopied++
    }
  })
  counts.entities = entities.size
  // The rows' entities, by shard.
  counts.rows = await foldRowList(redis, old.rows, (urn) => keys.entities(keys.shardOf(urn)))
  // Run records, by shard.
  await scanKeys(redis, old.runPattern, async (batch) => {
    for (const key of batch) {
      const runId = key.slice(`${keys.prefix}run:`.length)
      for (const member of await redis.smembers(key)) await redis.sadd(keys.run(keys.shardOf(member.slice(0, member.indexOf(SEP))), runId), member)
      counts.runs++
    }
  })
  // The change log, by shard, keeping each entry's id (ids rise within every shard as they rose in the one log).
  let after = '-'
  for (;;) {
    const entries = await redis.xrange(old.changeLog, after === '-' ? '-' : `(${after}`, '+', 'COUNT', 1000)
    for (const [id, fields] of entries) {
      const urn = fields[fields.indexOf('entityUrn') + 1] ?? ''
      const stream = keys.changeLog(keys.shardOf(urn))
      const last = (await redis.xrevrange(stream, '+', '-', 'COUNT', 1))[0]?.[0]
      if (last === undefined || compareIds(id, last) > 0) await redis.xadd(stream, id, ...fields)
      counts.changeLogEntries++
    }
    if (entries.length < 1000) break
    after = entries[entries.length - 1]![0]
  }
  await redis.hset(keys.layout(), 'version', String(LAYOUT_VERSION), 'shards', String(keys.shards))
  return counts
}

function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number) as [number, number]
  const [bm, bs] = b.split('-').map(Number) as [number, number]
  return am - bm || as - bs
}

/** Removes every old-layout key (after the copy and the index rebuild); answers how many. */
export async function removeLegacyData(redis: RedisClient, prefix: string, entityTypes: readonly string[], searchModule: boolean): Promise<number> {
  const old = legacyKeys(prefix)
  if (searchModule) {
    for (const type of entityTypes) await redis.call('FT.DROPINDEX', old.searchIndex(type)).catch(() => undefined)
  }
  let removed = 0
  const drop = async (batch: string[]) => { for (const key of batch) removed += await redis.unlink(key) }
  await scanKeys(redis, old.entityPattern, async (batch) => drop(batch.filter((k) => parseLegacyEntityKey(prefix, k) !== undefined)))
  await scanKeysMatching(redis, [old.runPattern, old.queuePattern, ...old.indexPatterns], drop)
  // The markers go last: while they exist, the service refuses to start and a rerun finishes the migration.
  for (const key of [old.rows, old.changeLog]) removed += await redis.unlink(key)
  return removed
}
