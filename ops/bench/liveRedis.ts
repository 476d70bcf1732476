/**
 * What the live scenario asks Redis itself, on every node: the slow log (commands over a threshold, counted and
 * the slowest named, Lua scripts by their file), used memory, and the bytes the write queue's keys hold.
 */
import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Redis } from 'ioredis'
import { LuaScript } from '../../model/store/script.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * sha1 -> name of every Lua script that may run: repository path of those under model/ (as LuaScript loads them,
 * includes expanded), `bullmq:<command>` for the queue's.
 */
function scriptNames(): Map<string, string> {
  const names = new Map<string, string>()
  try {
    const require = createRequire(import.meta.url)
    const bullmq = join(require.resolve('bullmq'), '..', 'scripts', 'index.js')
    for (const command of Object.values(require(bullmq) as Record<string, { name?: string; content?: string }>)) {
      if (command?.content) names.set(createHash('sha1').update(command.content).digest('hex'), `bullmq:${command.name}`)
    }
  } catch { /* another BullMQ layout: its scripts keep their sha */ }
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name)
      if (e.isDirectory()) walk(path)
      else if (e.name.endsWith('.lua')) {
        try {
          names.set(new LuaScript(pathToFileURL(path).href, `./${e.name}`).sha, relative(ROOT, path))
        } catch { /* an include-only fragment */ }
      }
    }
  }
  walk(join(ROOT, 'model'))
  return names
}

/** Logs every command slower than `micros` from now on (the log cleared, long enough to keep them all). */
export async function startSlowLog(nodes: readonly Redis[], micros: number): Promise<void> {
  for (const n of nodes) {
    await n.call('CONFIG', 'SET', 'slowlog-log-slower-than', String(micros))
    await n.call('CONFIG', 'SET', 'slowlog-max-len', '100000')
    await n.call('SLOWLOG', 'RESET')
  }
}

/**
 * Records the servers' own stalls of `ms` or more outside any command's time (Redis's latency monitor: a fork, a
 * write or fsync of the append-only file, expiring keys), from now on.
 */
export async function startLatencyMonitor(nodes: readonly Redis[], ms: number): Promise<void> {
  for (const n of nodes) {
    await n.call('CONFIG', 'SET', 'latency-monitor-threshold', String(ms))
    await n.call('LATENCY', 'RESET')
  }
}

/** A kind of stall the latency monitor saw: in how many seconds (all nodes), and the longest. */
export interface Stall { event: string; seconds: number; maxMs: number }

/** What the latency monitor recorded since startLatencyMonitor, by event, all nodes summed. */
export async function readLatencyEvents(nodes: readonly Redis[]): Promise<Stall[]> {
  const byEvent = new Map<string, Stall>()
  for (const n of nodes) {
    for (const [event] of (await n.call('LATENCY', 'LATEST')) as [string, number, number, number][]) {
      const history = (await n.call('LATENCY', 'HISTORY', event)) as [number, number][]
      const stall = byEvent.get(event) ?? { event, seconds: 0, maxMs: 0 }
      stall.seconds += history.length
      stall.maxMs = Math.max(stall.maxMs, ...history.map(([, ms]) => ms))
      byEvent.set(event, stall)
    }
  }
  return [...byEvent.values()].sort((a, b) => b.maxMs - a.maxMs)
}

export interface SlowCommand { node: number; ms: number; command: string }
export interface SlowLog { count: number; byCommand: Record<string, number>; slowest: SlowCommand[]; longestMs: number }

/** What the slow log of every node holds: the count, the count per command, the `top` slowest. */
export async function readSlowLog(nodes: readonly Redis[], top = 8): Promise<SlowLog> {
  const scripts = scriptNames()
  const all: SlowCommand[] = []
  let count = 0
  for (const [k, n] of nodes.entries()) {
    count += Number(await n.call('SLOWLOG', 'LEN'))
    const entries = (await n.call('SLOWLOG', 'GET', '-1')) as [number, number, number, string[]][]
    for (const e of entries) all.push({ node: k, ms: e[2] / 1000, command: describe(e[3], scripts) })
  }
  const byCommand: Record<string, number> = {}
  for (const c of all) {
    const name = c.command.split(' ').slice(0, /^(EVALSHA|FCALL)$/i.test(c.command.split(' ')[0]!) ? 2 : 1).join(' ')
    byCommand[name] = (byCommand[name] ?? 0) + 1
  }
  const slowest = all.sort((a, b) => b.ms - a.ms).slice(0, top)
  return { count, byCommand, slowest, longestMs: slowest[0]?.ms ?? 0 }
}

/** A slow-log entry's command: its name, a script's file (or sha), and its first arguments, shortened. */
function describe(args: string[], scripts: Map<string, string>): string {
  const name = String(args[0] ?? '?').toUpperCase()
  // A script: its first key and, past its two key prefixes (the search scripts' ARGV 1-2), what it was asked.
  if (name === 'EVALSHA') return printable(`EVALSHA ${scripts.get(String(args[1])) ?? String(args[1]).slice(0, 10)} ${args[3]} ${args.slice(6, 24).map((a) => String(a).slice(0, 40)).join(' ')}`.slice(0, 240))
  // The slow log keeps 128 bytes of each argument: an EVAL's script is named by its first words.
  if (name === 'EVAL') return printable(`EVAL "${String(args[1]).replace(/\s+/g, ' ').slice(0, 60)}..."`)
  return printable(args.slice(0, 4).map((a) => String(a).slice(0, 60)).join(' ').slice(0, 160))
}

/** Control bytes (separators inside keys) shown as `.`, so that the report stays text. */
const printable = (s: string) => s.replace(/[\u0000-\u001f\u007f]/g, '.')

/** Clears every node's per-command statistics (INFO commandstats). */
export async function resetCommandStats(nodes: readonly Redis[]): Promise<void> {
  for (const n of nodes) await n.call('CONFIG', 'RESETSTAT')
}

export interface CommandTime { command: string; calls: number; ms: number }

/**
 * Redis time by command since resetCommandStats, summed over the nodes, the `top` largest first (the bench's own
 * SLOWLOG, CONFIG and INFO calls left out, subcommands too: `config|resetstat`). A script's time
 * (EVALSHA) includes the commands it called, which are counted under their own names too.
 */
export async function commandTimes(nodes: readonly Redis[], top = 10): Promise<CommandTime[]> {
  const byCommand = new Map<string, CommandTime>()
  for (const n of nodes) {
    for (const [, command, calls, usec] of (await n.info('commandstats')).matchAll(/cmdstat_([\w|.]+):calls=(\d+),usec=(\d+)/g)) {
      const t = byCommand.get(command!) ?? { command: command!, calls: 0, ms: 0 }
      t.calls += Number(calls)
      t.ms += Number(usec) / 1000
      byCommand.set(command!, t)
    }
  }
  return [...byCommand.values()].filter((t) => !/^(slowlog|config|info)(\|.*)?$/.test(t.command)).sort((a, b) => b.ms - a.ms).slice(0, top)
}

/** CPU seconds each node's server used so far (used_cpu_user + used_cpu_sys). */
export async function cpuSeconds(nodes: readonly Redis[]): Promise<number[]> {
  return Promise.all(nodes.map(async (n) => {
    const info = await n.info('cpu')
    return Number(/used_cpu_user:([\d.]+)/.exec(info)![1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)![1])
  }))
}

/** Forks so far (a snapshot, an append-only file rewrite, or the search module's garbage collector), summed over the nodes, with the latest one's time. */
export async function forks(nodes: readonly Redis[]): Promise<{ count: number; latestMs: number }> {
  const infos = await Promise.all(nodes.map((n) => n.info('stats')))
  return {
    count: infos.reduce((a, info) => a + Number(/total_forks:(\d+)/.exec(info)?.[1] ?? 0), 0),
    latestMs: Math.max(...infos.map((info) => Number(/latest_fork_usec:(\d+)/.exec(info)?.[1] ?? 0) / 1000)),
  }
}

/** Every search index's FT.INFO reply on every node (none on a node without the module). */
async function searchIndexInfos(nodes: readonly Redis[]): Promise<unknown[][]> {
  const perNode = await Promise.all(nodes.map(async (n) => {
    const names = await n.call('FT._LIST').catch(() => []) as string[]
    return Promise.all(names.map((name) => n.call('FT.INFO', name) as Promise<unknown[]>))
  }))
  return perNode.flat()
}

/** The value after `name` in a flat name/value reply such as FT.INFO's (undefined without it). */
const replyValue = (reply: readonly unknown[], name: string): unknown => {
  const at = reply.indexOf(name)
  return at < 0 ? undefined : reply[at + 1]
}

/**
 * The search module's garbage collections so far, summed over every index of every node (FT.INFO's gc_stats): cycles
 * and their milliseconds (a cycle is a fork whose child scans the index; its time runs from the fork to the end of
 * the parent applying what the child found). Zero without the module.
 */
export async function searchGc(nodes: readonly Redis[]): Promise<{ cycles: number; ms: number }> {
  const total = { cycles: 0, ms: 0 }
  for (const info of await searchIndexInfos(nodes)) {
    const gc = (replyValue(info, 'gc_stats') ?? []) as unknown[]
    total.cycles += Number(replyValue(gc, 'total_cycles') ?? 0) || 0
    total.ms += Number(replyValue(gc, 'total_ms_run') ?? 0) || 0
  }
  return total
}

/**
 * Waits until no node is rewriting its append-only file, saving a snapshot or running a module's fork (a load grows
 * the file past its automatic rewrite threshold, and a kept store's search indexes, created with the module's
 * default interval before the service sets its own, collect garbage soon after loading; the fork's copying and
 * writing would be measured with the run); answers the seconds waited.
 */
export async function persistenceSettled(nodes: readonly Redis[]): Promise<number> {
  const started = performance.now()
  const busy = async () => (await Promise.all(nodes.map((n) => n.info('persistence'))))
    .some((info) => /(aof_rewrite_in_progress|rdb_bgsave_in_progress|aof_rewrite_scheduled|module_fork_in_progress):1/.test(info))
  while (await busy()) await new Promise((r) => setTimeout(r, 500))
  return (performance.now() - started) / 1000
}

/**
 * Waits until every search index of the nodes has indexed its documents (FT.INFO `indexing` 0): a kept store's
 * redis-server re-indexes every hash after it loads them, in steps on its one thread, which would slow a run that
 * started meanwhile. Nodes without the search module return at once. Returns the seconds waited.
 */
export async function searchIndexed(nodes: readonly Redis[]): Promise<number> {
  const started = performance.now()
  const indexing = async () => (await searchIndexInfos(nodes)).some((info) => String(replyValue(info, 'indexing')) !== '0')
  while (await indexing()) await new Promise((r) => setTimeout(r, 500))
  return (performance.now() - started) / 1000
}

/** used_memory summed over the nodes. */
export async function usedMemory(nodes: readonly Redis[]): Promise<number> {
  const each = await Promise.all(nodes.map(async (n) => Number(/used_memory:(\d+)/.exec(await n.info('memory'))![1])))
  return each.reduce((a, b) => a + b, 0)
}

/** Bytes held by the keys matching `pattern` on every node (MEMORY USAGE, exact). */
export async function keyBytes(nodes: readonly Redis[], pattern: string): Promise<number> {
  let bytes = 0
  for (const n of nodes) {
    for await (const keys of n.scanStream({ match: pattern, count: 1000 }) as AsyncIterable<string[]>) {
      const sizes = await Promise.all(keys.map((k) => n.memory('USAGE', k, 'SAMPLES', 0)))
      bytes += sizes.reduce<number>((a, b) => a + Number(b ?? 0), 0)
    }
  }
  return bytes
}
