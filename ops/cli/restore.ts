/**
 * `restore [--urn U] [--urnLike P] [--aspect A] [--batch-size N] [--rebuild] [--resume]`: restores indices for every
 * matching row, batch after batch (several in flight: model/services/restore.ts restoreFrom): rows are read from
 * Redis directly, and each batch's restate items go through the write queues to the running workers (only workers
 * change what is stored). The cursor (`start` of the next batch, and the last row restored) is saved as batches
 * complete, in order, so an interrupted run continues with `--resume`; `--rebuild` first deletes every index key
 * and ends by sweeping orphaned entries.
 */
import { indexKeyPatterns, restoreFrom, sweepOrphans } from '../../model/services/restore.ts'
import { estimateRows, type RowFilters } from '../../model/services/restoreRows.ts'
import type { Keys } from '../../model/store/keys.ts'
import { scanKeysMatching, type RedisClient } from '../../model/store/redis.ts'
import { parse, positiveInt, UsageError } from './args.ts'
import { formatRate, startProgress } from './progress.ts'
import { withModel } from './redis.ts'
import { withSubmit } from './submit.ts'

export const usage = 'restore [--urn U] [--urnLike P] [--aspect A] [--batch-size N] [--rebuild] [--resume]'

/** What is saved between batches: the next batch's row number and the last row restored (absent in older cursors). */
interface Cursor extends RowFilters { start: number; after?: string; rebuild: boolean }

/** Where the cursor lives; built from the model's key prefix (not a service key, so not in keys.ts). */
export const cursorKey = (keys: Keys): string => `${keys.prefix}ops:restore:cursor`

const sameFilters = (a: RowFilters, b: RowFilters) => a.urn === b.urn && a.urnLike === b.urnLike && a.aspect === b.aspect

/** Deletes every key matching the patterns on every master (one SCAN for all of them, UNLINK); answers how many. */
export async function deleteKeys(redis: RedisClient, patterns: string[]): Promise<number> {
  let deleted = 0
  await scanKeysMatching(redis, patterns, async (keys) => {
    deleted += (await Promise.all(keys.map((key) => redis.unlink(key)))).reduce((a, b) => a + b, 0)
  })
  return deleted
}

/** Runs the command; answers the exit code. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    urn: { type: 'string' }, urnLike: { type: 'string' }, aspect: { type: 'string' }, 'batch-size': { type: 'string' },
    rebuild: { type: 'boolean', default: false }, resume: { type: 'boolean', default: false },
  }, { min: 0, max: 0 })
  const batchSize = positiveInt(values['batch-size'], 'batch-size', 1000)
  const given: RowFilters = { urn: values.urn, urnLike: values.urnLike, aspect: values.aspect }
  const filtered = given.urn !== undefined || given.urnLike !== undefined || given.aspect !== undefined
  if (values.rebuild && filtered) throw new UsageError('--rebuild deletes every index, so it restores every row: it takes no --urn, --urnLike or --aspect')

  return withModel((model) => withSubmit(model, async (submit) => {
    const key = cursorKey(model.keys)
    let filters = given
    let start = 0
    let after: string | undefined
    let rebuild = values.rebuild!
    if (values.resume) {
      const saved = await model.redis.get(key)
      if (!saved) {
        process.stderr.write('restore: no saved cursor, starting at row 0\n')
      } else {
        const cursor = JSON.parse(saved) as Cursor
        if (filtered && !sameFilters(given, cursor)) {
          throw new UsageError(`the saved cursor is for ${JSON.stringify({ urn: cursor.urn, urnLike: cursor.urnLike, aspect: cursor.aspect })}; resume with the same filters or none`)
        }
        filters = { urn: cursor.urn, urnLike: cursor.urnLike, aspect: cursor.aspect }
        start = cursor.start
        after = cursor.after
        rebuild ||= cursor.rebuild
        process.stderr.write(`restore: resuming at row ${start}\n`)
      }
    } else if (rebuild) {
      const deleted = await deleteKeys(model.redis, indexKeyPatterns(model))
      process.stdout.write(`deleted ${deleted} index keys\n`)
    }

    const progress = startProgress('restore', Math.max(0, (await estimateRows(model, filters)) - start))
    let rows = 0
    let scanned = 0
    let entities = 0
    await restoreFrom(model, submit, { ...filters, start, after, batchSize }, async (result) => {
      rows += result.rowsRestored
      entities += result.entitiesRestored
      scanned += result.rowsRestored + result.ignored
      progress.tick(result.rowsRestored + result.ignored)
      if (result.nextStart !== null) await model.redis.set(key, JSON.stringify({ ...filters, start: result.nextStart, after: result.last ?? undefined, rebuild } satisfies Cursor))
    })
    await model.redis.del(key)
    progress.setTotal(scanned)
    progress.done()
    if (rebuild) {
      process.stdout.write(`swept ${await sweepOrphans(model, submit)} orphaned entities\n`)
      await model.engine.markRebuilt?.()
    }
    const seconds = progress.elapsedMs / 1000
    process.stdout.write(`rows restored: ${rows} (${entities} entity restatements) in ${seconds.toFixed(1)}s, ${formatRate(seconds > 0 ? rows / seconds : rows)} rows/s\n`)
    return 0
  }))
}
