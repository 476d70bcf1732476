/**
 * Which `npm start` owns a data folder. `<DATA_DIR>/svc-instance.json` names the process, its embedded
 * redis-server and its URLs: a start claims the folder (exclusive create) before touching anything, refuses while
 * a live process holds it or a redis-server still runs in it, and removes the record when it stops. The CLI reads
 * the record to find the embedded Redis without REDIS_URL.
 */
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const INSTANCE_FILE = 'svc-instance.json'

export interface InstanceRecord {
  pid: number
  startedAt: string
  redisUrl?: string
  redisPid?: number
  apiUrl?: string
  dashboardUrl?: string
}

/** A start that must not go on; its message is one line saying what is in use and what to do. */
export class InUseError extends Error {
  override name = 'InUseError'
}

/** Whether a process with this id exists (one of another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The record in `dataDir`, or undefined when there is none (or it is unreadable). */
export function readInstance(dataDir: string): InstanceRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(join(dataDir, INSTANCE_FILE), 'utf8')) as InstanceRecord
    return Number.isInteger(record.pid) ? record : undefined
  } catch {
    return undefined
  }
}

/** The record of a live `npm start` on `dataDir`, or undefined (no record, or its process is gone). */
export function runningInstance(dataDir: string): InstanceRecord | undefined {
  const record = readInstance(dataDir)
  return record && isAlive(record.pid) ? record : undefined
}

/** Process ids of redis-servers whose working folder is `dir` (redis-server chdirs into `--dir`); Linux only. */
export function redisServersIn(dir: string): number[] {
  let target: string
  let entries: string[]
  try {
    target = realpathSync(dir)
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  const found: number[] = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'redis-server') continue
      if (readlinkSync(`/proc/${entry}/cwd`) === target) found.push(Number(entry))
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found
}

export interface InstanceClaim {
  /** Adds fields to the record (URLs once known). */
  update(fields: Partial<InstanceRecord>): void
  /** Removes the record (only if it is still ours). */
  release(): void
}

/** What holds `dataDir` now, as a one-line refusal; undefined when it is free. */
export function holderOf(dataDir: string, self = process.pid): string | undefined {
  const shown = resolve(dataDir)
  const record = readInstance(dataDir)
  if (record && record.pid !== self && isAlive(record.pid)) {
    return `the data folder ${shown} is in use by another npm start (pid ${record.pid}${record.apiUrl ? `, ${record.apiUrl}` : ''}): ` +
      `stop it first (Ctrl-C in its terminal, or kill ${record.pid}), or set DATA_DIR to another folder`
  }
  const servers = redisServersIn(dataDir)
  if (servers.length > 0) {
    return `a redis-server (pid ${servers.join(', ')}) still runs on the data folder ${shown}, left by an earlier run: ` +
      `stop it first (kill ${servers.join(' ')}), or set DATA_DIR to another folder`
  }
  return undefined
}

/** Claims `dataDir` for this process; throws InUseError when something holds it. The folder must exist. */
export function claimDataDir(dataDir: string): InstanceClaim {
  const held = holderOf(dataDir)
  if (held) throw new InUseError(held)
  const file = join(dataDir, INSTANCE_FILE)
  try {
    unlinkSync(file) // a record left by a process that is gone
  } catch {
    // none
  }
  let record: InstanceRecord = { pid: process.pid, startedAt: new Date().toISOString() }
  let fd: number
  try {
    fd = openSync(file, 'wx')
  } catch {
    throw new InUseError(`the data folder ${resolve(dataDir)} was claimed by another npm start starting at the same time: stop it first, or set DATA_DIR to another folder`)
  }
  writeSync(fd, JSON.stringify(record))
  closeSync(fd)
  return {
    update(fields) {
      record = { ...record, ...fields }
      writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`)
      renameSync(`${file}.tmp`, file)
    },
    release() {
      if (readInstance(dataDir)?.pid !== process.pid) return
      try {
        unlinkSync(file)
      } catch {
        // already gone
      }
    },
  }
}
