/**
 * `migrate`: moves a store written before shards (one key layout) to the sharded layout, in place, in one go:
 * copies every entity's data to its shard's keys, splits rows, run records and the change log by shard, rebuilds
 * every index through the write path (workers started in this process apply the restate items), then removes the
 * old keys. Run it with the old service stopped (its queues drained) and the new one not yet started; running it
 * again finishes an interrupted migration. The shard count is SHARDS, as the service will be started with.
 */
import { hasSearchModule } from '../../model/store/redis.ts'
import { copyLegacyData, legacyBacklog, removeLegacyData } from '../../model/services/migrate.ts'
import { createLogger } from '../../model/log.ts'
import { restoreAll } from '../../model/services/restore.ts'
import { openModel } from '../../model/services/runtime.ts'
import { hasLegacyData } from '../../model/store/layout.ts'
import { startWorkers } from '../../workers/start.ts'
import { parse, positiveInt } from './args.ts'
import { withRedis } from './redis.ts'
import { withSubmit } from './submit.ts'

export const usage = 'migrate [--batch-size N]'

/** Runs the command; answers the exit code. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, { 'batch-size': { type: 'string' } }, { min: 0, max: 0 })
  const batchSize = positiveInt(values['batch-size'], 'batch-size', 1000)
  return withRedis(async (redis, keys, config) => {
    if (!(await hasLegacyData(redis, keys.prefix))) {
      process.stdout.write(`nothing to migrate: the store under KEY_PREFIX "${keys.prefix}" holds no data of the earlier layout\n`)
      return 0
    }
    const backlog = await legacyBacklog(redis, keys.prefix)
    if (backlog.length > 0) {
      process.stderr.write(`error: the earlier version's write queues still hold jobs (${backlog.slice(0, 3).join(', ')}${backlog.length > 3 ? ', ...' : ''}): let its workers drain them, stop it, then migrate\n`)
      return 1
    }
    const started = Date.now()
    const counts = await copyLegacyData(redis, keys)
    process.stdout.write(`copied ${counts.keysCopied} keys of ${counts.entities} entities into ${keys.shards} shard(s); ${counts.rows} rows, ${counts.runs} runs, ${counts.changeLogEntries} change-log entries\n`)
    const model = await openModel(config, redis, { checkLayout: false })
    const workers = await startWorkers(config, createLogger('silent', 'migrate'), {}, { checkLayout: false })
    try {
      const restored = await withSubmit(model, (submit) => restoreAll(model, submit, batchSize))
      process.stdout.write(`indexes rebuilt from ${restored} rows\n`)
    } finally {
      await workers.close()
      await model.engine.close?.()
    }
    const removed = await removeLegacyData(redis, keys.prefix, model.registry.entities.map((e) => e.name), await hasSearchModule(redis))
    process.stdout.write(`removed ${removed} keys of the earlier layout; done in ${((Date.now() - started) / 1000).toFixed(1)}s\n`)
    return 0
  })
}
