/**
 * `log [--count N] [--follow]`: the MetadataChangeLog of every shard, merged oldest first, one JSON line per entry
 * (`shard`, `id`, and the entry's fields with `aspect`, `previousAspectValue`, `systemMetadata` and `created`
 * parsed). `--follow` keeps reading what every shard's stream gets next until interrupted.
 */
import { lastChanges, readChanges, type ChangeEntry } from '../../model/services/changeLog.ts'
import { parse, positiveInt } from './args.ts'
import { withRedis } from './redis.ts'

export const usage = 'log [--count N] [--follow]'

const JSON_FIELDS = new Set(['aspect', 'previousAspectValue', 'systemMetadata', 'created'])
const POLL_MS = 250

/** Writes lines and waits until they are handed to the OS (a pipe would lose what is pending at exit). */
const print = (lines: string[]): Promise<void> => lines.length === 0 ? Promise.resolve()
  : new Promise((resolve) => process.stdout.write(lines.map((l) => `${l}\n`).join(''), () => resolve()))

/** One entry as a JSON line; pure. */
export function formatEntry(entry: ChangeEntry): string {
  const fields: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(entry.fields)) {
    try {
      fields[name] = JSON_FIELDS.has(name) ? JSON.parse(value) : value
    } catch {
      fields[name] = value
    }
  }
  return JSON.stringify({ shard: entry.shard, id: entry.id, ...fields })
}

/** Runs the command; answers the exit code. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, { count: { type: 'string' }, follow: { type: 'boolean', default: false } }, { min: 0, max: 0 })
  const count = positiveInt(values.count, 'count', 20)
  return withRedis(async (redis, keys) => {
    const { entries, positions } = await lastChanges(redis, keys, count)
    await print(entries.slice(-count).map(formatEntry))
    if (!values.follow) return 0
    let stopped = false
    process.once('SIGINT', () => { stopped = true })
    process.once('SIGTERM', () => { stopped = true })
    while (!stopped) {
      await print((await readChanges(redis, keys, positions)).map(formatEntry))
      await new Promise((r) => setTimeout(r, POLL_MS))
    }
    return 0
  })
}
