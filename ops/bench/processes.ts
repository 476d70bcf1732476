/** Child processes for the benchmark: the service's own processes and the bare baselines, started and stopped. */
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root (the processes' working directory). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface Child {
  process: ChildProcess
  /** What the process printed up to the moment it was ready. */
  output: string
  stop(): Promise<void>
}

/** Node flags the service's processes run with, as the image and `npm start` set them (ops/Dockerfile). */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=64']

/**
 * Whether the service's processes reach the benchmark's own redis-server through its unix socket, as `npm start`'s
 * do (ops/main.ts); `BENCH_REDIS_TCP=1`: over TCP, as from another machine.
 */
export const REDIS_SOCKET = process.env.BENCH_REDIS_TCP !== '1'

/**
 * Starts `node [execArgv] <script> [args]` from the repository root and resolves once its output matches `ready`.
 * Its later output is dropped, or with `BENCH_CHILD_LOGS=<dir>` kept whole in `<dir>/<script>-<pid>.log` (for Node's
 * own traces, such as `BENCH_GATEWAY_FLAGS=--trace-gc`).
 */
export function startChild(script: string, env: Record<string, string>, ready: RegExp, timeoutMs = 30_000, execArgv: string[] = [], args: string[] = []): Promise<Child> {
  const child = spawn(process.execPath, [...execArgv, script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL') // not left running behind a failed start
      reject(new Error(`${script} did not start within ${timeoutMs} ms: ${out.slice(-1000)}`))
    }, timeoutMs)
    const onData = (d: Buffer) => {
      out = (out + d.toString()).slice(-8000)
      if (ready.test(out)) {
        clearTimeout(timer)
        child.stdout!.removeListener('data', onData)
        child.stderr!.removeListener('data', onData)
        const logs = process.env.BENCH_CHILD_LOGS
        if (logs) {
          const file = createWriteStream(join(logs, `${basename(script, '.ts')}-${child.pid}.log`))
          file.write(out)
          child.stdout!.pipe(file, { end: false })
          child.stderr!.pipe(file, { end: false })
        } else {
          child.stdout!.resume()
          child.stderr!.resume()
        }
        resolve({
          process: child,
          output: out,
          stop: () => new Promise<void>((done) => {
            if (child.exitCode !== null) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
        })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${script} exited with ${code}: ${out.slice(-1000)}`)) })
  })
}

/**
 * CPU seconds (user + system) process `pid` has used, from /proc (Linux: fields 14 and 15 of its stat line, in ticks
 * of 1/100 s); NaN where there is no /proc.
 */
export function cpuSecondsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return NaN
  }
}

/** The whole machine's CPU time so far, by state, in clock ticks (Linux's /proc/stat; undefined elsewhere). */
export interface MachineTimes { busy: number; system: number; steal: number; total: number }
export function machineTimes(): MachineTimes | undefined {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number) as number[]
    const total = user! + nice! + system! + idle! + iowait! + irq! + softirq! + steal!
    return { busy: total - idle! - iowait!, system: system! + irq! + softirq!, steal: steal!, total }
  } catch {
    return undefined
  }
}
