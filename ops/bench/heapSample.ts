/**
 * `BENCH_GATEWAY_FLAGS=--import=./ops/bench/heapSample.ts`: where a service process allocates. Loaded into a process
 * (its main thread), it samples the heap's allocations from HEAP_SAMPLE_START_MS (125,000: after the live
 * scenario's load of 100,000 datasets) to HEAP_SAMPLE_STOP_MS (150,000) after the process started, and writes the
 * sampling profile to HEAP_SAMPLE_OUT (`heap.heapprofile` in the working directory; Chrome's DevTools read it). The
 * objects young- and old-generation collections freed meanwhile are kept in it, so it shows what was allocated;
 * HEAP_SAMPLE_SURVIVORS=1 leaves out those young-generation collections freed, so it shows what survived one (what
 * their pauses copy). HEAP_SAMPLE_WORKER=1 samples the process's worker thread instead (`npm start`'s process runs the
 * workers in one: workers/inThread.ts), whose times count from the thread's start.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { isMainThread } from 'node:worker_threads'

const start = Number(process.env.HEAP_SAMPLE_START_MS ?? 125_000)
const stop = Number(process.env.HEAP_SAMPLE_STOP_MS ?? 150_000)
const out = process.env.HEAP_SAMPLE_OUT ?? 'heap.heapprofile'
const survivors = process.env.HEAP_SAMPLE_SURVIVORS === '1'
const worker = process.env.HEAP_SAMPLE_WORKER === '1'

if (worker ? !isMainThread : isMainThread) {
  const session = new Session()
  session.connect()
  setTimeout(async () => {
    await session.post('HeapProfiler.enable')
    await session.post('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !survivors })
    setTimeout(async () => {
      const { profile } = await session.post('HeapProfiler.stopSampling')
      writeFileSync(out, JSON.stringify(profile))
    }, stop - start).unref()
  }, start).unref()
}
