/** `queues`: job counts of every partition's write queue (waiting, active, completed, failed, delayed). */
import { queueName } from '../../model/jobs.ts'
import { openQueue } from '../../model/services/writeQueues.ts'
import { parse } from './args.ts'
import { withRedis } from './redis.ts'

export const usage = 'queues'

const STATES = ['waiting', 'active', 'completed', 'failed', 'delayed'] as const

/** The counts as an aligned table, one row per partition; pure. */
export function formatQueues(counts: { partition: number; queue: string; counts: Record<string, number> }[]): string {
  const rows = [['PARTITION', 'QUEUE', ...STATES.map((s) => s.toUpperCase())],
    ...counts.map((c) => [String(c.partition), c.queue, ...STATES.map((s) => String(c.counts[s] ?? 0))])]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n'
}

/** Runs the command; answers the exit code. */
export async function run(argv: string[]): Promise<number> {
  parse(argv, {}, { min: 0, max: 0 })
  return withRedis(async (redis, keys, config) => {
    const rows = []
    for (let p = 0; p < config.partitions; p++) {
      const queue = openQueue(redis, keys, p)
      try {
        rows.push({ partition: p, queue: queueName(p), counts: await queue.getJobCounts(...STATES) })
      } finally {
        await queue.close()
      }
    }
    process.stdout.write(formatQueues(rows))
    return 0
  })
}
