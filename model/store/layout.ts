/**
 * The layout record: which key layout and how many shards a store was written with. Every process checks it at
 * start-up, so a deployment never writes one store with two shard counts, and a store made before sharding is
 * moved (ops/cli/migrate.ts) before anything writes to it.
 */
import { foldRowLists } from './entityListUpgrade.ts'
import { LAYOUT_VERSION, type Keys } from './keys.ts'
import type { RedisClient } from './redis.ts'

/** The single-layout keys an earlier version wrote (catalogue-wide rows and change log). */
export const legacyMarkers = (prefix: string): string[] => [`${prefix}rows`, `${prefix}mcl`]

export class LayoutError extends Error {}

/** Whether the store holds data of the layout before shards (what is left of it, after an interrupted migration). */
export async function hasLegacyData(redis: RedisClient, prefix: string): Promise<boolean> {
  return (await Promise.all(legacyMarkers(prefix).map((k) => redis.exists(k)))).some((n) => n > 0)
}

/** Whether any shard holds a row list of layout 2 (entityListUpgrade.ts). */
async function hasRowList(redis: RedisClient, keys: Keys): Promise<boolean> {
  return (await Promise.all(keys.allShards().map((shard) => redis.exists(keys.rowList(shard))))).some((n) => n > 0)
}

/**
 * Records the layout on a new store, or checks it on an existing one (bringing layout 2 to 3 in place); throws
 * LayoutError with what to do.
 */
export async function ensureLayout(redis: RedisClient, keys: Keys): Promise<void> {
  const recorded = await redis.hgetall(keys.layout())
  if (await hasLegacyData(redis, keys.prefix)) {
    throw new LayoutError(recorded.version === undefined
      ? `the store under KEY_PREFIX "${keys.prefix}" was written by an earlier version (one key layout, no shards): move it first with \`npm run svc -- migrate\``
      : `the store under KEY_PREFIX "${keys.prefix}" is half-way through a migration: finish it with \`npm run svc -- migrate\``)
  }
  if (recorded.version === undefined) {
    await redis.hsetnx(keys.layout(), 'version', String(LAYOUT_VERSION))
    await redis.hsetnx(keys.layout(), 'shards', String(keys.shards))
    return ensureLayout(redis, keys)
  }
  const version = Number(recorded.version)
  if (version !== LAYOUT_VERSION && version !== 2) {
    throw new LayoutError(`the store under KEY_PREFIX "${keys.prefix}" has key layout ${recorded.version}; this version reads layout ${LAYOUT_VERSION}`)
  }
  if (Number(recorded.shards) !== keys.shards) {
    throw new LayoutError(`the store under KEY_PREFIX "${keys.prefix}" is cut into ${recorded.shards} shards but SHARDS is ${keys.shards}: set SHARDS=${recorded.shards} (the shard count is fixed per store)`)
  }
  if (version === 2 || await hasRowList(redis, keys)) {
    const rows = await foldRowLists(redis, keys)
    await redis.hset(keys.layout(), 'version', String(LAYOUT_VERSION))
    process.stderr.write(`the store under KEY_PREFIX "${keys.prefix}" was brought from key layout ${recorded.version} to ${LAYOUT_VERSION}: its row lists (${rows} rows) became entity lists\n`)
  }
}
