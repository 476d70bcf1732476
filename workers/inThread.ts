/**
 * Runs the workers in a worker thread (workers/thread.ts), for `npm start`'s all-in-one process: in the same
 * thread as the gateway they took a share of its one core (in the live benchmark, 100,000 datasets, 8 query loops
 * and 200 writes/s on 2 cores, gateway and workers used 97% of one core between them and the writes' median was
 * twice that of separate processes). The thread's metrics are added to the process's `/metrics`.
 */
import { Worker } from 'node:worker_threads'
import type { Config } from '../model/config.ts'
import { addMetricsSource } from '../model/metricsText.ts'

/** What the main thread asks of the workers' thread. */
export type ToThread = { type: 'close' } | { type: 'metrics'; id: number }
/** What the workers' thread tells the main thread. */
export type FromThread = { type: 'ready' } | { type: 'failed'; error: string } | { type: 'closed' } | { type: 'metrics'; id: number; text: string }

export interface ThreadedWorkers {
  close(): Promise<void>
}

/** How long `/metrics` waits for the thread's part (a thread that does not answer leaves it out). */
const METRICS_WAIT_MS = 2000

/**
 * Starts the workers' thread and resolves once its workers run (rejects when they cannot start). `onCrash` is told
 * when the thread ends without being asked to (an uncaught error: its workers stopped; their jobs are found stalled
 * and run again by whichever worker comes next).
 */
export function startWorkersThread(config: Config, onCrash: (err: Error) => void): Promise<ThreadedWorkers> {
  const thread = new Worker(new URL('./thread.ts', import.meta.url), { workerData: { config } })
  const asked = new Map<number, (text: string) => void>()
  let next = 0
  let closing: Promise<void> | undefined
  let started = false
  let exited = false
  /** The thread ended unasked: before it was ready, the start fails; after, `onCrash` is told (once). */
  const ended = (err: Error, reject: (err: Error) => void) => {
    if (closing) return
    if (!started) return reject(err)
    started = false
    onCrash(err)
  }
  const removeSource = addMetricsSource(() => new Promise<string>((resolve) => {
    const id = next++
    asked.set(id, resolve)
    setTimeout(() => { if (asked.delete(id)) resolve('') }, METRICS_WAIT_MS).unref()
    thread.postMessage({ type: 'metrics', id } satisfies ToThread)
  }))
  return new Promise((resolve, reject) => {
    thread.on('message', (message: FromThread) => {
      if (message.type === 'ready') {
        started = true
        resolve({ close })
      } else if (message.type === 'failed') {
        removeSource()
        reject(new Error(message.error))
        void thread.terminate()
      } else if (message.type === 'metrics') {
        asked.get(message.id)?.(message.text)
        asked.delete(message.id)
      }
    })
    thread.on('error', (err) => {
      removeSource()
      ended(err, reject)
    })
    thread.on('exit', (code) => {
      exited = true
      removeSource()
      for (const resolveText of asked.values()) resolveText('')
      asked.clear()
      ended(new Error(`the workers' thread exited with code ${code}`), reject)
    })
  })

  function close(): Promise<void> {
    closing ??= new Promise<void>((resolve) => {
      removeSource()
      if (exited) return resolve()
      thread.once('exit', () => resolve())
      thread.on('message', (message: FromThread) => { if (message.type === 'closed') void thread.terminate() })
      thread.postMessage({ type: 'close' } satisfies ToThread)
    })
    return closing
  }
}
