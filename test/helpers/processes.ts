/** Service processes started as real child processes (for multi-process and crash tests). */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface ChildService {
  process: ChildProcess
  /** Everything the process printed so far. */
  output(): string
  /** Resolves when a line matching `pattern` was printed. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>
  kill(signal?: NodeJS.Signals): Promise<void>
}

/** Starts `node <script>` (a path relative to the repository root) with `env` added. */
export function spawnService(script: string, env: Record<string, string>): ChildService {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const waiters: { pattern: RegExp; resolve: () => void }[] = []
  const onData = (d: Buffer) => {
    out += d.toString()
    for (const w of [...waiters]) if (w.pattern.test(out)) { waiters.splice(waiters.indexOf(w), 1); w.resolve() }
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  return {
    process: child,
    output: () => out,
    waitFor(pattern, timeoutMs = 20_000) {
      if (pattern.test(out)) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern} from ${script}; output:\n${out.slice(-2000)}`)), timeoutMs)
        waiters.push({ pattern, resolve: () => { clearTimeout(timer); resolve() } })
      })
    },
    async kill(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise<void>((r) => child.once('exit', () => r()))
      child.kill(signal)
      await exited
    },
  }
}
